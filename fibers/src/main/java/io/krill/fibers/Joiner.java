package io.krill.fibers;

import java.util.concurrent.atomic.AtomicReferenceFieldUpdater;

/**
 * A node of a fiber's lock-free stack of joiners, the strands waiting in {@link Fiber#join()},
 * and the operations on that stack. A waiter that gives up (timeout, cancellation) takes its node
 * out again, so polling never grows the stack; the finishing fiber closes the stack and wakes
 * everyone on it. Nodes are immutable.
 */
final class Joiner {
  /*
   * Implementation notes.
   *
   * A joiner pushes itself, then checks that the fiber is not done, then parks; the finishing
   * fiber marks itself done, then reads the stack. Each side writes one word and reads the
   * other's, so one of them needs a full fence between the two, or a joiner can read "not
   * done" while the finisher reads an empty stack, and sleep forever.
   *
   * A fiber of any scheduler but the event loops closes the stack with a CAS: that is the
   * fence. A carrier-confined fiber (see Fiber) finishes on its home loop's thread, and most
   * fibers finish with nobody waiting (a child joined after it ended, a connection's fiber), so
   * there the finisher reads the stack with a plain load and, finding it empty, does no atomic
   * at all. A joiner on that same thread needs nothing more: its push and check come before or
   * after the whole finish in program order. A joiner on any other thread (a plain thread, a
   * fiber of another loop) adds one step after its push: it raises a JOIN request in the
   * fiber's signals (Fiber.request, the path a remote unpark takes), and the home loop, taking
   * the request, finds the fiber done and wakes the stack again (wakeAll), or finds it running
   * and leaves the node for the finish to see. The request's atomic comes after the push, and
   * the loop's atomic that takes the request comes after it (even when the bit was already
   * pending: a request seen pending is taken later), so the loop reads the stack with the push
   * in it, after its own finish. A joiner woken twice this way loops on isDone() and returns.
   * jcstress: FiberJoinNameTest, FiberRemoteJoinTest.
   */
  /*
   * The stack of a fiber nobody joined yet is null, the default of a new fiber's word: a
   * marker object would cost each spawn a volatile store (a fence) in the constructor.
   */
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
    fiber.joinedFromAnotherThread(); // a no-op on the fiber's own carrier (see the notes)
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

  /**
   * Closes {@code fiber}'s stack and wakes every joiner on it; called as the fiber finishes, and
   * again for a confined fiber's JOIN request.
   *
   * @param confined true on the home loop's thread of a carrier-confined fiber: an empty stack
   *     is left as it is, without an atomic (see the notes)
   */
  static void wakeAll(Fiber fiber, boolean confined) {
    if (confined && head(fiber) == null) {
      return;
    }
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

  /** @return the top of {@code fiber}'s stack: null (empty), the closed marker or a Joiner */
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
