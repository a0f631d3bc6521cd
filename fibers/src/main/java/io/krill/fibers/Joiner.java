package io.krill.fibers;

import java.util.concurrent.atomic.AtomicReferenceFieldUpdater;

/**
 * A node of a fiber's lock-free stack of joiners, the strands waiting in {@link Fiber#join()},
 * and the operations on that stack. A waiter that gives up (timeout, cancellation) takes its node
 * out again, so polling never grows the stack; the finishing fiber closes the stack and wakes
 * everyone on it. Nodes are immutable.
 */
final class Joiner {
  /** The stack of a fiber nobody joined yet. */
  static final Object NONE = new Object();
  /** The stack of a finished fiber: a joiner returns at once. */
  private static final Object CLOSED = new Object();
  /*
   * The stack lives in the fiber's `joiners` word until the fiber gets Extras, then in the
   * Extras (see Fiber's notes). The word turns into Extras once, by a CAS against the stack it
   * held, so a CAS on the word that fails because of it is retried on the Extras.
   */
  private static final AtomicReferenceFieldUpdater<Fiber, Object> WORD =
      AtomicReferenceFieldUpdater.newUpdater(Fiber.class, Object.class, "joiners");
  private static final AtomicReferenceFieldUpdater<Fiber.Extras, Object> IN_EXTRAS =
      AtomicReferenceFieldUpdater.newUpdater(Fiber.Extras.class, Object.class, "joiners");

  final Object strand;
  final Object next;

  Joiner(Object strand, Object next) {
    this.strand = strand;
    this.next = next;
  }

  /**
   * Waits until {@code fiber} is done, at most {@code nanos} on the waiter's clock. May suspend.
   *
   * @return false if the time ran out first
   */
  static boolean await(Fiber fiber, long nanos) throws Suspendable {
    if (fiber.isDone()) {
      return true;
    }
    Object me = Strand.current();
    if (!push(fiber, me)) {
      return true;
    }
    FiberScheduler clock = me instanceof Fiber ? ((Fiber) me).sched() : null;
    long start = clock != null ? clock.nanoTime() : System.nanoTime();
    boolean finished = false;
    try {
      while (!fiber.isDone()) {
        if (nanos == Long.MAX_VALUE) {
          Strand.park(fiber);
        } else {
          long left = nanos - ((clock != null ? clock.nanoTime() : System.nanoTime()) - start);
          if (left <= 0) {
            return false;
          }
          Strand.parkNanos(fiber, left);
        }
      }
      finished = true;
      return true;
    } finally {
      if (!finished) {
        remove(fiber, me);
      }
    }
  }

  /** Closes {@code fiber}'s stack and wakes every joiner on it; called once, as the fiber finishes. */
  static void wakeAll(Fiber fiber) {
    Object j = close(fiber);
    while (j instanceof Joiner) {
      Joiner n = (Joiner) j;
      Strand.wake(n.strand);
      j = n.next;
    }
  }

  /* @return false if the stack is closed (the fiber finished) */
  private static boolean push(Fiber fiber, Object strand) {
    for (;;) {
      Object j = head(fiber);
      if (j == CLOSED) {
        return false;
      }
      if (compareAndSet(fiber, j, new Joiner(strand, j))) {
        return true;
      }
    }
  }

  private static void remove(Fiber fiber, Object strand) {
    for (;;) {
      Object head = head(fiber);
      if (!(head instanceof Joiner)) {
        return;
      }
      Object rebuilt = without((Joiner) head, strand);
      if (rebuilt == head || compareAndSet(fiber, head, rebuilt)) {
        return;
      }
    }
  }

  /** @return the top of {@code fiber}'s stack: {@link #NONE}, the closed marker or a Joiner */
  static Object head(Fiber fiber) {
    Object w = fiber.joiners;
    return w instanceof Fiber.Extras ? ((Fiber.Extras) w).joiners : w;
  }

  /* Replaces the top of fiber's stack if it is still expected; false if it was not (or the word just became Extras). */
  private static boolean compareAndSet(Fiber fiber, Object expected, Object top) {
    Object w = fiber.joiners;
    return w instanceof Fiber.Extras
        ? IN_EXTRAS.compareAndSet((Fiber.Extras) w, expected, top)
        : WORD.compareAndSet(fiber, expected, top);
  }

  /* Closes fiber's stack. @return the stack it held */
  private static Object close(Fiber fiber) {
    for (;;) {
      Object w = fiber.joiners;
      if (w instanceof Fiber.Extras) {
        return IN_EXTRAS.getAndSet((Fiber.Extras) w, CLOSED);
      }
      if (WORD.compareAndSet(fiber, w, CLOSED)) {
        return w;
      }
    }
  }

  /* @return the stack from {@code node} without {@code strand}'s node, sharing what follows it */
  private static Object without(Joiner node, Object strand) {
    if (node.strand == strand) {
      return node.next;
    }
    if (!(node.next instanceof Joiner)) {
      return node;
    }
    Object rest = without((Joiner) node.next, strand);
    return rest == node.next ? node : new Joiner(node.strand, rest);
  }
}
