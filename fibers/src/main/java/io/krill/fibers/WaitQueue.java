package io.krill.fibers;

/**
 * A FIFO of {@link Waiter}s as an intrusive doubly linked list, so that an abandoned waiter
 * is unlinked in O(1). Not thread-safe: guarded by the lock of the structure that owns it.
 */
final class WaitQueue {
  private Waiter head;
  private Waiter tail;
  private int size;

  void add(Waiter w) {
    w.queue = this;
    w.prev = tail;
    w.next = null;
    if (tail == null) {
      head = w;
    } else {
      tail.next = w;
    }
    tail = w;
    size++;
  }

  /** @return the first waiter whose wait is still open, unlinked; dropping dead ones; or null */
  Waiter pollOpen() {
    Waiter w;
    while ((w = head) != null) {
      remove(w);
      if (w.isOpen()) {
        return w;
      }
    }
    return null;
  }

  /**
   * Claims every open waiter, unlinking all; {@code closed} is written into each before its
   * claim. The claimed ones come back chained through {@link Waiter#next} in queue order,
   * followed by {@code rest}, for {@link Waiter#wakeAll} after the caller's unlock.
   *
   * @return the first claimed waiter of the chain, or {@code rest} if none was claimed
   */
  Waiter claimAll(boolean closed, Waiter rest) {
    Waiter first = null;
    Waiter last = null;
    Waiter w;
    while ((w = pollOpen()) != null) {
      w.closed = closed;
      if (w.claim()) {
        if (last == null) {
          first = w;
        } else {
          last.next = w;
        }
        last = w;
      }
    }
    if (last == null) {
      return rest;
    }
    last.next = rest;
    return first;
  }

  /**
   * Claims every open waiter like {@link #claimAll(boolean, Waiter)}, collecting their strands
   * instead of chaining the waiters: for queues of reusable waiters, whose links their owners
   * may rewrite as soon as they see the decision.
   *
   * @param strands receives the strands to wake after the caller's unlock
   */
  void claimAllInto(boolean closed, java.util.List<Object> strands) {
    Waiter w;
    while ((w = pollOpen()) != null) {
      w.closed = closed;
      Object strand = w.strand; // before the claim: a decided waiter may be recycled at once
      if (w.claim()) {
        strands.add(strand);
      }
    }
  }

  /** @return the first waiter, still linked, or null */
  Waiter peek() {
    return head;
  }

  /**
   * Withdraws a wait that timed out or was cancelled: aborts {@code w} and unlinks it, under
   * {@code mutex} (the lock that guards this queue).
   *
   * @return false if a counterparty decided the wait first
   */
  boolean withdraw(Waiter w, java.util.concurrent.locks.Lock mutex) {
    mutex.lock();
    try {
      if (!w.abort()) {
        return false;
      }
      remove(w);
      return true;
    } finally {
      mutex.unlock();
    }
  }

  /** Unlinks {@code w} if it is in this queue; idempotent. */
  void remove(Waiter w) {
    if (w.queue != this) {
      return;
    }
    Waiter p = w.prev;
    Waiter n = w.next;
    if (p == null) {
      head = n;
    } else {
      p.next = n;
    }
    if (n == null) {
      tail = p;
    } else {
      n.prev = p;
    }
    w.prev = null;
    w.next = null;
    w.queue = null;
    size--;
  }

  boolean isEmpty() {
    return head == null;
  }

  int size() {
    return size;
  }
}
