package io.krill.fibers;

import java.util.concurrent.locks.ReentrantLock;

/**
 * A CSP barrier: a set of enrolled parties that repeatedly wait for each other. Each phase
 * ends when every enrolled party has called {@link #sync()}; then all of them continue and a
 * new phase starts. Parties join with {@link #enroll()} and leave with {@link #resign()}; a
 * resignation that leaves only parties that already synced ends the phase.
 *
 * <pre>{@code
 * Barrier b = Barrier.create(2);
 * Fiber.start(() -> { step1(); b.sync(); step2(); b.resign(); });
 * step1(); b.sync(); step2(); b.resign();
 * }</pre>
 *
 * <p>{@link #sync()} may suspend: it suspends the calling fiber, never the carrier; off-fiber
 * it blocks the thread. The barrier counts parties; it does not know which strand enrolled,
 * so a party that syncs must be enrolled. Thread-safe.
 */
public final class Barrier {
  /*
   * Implementation notes.
   *
   * Arrivals, enrollment and the queue of waiting parties are guarded by `lock`. A waiting
   * party's withdrawal (cancellation) aborts its waiter and un-counts its arrival under the
   * same lock, so the party that completes a phase sees only open waiters and claims all.
   */
  private final ReentrantLock lock = new ReentrantLock();
  private final WaitQueue waiting = new WaitQueue();
  private int enrolled;
  private int arrived;
  private long phase;

  private Barrier(int parties) {
    this.enrolled = parties;
  }

  /**
   * Creates a barrier.
   *
   * @param parties how many parties are enrolled at first
   * @return the barrier
   * @throws IllegalArgumentException if parties is negative
   */
  public static Barrier create(int parties) {
    return new Barrier(Checks.nonNegative("parties", parties));
  }

  /**
   * Enrolls one more party; the current phase now waits for it too.
   *
   * @throws IllegalStateException if that would exceed Integer.MAX_VALUE parties
   */
  public void enroll() {
    lock.lock();
    try {
      if (enrolled == Integer.MAX_VALUE) {
        throw new IllegalStateException("barrier: too many parties");
      }
      enrolled++;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Resigns one party (one that is not waiting in {@link #sync()}). If every remaining party
   * has already synced in this phase, the phase ends and they continue.
   *
   * @throws IllegalStateException if no party is enrolled
   */
  public void resign() {
    Waiter released = null;
    lock.lock();
    try {
      if (enrolled == 0) {
        throw new IllegalStateException("barrier: resign with no enrolled party");
      }
      enrolled--;
      if (arrived > 0 && arrived == enrolled) {
        released = endPhaseLocked();
      }
    } finally {
      lock.unlock();
    }
    Waiter.wakeAll(released);
  }

  /**
   * Waits until every enrolled party has synced in this phase. May suspend.
   *
   * @throws IllegalStateException if more parties sync in this phase than are enrolled
   * @throws FiberCancelledException if the calling fiber is cancelled while it waits; its
   *     arrival is then withdrawn, unless the phase ended first (then it returns normally, and
   *     the next blocking call throws)
   * @throws Suspendable never; marks that this method may suspend
   */
  public void sync() throws Suspendable {
    Waiter w = arrive();
    if (w != null) {
      Waiter.await(w, this, Waiter.NO_DEADLINE, this::withdraw);
    }
  }

  private Waiter arrive() {
    Waiter w = null;
    Waiter released = null;
    lock.lock();
    try {
      if (arrived >= enrolled) {
        throw new IllegalStateException("barrier: sync by " + (arrived + 1) + " parties in a phase with "
            + enrolled + " enrolled");
      }
      if (++arrived == enrolled) {
        released = endPhaseLocked();
      } else {
        w = new Waiter(Strand.current(), null);
        waiting.add(w);
      }
    } finally {
      lock.unlock();
    }
    Waiter.wakeAll(released);
    return w;
  }

  private Waiter endPhaseLocked() {
    arrived = 0;
    phase++;
    return waiting.claimAll(false, null);
  }

  private boolean withdraw(Waiter w) {
    lock.lock();
    try {
      if (!w.abort()) {
        return false;
      }
      waiting.remove(w);
      arrived--;
      return true;
    } finally {
      lock.unlock();
    }
  }

  /** @return how many parties are enrolled */
  public int parties() {
    lock.lock();
    try {
      return enrolled;
    } finally {
      lock.unlock();
    }
  }

  /** @return how many phases have ended */
  public long phase() {
    lock.lock();
    try {
      return phase;
    } finally {
      lock.unlock();
    }
  }

  @Override
  public String toString() {
    lock.lock();
    try {
      return "Barrier[" + arrived + " of " + enrolled + " synced, phase " + phase + "]";
    } finally {
      lock.unlock();
    }
  }
}
