package io.krill.fibers;

import java.time.Duration;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A counting semaphore for fibers: {@link #acquire()} suspends the waiting fiber instead of
 * blocking its carrier; off-fiber it blocks the thread.
 *
 * <p>Fair: permits go to waiters in arrival order, and an acquire does not overtake a waiting
 * strand even when enough permits are free for it. {@link #acquire(int)} and
 * {@link #tryAcquire(int, Duration)} may suspend. Thread-safe.
 */
public final class FiberSemaphore {
  /*
   * Implementation notes.
   *
   * `permits` and `waiters` are guarded by `mutex`. A waiter records how many permits it needs
   * (Waiter.amount); grantLocked() hands permits to the queue head while they suffice (claim,
   * then subtract), so a woken strand already owns its permits. A waiter that times out or is
   * cancelled withdraws under `mutex` and re-runs grantLocked(): the strands queued behind it
   * may now be satisfiable.
   */
  private static final Waiter NOT_ACQUIRED = new Waiter(null, null);

  private final ReentrantLock mutex = new ReentrantLock();
  private final WaitQueue waiters = new WaitQueue();
  private long permits;

  private FiberSemaphore(int permits) {
    this.permits = permits;
  }

  /**
   * Creates a semaphore.
   *
   * @param permits the initial number of permits
   * @return the semaphore
   * @throws IllegalArgumentException if permits is negative
   */
  public static FiberSemaphore create(int permits) {
    return new FiberSemaphore(Checks.nonNegative("permits", permits));
  }

  /**
   * Takes one permit, waiting until one is available. May suspend.
   *
   * @throws FiberCancelledException if the calling fiber is cancelled while it waits
   * @throws Suspendable never; marks that this method may suspend
   */
  public void acquire() throws Suspendable {
    acquire(1);
  }

  /**
   * Takes {@code n} permits at once, waiting until they are available. May suspend.
   *
   * @param n how many, at least 1
   * @throws FiberCancelledException if the calling fiber is cancelled while it waits (then it
   *     took no permit)
   * @throws Suspendable never; marks that this method may suspend
   */
  public void acquire(int n) throws Suspendable {
    Waiter w = acquireOrRegister(checkPermits(n), true);
    if (w != null) {
      Waiter.await(w, this, Waiter.NO_DEADLINE, this::withdraw);
    }
  }

  /**
   * Takes one permit if one is available now and nobody waits.
   *
   * @return true if taken
   */
  public boolean tryAcquire() {
    return acquireOrRegister(1, false) == null;
  }

  /**
   * Takes {@code n} permits, waiting at most {@code timeout} (on the scheduler's clock). May
   * suspend.
   *
   * @param n how many, at least 1
   * @param timeout the longest wait, not negative
   * @return true if taken; false if the timeout passed (then no permit was taken)
   * @throws FiberCancelledException if the calling fiber is cancelled while it waits
   * @throws Suspendable never; marks that this method may suspend
   */
  public boolean tryAcquire(int n, Duration timeout) throws Suspendable {
    long nanos = Waiter.timeoutNanos(timeout);
    Waiter w = acquireOrRegister(checkPermits(n), nanos > 0);
    if (w == null) {
      return true;
    }
    if (w == NOT_ACQUIRED) {
      return false;
    }
    return Waiter.await(w, this, Waiter.deadline(nanos), this::withdraw);
  }


  private static int checkPermits(int n) {
    return Checks.positive("permits", n);
  }

  private Waiter acquireOrRegister(int n, boolean register) {
    mutex.lock();
    try {
      if (waiters.isEmpty() && permits >= n) {
        permits -= n;
        return null;
      }
      if (!register) {
        return NOT_ACQUIRED;
      }
      Waiter w = new Waiter(Strand.current(), null);
      w.amount = n;
      waiters.add(w);
      return w;
    } finally {
      mutex.unlock();
    }
  }

  /** Returns one permit. */
  public void release() {
    release(1);
  }

  /**
   * Returns {@code n} permits, waking the waiters they satisfy.
   *
   * @param n how many, at least 1
   * @throws IllegalStateException if the count would exceed Integer.MAX_VALUE
   */
  public void release(int n) {
    checkPermits(n);
    Waiter granted;
    mutex.lock();
    try {
      if (permits + n > Integer.MAX_VALUE) {
        throw new IllegalStateException("semaphore: permits would exceed " + Integer.MAX_VALUE);
      }
      permits += n;
      granted = grantLocked();
    } finally {
      mutex.unlock();
    }
    Waiter.wakeAll(granted);
  }

  /* Claims head waiters while permits suffice; returns them chained through `next`, in order. */
  private Waiter grantLocked() {
    Waiter first = null;
    Waiter last = null;
    Waiter w;
    while ((w = waiters.peek()) != null && permits >= w.amount) {
      waiters.remove(w);
      if (w.claim()) {
        permits -= w.amount;
        if (last == null) {
          first = w;
        } else {
          last.next = w;
        }
        last = w;
      }
    }
    return first;
  }

  private boolean withdraw(Waiter w) {
    Waiter granted;
    mutex.lock();
    try {
      if (!w.abort()) {
        return false;
      }
      waiters.remove(w);
      granted = grantLocked();
    } finally {
      mutex.unlock();
    }
    Waiter.wakeAll(granted);
    return true;
  }

  /** @return the permits available now */
  public int availablePermits() {
    mutex.lock();
    try {
      return (int) permits;
    } finally {
      mutex.unlock();
    }
  }

  @Override
  public String toString() {
    mutex.lock();
    try {
      return "FiberSemaphore[" + permits + " permits, " + waiters.size() + " waiting]";
    } finally {
      mutex.unlock();
    }
  }
}
