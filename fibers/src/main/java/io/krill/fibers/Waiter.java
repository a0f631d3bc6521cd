package io.krill.fibers;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.function.Predicate;

/**
 * One registration of a waiting strand in a {@link WaitQueue}: a parked send, receive, lock
 * acquisition, or one case of a {@link Select}. Package-private.
 *
 * <p>Every waiter belongs to an owner that holds the decision. A single operation is its own
 * owner; the cases of a select share one owner, so at most one of them can ever win.
 */
final class Waiter {
  /*
   * Implementation notes.
   *
   * `decision` (on the owner only) is null while the wait is open. A counterparty that wants
   * to complete a waiter w CASes null -> w (claim); the waiting strand itself CASes
   * null -> ABORTED when it times out or is cancelled (abort). Exactly one CAS succeeds, so
   * an item is handed over exactly once and a select has exactly one winner.
   *
   * A counterparty writes `item` or `closed` into w *before* its claim CAS and wakes the
   * strand after it; the strand reads `decision` (volatile) before `item`, so it sees the
   * values of the winning claim. A claim that fails leaves writes in a waiter that nobody
   * will read: it lost, and it is dropped.
   *
   * `prev`, `next` and `queue` are guarded by the lock of whatever structure holds the queue.
   *
   * Single channel operations of fibers recycle their waiters: a fiber that sees its decision
   * leaves the waiter as its carrier's spare (recycle()), and the next blocking send or receive
   * on that carrier reopens it for its own fiber (reopen()), so a blocking operation allocates
   * nothing. That is safe without a generation counter because a channel claims and aborts a
   * single operation's waiter only under its own lock, and takes everything it needs from the
   * waiter (the item, the strand to wake) before the claim: once the owner can see its
   * decision, nobody else reads or writes the waiter again. The same lock makes the claim of a
   * single operation a release store instead of a CAS (claimLocked()).
   */
  static final Object ABORTED = new Object() {
    @Override
    public String toString() {
      return "ABORTED";
    }
  };

  /** A deadline meaning "wait forever". */
  static final long NO_DEADLINE = Long.MAX_VALUE;

  private static final VarHandle DECISION;

  static {
    try {
      DECISION = MethodHandles.lookup().findVarHandle(Waiter.class, "decision", Object.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  final Waiter owner;
  Object strand; // changes only when reopened, under the channel's lock
  final int index;
  Object item;
  Object blocker; // what a single channel operation waits on, for dumps (see Fiber.blocker())
  boolean closed;
  long amount;
  Waiter prev;
  Waiter next;
  Object runLink; // the next entry of the carrier's local run queue while this waiter's fiber is queued there (see LocalRunQueue)
  WaitQueue queue;
  private volatile Object decision;

  /** Creates a waiter that is its own owner: a single blocking operation of {@code strand}. */
  Waiter(Object strand, Object item) {
    this.owner = this;
    this.strand = strand;
    this.index = -1;
    this.item = item;
  }

  /** Creates case {@code index} of a select whose decision {@code owner} holds. */
  Waiter(Waiter owner, int index, Object item) {
    this.owner = owner;
    this.strand = owner.strand;
    this.index = index;
    this.item = item;
  }

  /** @return true if this waiter won: the caller completes it and must wake {@link #strand} */
  boolean claim() {
    return DECISION.compareAndSet(owner, null, this);
  }

  /**
   * Claims this waiter for a counterparty that holds the lock under which this waiter's wait is
   * also aborted (a channel's): for a single operation a release store, for a select case a CAS.
   *
   * @return true if this waiter won: the caller completes it and must wake {@link #strand}
   */
  boolean claimLocked() {
    if (owner != this) {
      return claim();
    }
    if (decision != null) {
      return false;
    }
    DECISION.setRelease(this, this);
    return true;
  }

  /**
   * Decides a single-operation waiter that the caller took out of a channel's rendezvous slot
   * with a CAS, which made the caller its only holder: a release store. The caller reads the
   * waiter's strand first and never touches the waiter afterwards.
   */
  void decideTaken() {
    DECISION.setRelease(this, this);
  }

  /**
   * Opens a recycled waiter again for another single operation. The caller holds the lock of
   * the channel it will register with, or registers it with a CAS on the channel's rendezvous
   * slot; either publishes these writes.
   */
  void reopen(Object newStrand, Object newItem) {
    if (strand != newStrand) { // mostly the same fiber again: a load instead of a fenced store (008)
      strand = newStrand;
    }
    item = newItem;
    closed = false;
    DECISION.set(this, null);
  }

  /**
   * Leaves a decided single-operation waiter of the current fiber as its carrier's spare,
   * dropping its item. Called by the waiter's own strand after it has read the outcome.
   */
  static void recycle(Waiter w) {
    Thread t = Thread.currentThread();
    if (t instanceof CarrierThread && w.owner == w && w.queue == null && w.decision != null) {
      w.item = null;
      ((CarrierThread) t).spareWaiter = w;
    }
  }

  /** @return true if the owner's wait was still open and is now abandoned */
  boolean abort() {
    return DECISION.compareAndSet(owner, null, ABORTED);
  }

  /** @return the owner's decision: null while open, the winning waiter, or {@link #ABORTED} */
  Object decision() {
    return owner.decision;
  }

  /** @return true while nobody has claimed or aborted the owner's wait */
  boolean isOpen() {
    return owner.decision == null;
  }

  /** @return the current strand's clock: the fiber's scheduler's, or System.nanoTime() */
  static long now() {
    Fiber f = Fiber.current();
    return f != null ? f.scheduler().nanoTime() : System.nanoTime();
  }

  /**
   * Checks a timeout argument at an API boundary.
   *
   * @return the timeout in nanoseconds, saturated at about 292 years
   * @throws IllegalArgumentException if the timeout is negative
   */
  static long timeoutNanos(java.time.Duration timeout) {
    Checks.nonNegative("timeout", timeout);
    try {
      return timeout.toNanos();
    } catch (ArithmeticException e) {
      return NO_DEADLINE - 1;
    }
  }

  /** @return the deadline {@code nanos} from now on the current strand's clock, saturated */
  static long deadline(long nanos) {
    long now = now();
    long d = now + nanos;
    return nanos > 0 && d < now ? NO_DEADLINE - 1 : d;
  }

  /**
   * Parks the current strand until {@code owner} is decided. On timeout or cancellation it
   * calls {@code withdraw}, which aborts the wait and unregisters it, or answers false if a
   * counterparty decided first; then the wait counts as decided, and a cancellation is
   * re-armed so that the strand's next blocking call throws it.
   *
   * @return true if decided by a counterparty; false if the deadline passed
   * @throws FiberCancelledException if cancelled before a decision
   */
  static boolean await(Waiter owner, Object blocker, long deadline, Predicate<Waiter> withdraw) throws Suspendable {
    while (owner.decision == null) {
      try {
        if (deadline == NO_DEADLINE) {
          Strand.park(blocker);
        } else {
          long left = deadline - now();
          if (left <= 0) {
            if (withdraw.test(owner)) {
              return false;
            }
            break;
          }
          Strand.parkNanos(blocker, left);
        }
      } catch (FiberCancelledException e) {
        if (withdraw.test(owner)) {
          throw e;
        }
        rearmCancellation();
        break;
      }
    }
    return true;
  }

  /** Wakes the strands of a chain built by {@link WaitQueue#claimAll}. */
  static void wakeAll(Waiter first) {
    for (Waiter w = first; w != null; ) {
      Waiter next = w.next;
      Strand.wake(w.strand);
      w = next;
    }
  }

  /* Off-fiber, Strand already re-interrupted the thread. */
  private static void rearmCancellation() {
    Fiber f = Fiber.current();
    if (f != null) {
      f.rearmCancellation();
    }
  }

  @Override
  public String toString() {
    return "Waiter[" + strand + (index >= 0 ? ", case " + index : "") + "]";
  }
}
