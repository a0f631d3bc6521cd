package io.krill.httpd;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/** Starts the strands of {@link ExecutionMode#VIRTUAL} and {@link ExecutionMode#PLATFORM}. Thread-safe. */
final class Strands {
  private static final MethodHandle START_VIRTUAL = findStartVirtual();

  private Strands() {}

  private static MethodHandle findStartVirtual() {
    try {
      // Thread.startVirtualThread(Runnable), JDK 21+; reached by reflection so the code stays Java 17.
      return MethodHandles.publicLookup().findStatic(Thread.class, "startVirtualThread",
          MethodType.methodType(Thread.class, Runnable.class));
    } catch (NoSuchMethodException | IllegalAccessException e) {
      return null;
    }
  }

  /** @return true if this JDK has virtual threads */
  static boolean virtualThreadsAvailable() {
    return START_VIRTUAL != null;
  }

  /** Starts {@code body} on a new virtual thread. */
  static void startVirtual(Runnable body) {
    try {
      START_VIRTUAL.invoke(body);
    } catch (RuntimeException | Error e) {
      throw e;
    } catch (Throwable t) {
      throw new IllegalStateException("starting a virtual thread failed", t);
    }
  }

  /** Starts {@code body} on a new platform thread named {@code name}. */
  static void startPlatform(String name, Runnable body) {
    Thread t = new Thread(body, name);
    t.setDaemon(true);
    t.start();
  }
}
