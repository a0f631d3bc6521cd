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
   * The FIFO is a list linked through its entries, with no node of its own. An entry is the
   * queued fiber itself, linked through its `aux` (a queued fiber is runnable, so the blocker of
   * its last park is dropped), or, for a fiber whose `aux` holds the waiter of the channel
   * operation it parked in (see Channel: the operation reads it back when it resumes), that
   * waiter, linked through its `runLink`, whose strand is the fiber. Adding stores the link in
   * the entry before it (usually young: the fiber started or woken just before) and the tail;
   * polling loads the link and stores nulls. An earlier array ring cost spawn + join a third
   * more: a batch of children filled and grew an old array where the list stores into young
   * fibers.
   * Why the age matters: once an object has been promoted to G1's old generation, every store
   * of a non-null reference into it pays the write barrier's StoreLoad fence (JDK 25); stores of
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
  private Object head; // the FIFO's first entry: a fiber, or the waiter it parked on (see the notes)
  private Object tail; // the last entry when there are two or more, else null
  int handOffs;
  boolean draining;
  boolean drainPending;

  LocalRunQueue(CarrierThread carrier) {
    this.carrier = carrier;
  }

  /* Queues f behind the FIFO. */
  void add(Fiber f) {
    Object e = f.aux;
    if (e instanceof Waiter) { // a channel operation's waiter, which it reads back when it resumes
      ((Waiter) e).runLink = null;
    } else {
      f.aux = null;
      e = f;
    }
    Object h = head;
    if (h == null) {
      head = e;
      return;
    }
    Object t = tail;
    link(t == null ? h : t, e);
    tail = e;
  }

  private static void link(Object entry, Object next) {
    if (entry instanceof Waiter) {
      ((Waiter) entry).runLink = next;
    } else {
      ((Fiber) entry).aux = next;
    }
  }

  /* Queues f to run right after the current slice, ahead of the FIFO (see the notes). */
  void handOff(Fiber f) {
    Fiber displaced = next;
    next = f;
    if (displaced != null) {
      add(displaced);
    }
  }

  Fiber poll() {
    Fiber f = next;
    if (f != null && (handOffs < HANDOFF_BOUND || head == null)) {
      next = null;
      handOffs++;
      return f;
    }
    handOffs = 0;
    Object e = head;
    if (e == null) {
      return null;
    }
    Object second;
    if (e instanceof Waiter) {
      Waiter w = (Waiter) e;
      f = (Fiber) w.strand;
      second = w.runLink;
      w.runLink = null;
    } else {
      f = (Fiber) e;
      second = f.aux;
      f.aux = null;
    }
    head = second;
    if (second == tail) { // second is now the only one, or there is none
      tail = null;
    }
    return f;
  }

  boolean isEmpty() {
    return next == null && head == null;
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
