package io.krill.fibers;

import java.util.concurrent.locks.LockSupport;

/**
 * A strand is whoever waits: the current fiber, or the current thread off-fiber. Waiting code
 * in this package records {@link #current()} and is woken with {@link #wake(Object)}.
 */
final class Strands {
  private Strands() {}

  /** @return the current fiber, or the current thread */
  static Object current() {
    Fiber f = Fiber.current();
    return f != null ? f : Thread.currentThread();
  }

  /** Wakes a strand recorded with {@link #current()}; callable from any thread. */
  static void wake(Object strand) {
    if (strand instanceof Fiber) {
      ((Fiber) strand).unpark();
    } else {
      LockSupport.unpark((Thread) strand);
    }
  }

  /** Parks the current strand; a thread that is interrupted gets a {@link FiberCancelledException}. */
  static void park(Object blocker) throws Suspendable {
    Fiber.park(blocker);
    checkThreadInterrupt();
  }

  /** Parks the current strand for at most {@code nanos}. */
  static void parkNanos(Object blocker, long nanos) throws Suspendable {
    Fiber.parkNanos(blocker, nanos);
    checkThreadInterrupt();
  }

  private static void checkThreadInterrupt() {
    if (Fiber.current() == null && Thread.interrupted()) {
      Thread.currentThread().interrupt();
      throw new FiberCancelledException(Thread.currentThread().getName());
    }
  }
}
