package io.krill.loadtest.internal;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * JDK 21+ virtual threads, reached through method handles so that this module compiles with
 * {@code --release 17} and still runs on JDK 17, where they are absent.
 */
public final class VirtualThreads {
  /** The line printed (and the message thrown) where virtual threads are missing. */
  public static final String SKIPPED = "skipped: no JDK 21+ (virtual threads are absent on JDK "
      + Runtime.version().feature() + ")";

  private static final MethodHandle OF_VIRTUAL;
  private static final MethodHandle UNSTARTED;

  static {
    MethodHandle ofVirtual = null;
    MethodHandle unstarted = null;
    try {
      MethodHandles.Lookup lookup = MethodHandles.publicLookup();
      Class<?> builder = Class.forName("java.lang.Thread$Builder");
      Class<?> ofVirtualType = Class.forName("java.lang.Thread$Builder$OfVirtual");
      ofVirtual = lookup.findStatic(Thread.class, "ofVirtual", MethodType.methodType(ofVirtualType));
      unstarted = lookup.findVirtual(builder, "unstarted", MethodType.methodType(Thread.class, Runnable.class));
    } catch (ReflectiveOperationException e) {
      ofVirtual = null;
      unstarted = null;
    }
    OF_VIRTUAL = ofVirtual;
    UNSTARTED = unstarted;
  }

  private VirtualThreads() {}

  /** @return true when this JDK has virtual threads */
  public static boolean available() {
    return UNSTARTED != null;
  }

  /**
   * Creates an unstarted virtual thread.
   *
   * @param task what it runs
   * @return the thread
   * @throws UnsupportedOperationException with {@link #SKIPPED} when the JDK has none
   */
  public static Thread unstarted(Runnable task) {
    if (!available()) {
      throw new UnsupportedOperationException(SKIPPED);
    }
    try {
      Object builder = OF_VIRTUAL.invoke();
      return (Thread) UNSTARTED.invoke(builder, task);
    } catch (RuntimeException | Error e) {
      throw e;
    } catch (Throwable e) {
      throw new IllegalStateException("cannot create a virtual thread", e);
    }
  }

  /**
   * Creates and starts a virtual thread.
   *
   * @param task what it runs
   * @return the started thread
   * @throws UnsupportedOperationException with {@link #SKIPPED} when the JDK has none
   */
  public static Thread start(Runnable task) {
    Thread t = unstarted(task);
    t.start();
    return t;
  }
}
