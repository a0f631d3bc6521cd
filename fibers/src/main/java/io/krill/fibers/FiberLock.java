package io.krill.fibers;

import java.time.Duration;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A reentrant mutual-exclusion lock for fibers: where {@code synchronized} or a JDK lock would
 * block the carrier (and the weaver rejects suspension inside {@code synchronized}), this lock
 * suspends the waiting fiber.
 *
 * <pre>{@code
 * lock.lock();
 * try {
 *   account.withdraw(amount);   // may suspend while holding the lock
 * } finally {
 *   lock.unlock();
 * }
 * }</pre>
 *
 * <p>The owner is a strand: the current fiber, or the current thread off-fiber, so a fiber that
 * migrates between carriers keeps its lock. The lock is fair: {@link #unlock()} hands it to the
 * longest waiting strand. {@link #lock()} and {@link #tryLock(Duration)} may suspend the calling
 * fiber, never the carrier; off-fiber they block the thread. Thread-safe.
 */
public final class FiberLock {
  /*
   * Implementation notes.
   *
   * `owner`, `holds` and `waiters` are guarded by `mutex`, held for a few field updates only.
   * unlock() hands the lock straight to the first open waiter (claim, then owner = its strand),
   * so a woken strand never competes again and the lock is FIFO-fair; the owner is null only
   * while no open waiter exists. A timed-out or cancelled waiter aborts under `mutex`.
   */
  private static final Waiter NOT_ACQUIRED = new Waiter(null, null);

  private final ReentrantLock mutex = new ReentrantLock();
  private final WaitQueue waiters = new WaitQueue();
  private final String name;
  private Object owner;
  private int holds;

  /** Creates an unnamed lock. */
  public FiberLock() {
    this(null);
  }

  /** @param name the name shown in fiber dumps, or null */
  public FiberLock(String name) {
    this.name = name;
  }

  /**
   * Acquires the lock, waiting as long as it takes. May suspend.
   *
   * @throws FiberCancelledException if the calling fiber is cancelled while it waits
   * @throws Suspendable never; marks that this method may suspend
   */
  public void lock() throws Suspendable {
    Waiter w = acquireOrRegister(true);
    if (w != null) {
      Waiter.await(w, this, Waiter.NO_DEADLINE, this::withdraw);
    }
  }

  /**
   * Acquires the lock if it is free or held by the calling strand.
   *
   * @return true if acquired
   */
  public boolean tryLock() {
    return acquireOrRegister(false) == null;
  }

  /**
   * Acquires the lock, waiting at most {@code timeout} (on the scheduler's clock). May suspend.
   *
   * @param timeout the longest wait, not negative
   * @return true if acquired, false if the timeout passed
   * @throws FiberCancelledException if the calling fiber is cancelled while it waits
   * @throws Suspendable never; marks that this method may suspend
   */
  public boolean tryLock(Duration timeout) throws Suspendable {
    long nanos = Waiter.timeoutNanos(timeout);
    Waiter w = acquireOrRegister(nanos > 0);
    if (w == null) {
      return true;
    }
    if (w == NOT_ACQUIRED) {
      return false;
    }
    return Waiter.await(w, this, Waiter.deadline(nanos), this::withdraw);
  }


  /* Returns null if acquired; else a registered waiter, or NOT_ACQUIRED if !register. */
  private Waiter acquireOrRegister(boolean register) {
    Object me = Strand.current();
    mutex.lock();
    try {
      if (owner == null) {
        owner = me;
        holds = 1;
        return null;
      }
      if (owner == me) {
        if (holds == Integer.MAX_VALUE) {
          throw new IllegalStateException("lock " + this + ": maximum hold count exceeded");
        }
        holds++;
        return null;
      }
      if (!register) {
        return NOT_ACQUIRED;
      }
      Waiter w = new Waiter(me, null);
      waiters.add(w);
      return w;
    } finally {
      mutex.unlock();
    }
  }

  /**
   * Releases one hold; the last release hands the lock to the longest waiting strand.
   *
   * @throws IllegalMonitorStateException if the calling strand does not hold the lock
   */
  public void unlock() {
    Object me = Strand.current();
    Waiter next = null;
    mutex.lock();
    try {
      if (owner != me) {
        throw new IllegalMonitorStateException("lock " + this + ": not held by " + me);
      }
      if (--holds == 0) {
        next = waiters.pollOpen();
        while (next != null && !next.claim()) {
          next = waiters.pollOpen();
        }
        owner = next != null ? next.strand : null;
        holds = next != null ? 1 : 0;
      }
    } finally {
      mutex.unlock();
    }
    if (next != null) {
      Strand.wake(next.strand);
    }
  }

  private boolean withdraw(Waiter w) {
    return waiters.withdraw(w, mutex);
  }

  /** @return true if some strand holds the lock */
  public boolean isLocked() {
    mutex.lock();
    try {
      return owner != null;
    } finally {
      mutex.unlock();
    }
  }

  /** @return true if the calling strand (fiber, or thread off-fiber) holds the lock */
  public boolean isHeldByCurrentStrand() {
    Object me = Strand.current();
    mutex.lock();
    try {
      return owner == me;
    } finally {
      mutex.unlock();
    }
  }

  @Override
  public String toString() {
    Object o;
    int waiting;
    mutex.lock();
    try {
      o = owner;
      waiting = waiters.size();
    } finally {
      mutex.unlock();
    }
    String n = name != null ? name : "FiberLock@" + Integer.toHexString(System.identityHashCode(this));
    return n + (o == null ? "[unlocked]" : "[held by " + o + ", " + waiting + " waiting]");
  }
}
