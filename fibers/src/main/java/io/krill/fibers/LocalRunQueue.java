package io.krill.fibers;

import java.util.concurrent.Executor;

/**
 * The carrier-local run queue: a fiber woken (or started) by code running in a slice on
 * its own home loop's carrier is queued here with plain stores instead of Netty's MPSC
 * task queue, and run by the slice loop in Fiber.run() after the current slice. At most
 * LOCAL_BUDGET slices run per Netty task, so the loop's I/O and other tasks still get
 * their turn; what is left is handed back as one drain task. Only the carrier touches it.
 */
final class LocalRunQueue implements Runnable {
  /*
   * Implementation notes.
   *
   * Direct hand-off: a fiber woken by a channel hand-off on its own carrier (handOff()) waits
   * in `next`, not at the tail, and runs as soon as the current slice ends, ahead of the FIFO
   * (a fiber it displaces goes to the tail). A send to a receiver parked on the same carrier
   * thus switches straight to the receiver once the sender parks, as in occam/CCSP, while the
   * pair's data is still in cache. Other wake-ups and starts (add()) keep FIFO order: a parent
   * that starts children and joins them would otherwise be woken after each child.
   * Fairness: after HANDOFF_BOUND slices taken from `next` in a row, the FIFO's head runs
   * first, so two fibers that keep waking each other cannot starve the others.
   *
   * The FIFO is a field for its first fiber and an array used as a ring for the rest (it grows,
   * never shrinks), not a list linked through the fibers: a queued fiber's `aux` keeps what its
   * park left there (the waiter a channel operation parked on, see Channel). Adding stores one
   * reference, polling only a null; one fiber waking one other uses the field alone.
   * Why that matters: once the queue has been promoted to G1's old generation, every store of
   * a non-null reference into it pays the write barrier's StoreLoad fence (JDK 25); stores of
   * null are filtered out before it.
   *
   * The same fence is why a drain leaves the carrier bound to a fiber that parked
   * (Stack.runStack(true)): the next slice's bind replaces it, so a switch stores the carrier's
   * bound stack once, not twice (NONE, then the next fiber). Between two slices the drain runs
   * only the runtime's own bookkeeping (afterSuspend, poll), which never asks Stack.current();
   * stopDraining binds NONE back before anything else runs on the carrier.
   */

  /** Slices run per Netty task before the rest is handed back. */
  static final int LOCAL_BUDGET = 128;
  /** Slices taken in a row from the hand-off slot before the FIFO's head gets a turn. */
  static final int HANDOFF_BOUND = 16;

  final CarrierThread carrier;
  Fiber next;
  private Fiber first; // the FIFO's first fiber when the ring was empty as it came (the common case of one)
  private Fiber[] ring = new Fiber[16]; // the FIFO's fibers after `first`
  private int head; // index of the ring's first fiber, unbounded (masked on use)
  private int tail; // head + the ring's size
  int handOffs;
  boolean draining;
  boolean drainPending;

  LocalRunQueue(CarrierThread carrier) {
    this.carrier = carrier;
  }

  /* Queues f behind the FIFO. */
  void add(Fiber f) {
    if (first == null && head == tail) {
      first = f;
      return;
    }
    Fiber[] r = ring;
    if (tail - head == r.length) {
      r = grow();
    }
    r[tail++ & (r.length - 1)] = f;
  }

  /* Queues f to run right after the current slice, ahead of the FIFO (see the notes). */
  void handOff(Fiber f) {
    Fiber displaced = next;
    next = f;
    if (displaced != null) {
      add(displaced);
    }
  }

  private Fiber[] grow() {
    Fiber[] r = ring;
    Fiber[] bigger = new Fiber[r.length * 2];
    for (int i = head; i != tail; i++) {
      bigger[i - head] = r[i & (r.length - 1)];
    }
    tail -= head;
    head = 0;
    ring = bigger;
    return bigger;
  }

  Fiber poll() {
    Fiber f = next;
    if (f != null && (handOffs < HANDOFF_BOUND || first == null && head == tail)) {
      next = null;
      handOffs++;
      return f;
    }
    handOffs = 0;
    f = first;
    if (f != null) {
      first = null;
      return f;
    }
    if (head == tail) {
      return null;
    }
    Fiber[] r = ring;
    int i = head++ & (r.length - 1);
    f = r[i];
    r[i] = null;
    return f;
  }

  boolean isEmpty() {
    return next == null && first == null && head == tail;
  }

  /* keepBound: leave the carrier bound to a fiber that parked until the next slice (see the notes); then call stopDraining. */
  void drain(CarrierThread c, boolean keepBound) {
    for (int budget = LOCAL_BUDGET; budget > 0; budget--) {
      Fiber f = poll();
      if (f == null) {
        return;
      }
      f.runSlice(c, keepBound);
    }
  }

  /* Ends a drain: binds back the stack bound before it (NONE from the loop), then hands the rest back. */
  void stopDraining(Stack outer) {
    if (carrier.stack != outer) {
      carrier.stack = outer;
    }
    draining = false;
    handBack();
  }

  /* Called with draining just cleared: leftover fibers run in a task of their own. */
  void handBack() {
    if (!isEmpty() && !drainPending) {
      drainPending = true;
      ((Executor) carrier.loop()).execute(this);
    }
  }

  @Override
  public void run() {
    drainPending = false;
    if (draining) {
      return;
    }
    Stack outer = carrier.stack; // NONE unless run from inside a continuation on this thread
    draining = true;
    try {
      drain(carrier, outer == Stack.NONE);
    } finally {
      stopDraining(outer);
    }
  }
}
