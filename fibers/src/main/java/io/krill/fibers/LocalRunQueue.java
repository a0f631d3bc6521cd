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
  /** Slices run per Netty task before the rest is handed back. */
  static final int LOCAL_BUDGET = 128;

  final CarrierThread carrier;
  Fiber head;
  Fiber tail;
  boolean draining;
  boolean drainPending;

  LocalRunQueue(CarrierThread carrier) {
    this.carrier = carrier;
  }

  /* A queued fiber is runnable, so its aux (the blocker of its last park) is free to link the queue. */
  void add(Fiber f) {
    f.aux = null;
    if (tail == null) {
      head = f;
    } else {
      tail.aux = f;
    }
    tail = f;
  }

  Fiber poll() {
    Fiber f = head;
    if (f != null) {
      head = (Fiber) f.aux;
      if (head == null) {
        tail = null;
      }
      f.aux = null;
    }
    return f;
  }

  void drain(CarrierThread c) {
    for (int budget = LOCAL_BUDGET; budget > 0; budget--) {
      Fiber f = poll();
      if (f == null) {
        return;
      }
      f.runSlice(c);
    }
  }

  /* Called with draining just cleared: leftover fibers run in a task of their own. */
  void handBack() {
    if (head != null && !drainPending) {
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
    draining = true;
    try {
      drain(carrier);
    } finally {
      draining = false;
      handBack();
    }
  }
}
