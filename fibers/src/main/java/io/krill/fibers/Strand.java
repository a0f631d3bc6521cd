package io.krill.fibers;

import java.util.concurrent.locks.LockSupport;

/**
 * Whoever waits: the current fiber, or the current thread off-fiber. Waiting code records
 * {@link #current()}, publishes it, re-checks its condition and parks; the completing side calls
 * {@link #wake(Object)}. A wake-up before the park leaves a permit, so none is lost; callers loop
 * on their condition, so spurious returns are harmless. A thread's interrupt plays the part of a
 * fiber's cancel: a parked thread that is interrupted gets a {@link FiberCancelledException} and
 * keeps its interrupt flag.
 *
 * <p>For libraries that build blocking primitives (channels, sockets, connections); application
 * code uses those primitives instead. All methods are callable from any thread.
 */
public final class Strand {
  private Strand() {}

  /** @return the current fiber, or the current thread */
  public static Object current() {
    Fiber f = Fiber.current();
    return f != null ? f : Thread.currentThread();
  }

  /** Wakes a strand recorded with {@link #current()}; null is ignored. */
  public static void wake(Object strand) {
    if (strand instanceof Fiber) {
      ((Fiber) strand).unpark();
    } else if (strand != null) {
      LockSupport.unpark((Thread) strand);
    }
  }

  /**
   * Wakes a strand recorded with {@link #current()}, running it here at once when it is a fiber
   * parked on the calling event loop (see {@link Fiber#resumeHere()}); the caller holds no lock.
   */
  public static void wakeHere(Object strand) {
    if (strand instanceof Fiber) {
      Fiber f = (Fiber) strand;
      if (!f.resumeHere()) {
        f.unpark();
      }
    } else if (strand != null) {
      LockSupport.unpark((Thread) strand);
    }
  }

  /**
   * Parks the current strand until woken. May suspend.
   *
   * @param blocker what is waited on, for dumps
   * @throws Suspendable never; marks that this method suspends
   */
  public static void park(Object blocker) throws Suspendable {
    Fiber.park(blocker);
    checkThreadInterrupt();
  }

  /**
   * Parks the current strand until woken or for at most {@code nanos}. May suspend.
   *
   * @param blocker what is waited on, for dumps
   * @param nanos the longest wait
   * @throws Suspendable never; marks that this method suspends
   */
  public static void parkNanos(Object blocker, long nanos) throws Suspendable {
    Fiber.parkNanos(blocker, nanos);
    checkThreadInterrupt();
  }

  /**
   * Parks the current strand until woken, or at most until {@code deadline}. May suspend.
   *
   * @param blocker what is waited on, for dumps
   * @param deadline a {@link System#nanoTime()} deadline, or {@link Long#MAX_VALUE} for none
   * @return false once the deadline has passed
   * @throws Suspendable never; marks that this method suspends
   */
  public static boolean park(Object blocker, long deadline) throws Suspendable {
    if (deadline == Long.MAX_VALUE) {
      park(blocker);
      return true;
    }
    long left = deadline - System.nanoTime();
    if (left <= 0) {
      return false;
    }
    parkNanos(blocker, left);
    return true;
  }

  /** @return the deadline {@code timeoutNanos} from now, or {@link Long#MAX_VALUE} when it is 0 or less (none) */
  public static long deadline(long timeoutNanos) {
    if (timeoutNanos <= 0) {
      return Long.MAX_VALUE;
    }
    long d = System.nanoTime() + timeoutNanos;
    return d == Long.MAX_VALUE ? d - 1 : d;
  }

  private static void checkThreadInterrupt() {
    if (Fiber.current() == null && Thread.currentThread().isInterrupted()) {
      // The flag stays set, so the thread's next blocking call sees it too.
      throw new FiberCancelledException(Thread.currentThread().getName());
    }
  }
}
