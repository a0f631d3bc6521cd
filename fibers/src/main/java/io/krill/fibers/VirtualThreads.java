package io.krill.fibers;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.concurrent.ExecutorService;

/**
 * JDK 21+ virtual threads, reached through method handles so that code compiled with
 * {@code --release 17} still runs on JDK 17, where they are absent (then {@link #available()} is
 * false and the other methods throw {@link UnsupportedOperationException} with {@link #UNAVAILABLE}).
 * Thread-safe.
 */
public final class VirtualThreads {
  /** The one-line reason printed (and thrown) where virtual threads are missing. */
  public static final String UNAVAILABLE = "needs JDK 21+ (virtual threads are absent on JDK "
      + Runtime.version().feature() + ")";

  private static final MethodHandle OF_VIRTUAL;
  private static final MethodHandle UNSTARTED;
  private static final MethodHandle PER_TASK;

  static {
    MethodHandle ofVirtual = null;
    MethodHandle unstarted = null;
    MethodHandle perTask = null;
    try {
      MethodHandles.Lookup lookup = MethodHandles.publicLookup();
      Class<?> builder = Class.forName("java.lang.Thread$Builder");
      Class<?> ofVirtualType = Class.forName("java.lang.Thread$Builder$OfVirtual");
      ofVirtual = lookup.findStatic(Thread.class, "ofVirtual", MethodType.methodType(ofVirtualType));
      unstarted = lookup.findVirtual(builder, "unstarted", MethodType.methodType(Thread.class, Runnable.class));
      perTask = lookup.findStatic(java.util.concurrent.Executors.class, "newVirtualThreadPerTaskExecutor",
          MethodType.methodType(ExecutorService.class));
    } catch (ReflectiveOperationException e) {
      ofVirtual = null;
      unstarted = null;
      perTask = null;
    }
    OF_VIRTUAL = ofVirtual;
    UNSTARTED = unstarted;
    PER_TASK = perTask;
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
   * @throws UnsupportedOperationException with {@link #UNAVAILABLE} when the JDK has none
   */
  public static Thread unstarted(Runnable task) {
    requireAvailable();
    try {
      return (Thread) UNSTARTED.invoke(OF_VIRTUAL.invoke(), task);
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
   * @throws UnsupportedOperationException with {@link #UNAVAILABLE} when the JDK has none
   */
  public static Thread start(Runnable task) {
    Thread t = unstarted(task);
    t.start();
    return t;
  }

  /**
   * Creates an executor that starts a new virtual thread per task.
   *
   * @return the executor; the caller shuts it down
   * @throws UnsupportedOperationException with {@link #UNAVAILABLE} when the JDK has none
   */
  public static ExecutorService newThreadPerTaskExecutor() {
    requireAvailable();
    try {
      return (ExecutorService) PER_TASK.invoke();
    } catch (RuntimeException | Error e) {
      throw e;
    } catch (Throwable e) {
      throw new IllegalStateException("cannot create a virtual-thread executor", e);
    }
  }

  private static void requireAvailable() {
    if (!available()) {
      throw new UnsupportedOperationException(UNAVAILABLE);
    }
  }
}
