package io.krill.fibers;

import java.time.Duration;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A one-shot latch for fibers: {@link #await()} waits until {@link #countDown()} has been called
 * {@code count} times. Waiting suspends the fiber, never its carrier; off-fiber it blocks the
 * thread. Thread-safe.
 */
public final class FiberCountDownLatch {
  private static final Waiter NOT_OPEN = new Waiter(null, null);

  private final ReentrantLock mutex = new ReentrantLock();
  private final WaitQueue waiters = new WaitQueue();
  private long count;

  private FiberCountDownLatch(long count) {
    this.count = count;
  }

  /**
   * Creates a latch.
   *
   * @param count how many countDown() calls open it
   * @return the latch
   * @throws IllegalArgumentException if count is negative
   */
  public static FiberCountDownLatch create(long count) {
    return new FiberCountDownLatch(Checks.nonNegative("count", count));
  }

  /** Counts down once; the call that reaches zero wakes every waiter. Extra calls do nothing. */
  public void countDown() {
    Waiter released = null;
    mutex.lock();
    try {
      if (count == 0) {
        return;
      }
      if (--count == 0) {
        released = waiters.claimAll(false, null);
      }
    } finally {
      mutex.unlock();
    }
    Waiter.wakeAll(released);
  }

  /**
   * Waits until the count reaches zero. May suspend.
   *
   * @throws FiberCancelledException if the calling fiber is cancelled while it waits
   * @throws Suspendable never; marks that this method may suspend
   */
  public void await() throws Suspendable {
    Waiter w = register(true);
    if (w != null) {
      Waiter.await(w, this, Waiter.NO_DEADLINE, this::withdraw);
    }
  }

  /**
   * Waits at most {@code timeout} (on the scheduler's clock) for the count to reach zero. May
   * suspend.
   *
   * @param timeout the longest wait, not negative
   * @return true if the count reached zero, false if the timeout passed
   * @throws FiberCancelledException if the calling fiber is cancelled while it waits
   * @throws Suspendable never; marks that this method may suspend
   */
  public boolean await(Duration timeout) throws Suspendable {
    long nanos = Waiter.timeoutNanos(timeout);
    Waiter w = register(nanos > 0);
    if (w == null) {
      return true;
    }
    if (w == NOT_OPEN) {
      return false;
    }
    return Waiter.await(w, this, Waiter.deadline(nanos), this::withdraw);
  }


  /* Returns null if open (count zero); else a registered waiter, or NOT_OPEN. */
  private Waiter register(boolean wait) {
    mutex.lock();
    try {
      if (count == 0) {
        return null;
      }
      if (!wait) {
        return NOT_OPEN;
      }
      Waiter w = new Waiter(Strand.current(), null);
      waiters.add(w);
      return w;
    } finally {
      mutex.unlock();
    }
  }

  private boolean withdraw(Waiter w) {
    return waiters.withdraw(w, mutex);
  }

  /** @return the current count */
  public long getCount() {
    mutex.lock();
    try {
      return count;
    } finally {
      mutex.unlock();
    }
  }

  @Override
  public String toString() {
    return "FiberCountDownLatch[count " + getCount() + "]";
  }
}
