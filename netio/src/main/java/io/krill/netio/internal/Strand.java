package io.krill.netio.internal;

import io.krill.fibers.Fiber;
import io.krill.fibers.FiberCancelledException;
import io.krill.fibers.Suspendable;
import java.util.concurrent.locks.LockSupport;

/**
 * Whoever waits on a netio operation: the current fiber, or the current thread off-fiber.
 * Waiting code records {@link #current()}, publishes it, re-checks its condition and parks;
 * the completing side calls {@link #wake(Object)}. A wake-up before the park leaves a permit,
 * so none is lost; callers loop on their condition, so spurious returns are harmless. Not API.
 */
public final class Strand {
  private Strand() {}

  /** @return the current fiber, or the current thread */
  public static Object current() {
    Fiber f = Fiber.current();
    return f != null ? f : Thread.currentThread();
  }

  /** Wakes a strand recorded with {@link #current()}; callable from any thread. */
  public static void wake(Object strand) {
    if (strand instanceof Fiber) {
      ((Fiber) strand).unpark();
    } else if (strand != null) {
      LockSupport.unpark((Thread) strand);
    }
  }

  /**
   * Wakes a strand recorded with {@link #current()}, running it here at once when it is a
   * fiber parked on the calling event loop (see {@link Fiber#resumeHere()}); the caller holds
   * no lock. Callable from any thread.
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
   * Parks the current strand until woken, or at most until {@code deadline}.
   *
   * @param blocker what is waited on, for dumps
   * @param deadline a {@link System#nanoTime()} deadline, or {@link Long#MAX_VALUE} for none
   * @return false once the deadline has passed
   * @throws Suspendable never; marks that this method suspends
   */
  public static boolean park(Object blocker, long deadline) throws Suspendable {
    if (deadline == Long.MAX_VALUE) {
      Fiber.park(blocker);
    } else {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        return false;
      }
      Fiber.parkNanos(blocker, left);
    }
    if (Fiber.current() == null && Thread.currentThread().isInterrupted()) {
      // A thread's interrupt plays the part of a fiber's cancel; the flag stays set.
      throw new FiberCancelledException(Thread.currentThread().getName());
    }
    return true;
  }

  /** @return the deadline {@code timeoutNanos} from now, or {@link Long#MAX_VALUE} when it is 0 (none) */
  public static long deadline(long timeoutNanos) {
    if (timeoutNanos <= 0) {
      return Long.MAX_VALUE;
    }
    long d = System.nanoTime() + timeoutNanos;
    return d == Long.MAX_VALUE ? d - 1 : d;
  }
}
