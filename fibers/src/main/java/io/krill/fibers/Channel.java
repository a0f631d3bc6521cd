package io.krill.fibers;

import java.util.ArrayDeque;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A CSP channel: rendezvous (capacity 0, a send completes when a receiver takes the item) or
 * buffered (a send completes once the item is in the buffer). Both ends are shared: any number
 * of strands may send and receive concurrently, and each item is received exactly once, in
 * FIFO order per sender.
 *
 * <pre>{@code
 * Channel<String> ch = Channel.create(0, "greetings");
 * Fiber.start(() -> ch.send("hello"));
 * String s = ch.receive();   // "hello"
 * ch.close();
 * }</pre>
 *
 * <p>{@link #send} and {@link #receive} may suspend: they suspend the calling fiber and never
 * block its carrier; called from a platform or virtual thread they block that thread. A waiting
 * fiber parks with the channel as its blocker, so dumps show the channel's name. Items must not
 * be null. {@link #close()} ends the channel: buffered items can still be received, then
 * receives throw {@link ChannelClosedException}; sends throw at once; strands parked in either
 * operation wake up and throw. {@link Select} waits on several channels at once.
 *
 * <p>Thread-safe.
 */
public final class Channel<T> {
  /*
   * Implementation notes.
   *
   * State (buffer, the two queues of parked waiters, closed) is guarded by lock(), held only
   * for a few field updates, never across a park. A waiter is a Waiter in `senders` (with its
   * item) or `receivers`; a counterparty completes it by claiming it (see Waiter) under the
   * lock, and wakes its strand after the unlock: the strand to wake is left in `woken` and
   * unlockAndWake() picks it up, so no syscall runs under the lock and nothing is allocated.
   *
   * Invariants under the lock: open receivers wait only while the buffer is empty; open
   * senders wait only while the buffer is full. Dead waiters (of a select that won elsewhere,
   * or that timed out) may linger until their owner unlinks them; whoever meets one drops it.
   *
   * Select locks all its channels at once, in `id` order, so its poll of every case and its
   * registration on every channel are one atomic step; single operations take only their
   * channel's lock. Locks are always taken in `id` order, so they cannot deadlock.
   *
   * The rendezvous slot. A rendezvous channel whose waiters are one sender or one receiver at
   * a time (a pipeline stage, a ring, CommsTime) hands over without the lock: `slot` holds the
   * one parked waiter. A send that finds null parks its waiter there with one CAS (null -> w);
   * a receive that finds a sender's waiter takes it with one CAS (w -> null), which is the
   * claim: the taker owns the waiter, reads what it needs, decides it with a release store and
   * wakes its strand (and the other way round for a parked receiver). So a hand-off costs one
   * CAS on each side and no lock, queue link or unlock store. A waiter in the slot is a
   * sender's if its item is non-null (items cannot be null), a receiver's otherwise.
   *
   * Everything else (a second sender or receiver, close, select, trySend, tryReceive) takes
   * the lock, and lock() first turns the slot off: it CASes the slot to GENERAL and queues the
   * waiter it held, so that under the lock the channel is exactly the queue-based one above and
   * no slot CAS can succeed. unlock() turns the slot back on (null) when both queues are empty
   * and the channel is open; only the lock holder writes GENERAL or leaves it. Buffered
   * channels never use the slot (it stays null).
   *
   * A waiter leaves the slot in one of three ways, each a successful CAS from w: taken by a
   * counterparty (decided right after, without the lock), moved into a queue by a lock holder
   * (its later claim or abort is under the lock, as above), or withdrawn by its own strand on
   * cancellation (w -> null). A strand whose withdrawing CAS fails takes the lock: a queued
   * waiter is aborted there as usual; one not queued and not yet decided belongs to a taker
   * between its CAS and its decision (or about to queue it, see adopt), so it retries until one
   * of the two shows. Waiters are recycled, so the slot can see the same waiter object leave
   * and come back for another operation (ABA): a taker therefore checks the direction again
   * after its CAS, and queues a waiter of its own direction under the lock (adopt) instead.
   *
   * A slot confined to one carrier. Most rendezvous channels are only ever used by fibers of
   * one event loop (a ring, a pipeline on one carrier, CommsTime), and then nothing races the
   * slot: its CASes are paid for nothing. `owner` says who may touch the slot how: null until
   * the first slot access; the carrier thread of an event loop (a CarrierLoop) whose fiber made
   * that access (claimed with one CAS, once); or SHARED. While it names the current thread,
   * every slot access is a plain read and a plain write (one thread, so a read and the write
   * after it are atomic, and no ABA can occur); a waiter it parks there is published to other
   * threads only through the hand-over below. Any other thread (another carrier, a plain
   * thread, a fiber running elsewhere) must see SHARED before it touches the slot or takes the
   * lock: it asks the owner to share (CarrierThread.requestShare: a queue of requests and a
   * task on the owner's loop), and the owner, between two tasks, so never inside a slot
   * access, writes SHARED with a volatile store that publishes all its earlier plain writes.
   * The asker spins until it reads SHARED, running its own carrier's share requests meanwhile
   * (two carriers that ask each other cannot deadlock), or writes SHARED itself once the owner
   * thread has died. SHARED is final: from then on the slot is the CAS protocol above. Select
   * settles the owner of every channel before it takes the first lock, so nobody waits for an
   * owner while holding a channel's lock. The owner itself shares the channel before a strand
   * that is not a fiber (the loop's own code blocking in a receive) parks in the slot: a
   * blocked loop thread could never answer a request.
   *
   * No frame for the wait: send() and receive() are hand-written suspension primitives
   * (@Primitive, not woven), like Fiber.park. A woven frame of their own would save and restore
   * the channel and the waiter at every blocking operation, a few nanoseconds a hop. All they
   * need across the park is the waiter, and a parked fiber already holds one reference for its
   * park: its blocker, `aux`. So a fiber parks with the waiter as the blocker (Fiber.blocker()
   * names the waiter's channel in dumps), begins the capture itself and returns; the woven
   * caller unwinds. When the fiber runs again, the caller's restore calls the operation again
   * with the stack's flow set to restoring; the operation ends the restore (flow = 0), takes
   * the waiter back from `aux` and goes on waiting or finishing exactly where the inlined
   * Waiter.await loop was (parkFor). Nothing else writes `aux` while the fiber is parked or
   * queued to run (the run queue keeps its fibers in an array). A strand that is not a fiber
   * never suspends here: it blocks its thread in Waiter.await.
   */
  static final Object EMPTY = new Object();
  static final Object CLOSED = new Object();
  static final int OK = 0;
  static final int FULL = 1;
  static final int SHUT = 2;

  private static final AtomicLong IDS = new AtomicLong();

  private static final java.lang.invoke.VarHandle LOCKED =
      SpinLocks.handle(java.lang.invoke.MethodHandles.lookup(), Channel.class);
  private static final java.lang.invoke.VarHandle SLOT;
  /** The slot's value while the lock path owns the channel (see the notes). */
  private static final Object GENERAL = new Object();
  /** The owner of a rendezvous slot that every thread reaches with CASes (see the notes). */
  private static final Object SHARED = new Object();
  private static final java.lang.invoke.VarHandle OWNER;

  static {
    try {
      SLOT = java.lang.invoke.MethodHandles.lookup().findVarHandle(Channel.class, "slot", Object.class);
      OWNER = java.lang.invoke.MethodHandles.lookup().findVarHandle(Channel.class, "owner", Object.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  final long id = IDS.incrementAndGet();
  private volatile int locked;
  private volatile Object slot; // rendezvous only: null, the one parked waiter, or GENERAL (see the notes)
  private volatile Object owner; // rendezvous only: null, the carrier the slot is confined to, or SHARED
  private final int capacity;
  private final String name;
  private final ArrayDeque<Object> buffer;
  private final WaitQueue senders = new WaitQueue();
  private final WaitQueue receivers = new WaitQueue();
  private volatile boolean closed; // written under the lock
  private Object woken; // the strand a locked step completed, to wake after the unlock

  private Channel(int capacity, String name) {
    this.capacity = capacity;
    this.name = name;
    this.buffer = capacity == 0 ? null : new ArrayDeque<>(Math.min(capacity, 16));
  }

  /**
   * Creates a rendezvous channel: a send waits for a receiver.
   *
   * @param <T> the item type
   * @return the channel
   */
  public static <T> Channel<T> rendezvous() {
    return create(0);
  }

  /**
   * Creates a channel.
   *
   * @param capacity how many items the buffer holds; 0 for a rendezvous channel
   * @param <T> the item type
   * @return the channel, named "channel-ID"
   * @throws IllegalArgumentException if capacity is negative
   */
  public static <T> Channel<T> create(int capacity) {
    return create(capacity, null);
  }

  /**
   * Creates a named channel.
   *
   * @param capacity how many items the buffer holds; 0 for a rendezvous channel
   * @param name the name shown in fiber dumps and exceptions, or null for "channel-ID"
   * @param <T> the item type
   * @return the channel
   * @throws IllegalArgumentException if capacity is negative
   */
  public static <T> Channel<T> create(int capacity, String name) {
    return new Channel<>(Checks.nonNegative("capacity", capacity), name);
  }

  /** @return the name given at creation, or "channel-ID" */
  public String name() {
    return name != null ? name : "channel-" + id;
  }

  /** @return the buffer capacity; 0 for a rendezvous channel */
  public int capacity() {
    return capacity;
  }

  /** @return true once {@link #close()} was called */
  public boolean isClosed() {
    return closed; // volatile: no lock, so polling it does not turn the rendezvous slot off
  }

  @Override
  public String toString() {
    return "Channel[" + name() + ", capacity " + capacity + "]";
  }

  // ------------------------------------------------------------------ operations

  /**
   * Sends {@code item}: hands it to a waiting receiver or buffers it, else waits until a
   * receiver takes it (rendezvous) or buffer space frees up. May suspend.
   *
   * @param item the item, not null
   * @throws ChannelClosedException if the channel is closed, or closes while this waits
   * @throws FiberCancelledException if the calling fiber is cancelled while it waits (the item
   *     was then not sent)
   * @throws Suspendable never; marks that this method may suspend
   */
  @Primitive
  public void send(T item) throws Suspendable {
    Stack s = Stack.current();
    send(item, s, s.flow);
  }

  /**
   * {@link #send(Object)} for woven callers, which hold the current stack: the weaver calls
   * this entry in place of {@code send(item)} and passes the stack and its flow, so the send
   * does not look the stack up again. Not for hand-written calls.
   *
   * @param item the item, not null
   * @param s the current stack ({@link Stack#current()})
   * @param flow {@code s.flow} at the call: above 0 when the woven caller is restoring
   * @throws Suspendable never; marks that this method may suspend
   */
  @Primitive
  public void send(T item, Stack s, byte flow) throws Suspendable {
    Waiter w;
    boolean resumed = flow > 0;
    if (resumed) { // called again by the woven caller's restore: the send parked (see the notes)
      s.flow = 0;
      w = (Waiter) ((Fiber) s).aux;
    } else {
      Objects.requireNonNull(item, "item");
      w = capacity == 0 ? (Waiter) slotExchange(item) : offerOrRegister(item);
      if (w == null) {
        return;
      }
    }
    if (w.strand instanceof Fiber) {
      if (parkFor((Fiber) w.strand, w, resumed)) {
        Stack.beginCapture(s);
        return;
      }
    } else {
      Waiter.await(w, this, Waiter.NO_DEADLINE, this::withdraw);
    }
    if (w.closed) {
      throw closedException("send");
    }
    Waiter.recycle(w);
  }

  /**
   * Receives the next item, waiting for one if none is available. May suspend.
   *
   * @return the item
   * @throws ChannelClosedException if the channel is closed and drained, or closes while this
   *     waits
   * @throws FiberCancelledException if the calling fiber is cancelled while it waits (no item
   *     was then taken)
   * @throws Suspendable never; marks that this method may suspend
   */
  @Primitive
  public T receive() throws Suspendable {
    Stack s = Stack.current();
    return receive(s, s.flow);
  }

  /**
   * {@link #receive()} for woven callers, which hold the current stack: the weaver calls this
   * entry in place of {@code receive()} and passes the stack and its flow, so the receive
   * does not look the stack up again. Not for hand-written calls.
   *
   * @param s the current stack ({@link Stack#current()})
   * @param flow {@code s.flow} at the call: above 0 when the woven caller is restoring
   * @return the item
   * @throws Suspendable never; marks that this method may suspend
   */
  @Primitive
  @SuppressWarnings("unchecked")
  public T receive(Stack s, byte flow) throws Suspendable {
    Waiter w;
    boolean resumed = flow > 0;
    if (resumed) { // called again by the woven caller's restore: the receive parked (see the notes)
      s.flow = 0;
      w = (Waiter) ((Fiber) s).aux;
    } else {
      Object x = capacity == 0 ? slotExchange(null) : pollOrRegister();
      if (!(x instanceof Waiter)) { // items cannot be Waiters: the type is package-private
        return (T) x;
      }
      w = (Waiter) x;
    }
    if (w.strand instanceof Fiber) {
      if (parkFor((Fiber) w.strand, w, resumed)) {
        Stack.beginCapture(s);
        return null;
      }
    } else {
      Waiter.await(w, this, Waiter.NO_DEADLINE, this::withdraw);
    }
    if (w.closed) {
      throw closedException("receive");
    }
    Object x = w.item;
    Waiter.recycle(w);
    return (T) x;
  }

  /*
   * A fiber's wait for the decision of its single operation w, as Waiter.await would wait, but
   * without a frame: the waiter waits in the fiber's aux while it is parked (see the notes).
   * resumed: the fiber has just been restored from a park on w.
   * @return true if the fiber must suspend now (the caller begins the capture and returns);
   *     false once w is decided
   * @throws FiberCancelledException if the fiber was cancelled and w withdrawn
   */
  private boolean parkFor(Fiber f, Waiter w, boolean resumed) {
    for (;;) {
      try {
        if (resumed) {
          f.afterPark();
        }
        if (!w.isOpen()) {
          return false;
        }
        if (f.beginPark(w)) {
          FiberEvents.parkStarted(f, this);
          return true;
        }
        resumed = true; // a permit or a cancellation ended the park at once
      } catch (FiberCancelledException e) {
        if (withdraw(w)) {
          throw e;
        }
        f.rearmCancellation();
        return false;
      }
    }
  }

  /**
   * Sends {@code item} if that needs no wait: a receiver is waiting, or the buffer has room.
   *
   * @param item the item, not null
   * @return true if sent; false if the send would wait
   * @throws ChannelClosedException if the channel is closed
   */
  public boolean trySend(T item) {
    Objects.requireNonNull(item, "item");
    int r;
    lock();
    try {
      r = offerLocked(item);
    } finally {
      unlockAndWake();
    }
    if (r == SHUT) {
      throw closedException("send");
    }
    return r == OK;
  }

  /**
   * Receives an item if one is available without waiting.
   *
   * @return the item, or null if a receive would wait
   * @throws ChannelClosedException if the channel is closed and drained
   */
  @SuppressWarnings("unchecked")
  public T tryReceive() {
    Object x;
    lock();
    try {
      x = pollLocked();
    } finally {
      unlockAndWake();
    }
    if (x == CLOSED) {
      throw closedException("receive");
    }
    return x == EMPTY ? null : (T) x;
  }

  /**
   * Closes the channel. Buffered items stay receivable; parked senders and parked receivers
   * wake up and throw {@link ChannelClosedException}. Idempotent.
   *
   * @return true if this call closed the channel, false if it was closed already
   */
  public boolean close() {
    java.util.List<Object> strands = new java.util.ArrayList<>();
    lock();
    try {
      if (closed) {
        return false;
      }
      closed = true;
      senders.claimAllInto(true, strands);
      receivers.claimAllInto(true, strands);
    } finally {
      unlock();
    }
    for (Object strand : strands) {
      Strand.wake(strand);
    }
    return true;
  }

  ChannelClosedException closedException(String operation) {
    return new ChannelClosedException(name(), operation);
  }

  // ------------------------------------------------------------------ locked steps (also used by Select)

  private Waiter offerOrRegister(Object item) {
    int r;
    Waiter w = null;
    lock();
    try {
      r = offerLocked(item);
      if (r == FULL) {
        w = waiter(item);
        senders.add(w);
      }
    } finally {
      unlockAndWake();
    }
    if (r == SHUT) {
      throw closedException("send");
    }
    return w;
  }

  private Object pollOrRegister() {
    Object x;
    lock();
    try {
      x = pollLocked();
      if (x == EMPTY) {
        Waiter w = waiter(null);
        receivers.add(w);
        x = w;
      }
    } finally {
      unlockAndWake();
    }
    if (x == CLOSED) {
      throw closedException("receive");
    }
    return x;
  }

  /*
   * A rendezvous send (item non-null) or receive (item null) through the slot: takes the other
   * side's parked waiter, or parks in the empty slot; the lock path otherwise (see the notes).
   * Three methods so that the confined path, the one a fiber on its own carrier takes, is small
   * enough for C2 to inline into send and receive; the shared CAS loop stays out of line.
   * @return for a send, null once handed over; for a receive, the item; else the waiter to wait on
   */
  private Object slotExchange(Object item) {
    return confined() ? confinedExchange(item) : sharedExchange(item, null);
  }

  /* slotExchange on the carrier the slot is confined to: plain reads and writes (see the notes). */
  private Object confinedExchange(Object item) {
    boolean send = item != null;
    Object s = slot;
    if (s == null) {
      Waiter mine = waiter(item);
      if (mine.strand instanceof Fiber) {
        SLOT.set(this, mine);
        return mine;
      }
      OWNER.setVolatile(this, SHARED); // a blocked loop thread could not share later (see the notes)
      return sharedExchange(item, mine);
    }
    if (s instanceof Waiter && (((Waiter) s).item == null) == send) {
      Waiter w = (Waiter) s;
      SLOT.set(this, null);
      Object theirs = w.item;
      Object strand = w.strand; // before the decision: a decided waiter may be recycled at once
      if (send) {
        w.item = item;
      }
      w.decideTaken();
      wake(strand);
      return theirs;
    }
    if (!(((CarrierThread) Thread.currentThread()).stack instanceof Fiber)) {
      share(); // this strand may block the loop thread in a queue: it could not share later
    }
    return send ? offerOrRegister(item) : pollOrRegister();
  }

  /* slotExchange once the slot is SHARED: the CAS protocol. mine: a waiter made already, or null. */
  private Object sharedExchange(Object item, Waiter mine) {
    boolean send = item != null;
    for (;;) {
      Object s = slot;
      if (s == null) {
        if (mine == null) {
          mine = waiter(item);
        }
        if (SLOT.compareAndSet(this, null, mine)) {
          return mine;
        }
      } else if (s instanceof Waiter && (((Waiter) s).item == null) == send) { // the other side waits
        Waiter w = (Waiter) s;
        if (SLOT.compareAndSet(this, w, null)) {
          Object theirs = w.item;
          if ((theirs == null) != send) { // ABA: the waiter came back for an operation on our side
            adopt(w);
          } else {
            Object strand = w.strand; // before the decision: a decided waiter may be recycled at once
            if (send) {
              w.item = item;
            }
            w.decideTaken();
            giveBack(mine);
            wake(strand);
            return theirs;
          }
        }
      } else {
        giveBack(mine);
        return send ? offerOrRegister(item) : pollOrRegister();
      }
    }
  }

  /* Queues an open waiter that the caller took out of the slot but cannot complete (same direction). */
  private void adopt(Waiter w) {
    lock();
    try {
      (w.item != null ? senders : receivers).add(w);
    } finally {
      unlock();
    }
  }

  /* Returns an unused waiter from waiter() as its carrier's spare. */
  private static void giveBack(Waiter w) {
    if (w != null) {
      Thread t = Thread.currentThread();
      if (t instanceof CarrierThread && ((CarrierThread) t).spareWaiter == null) {
        w.item = null;
        ((CarrierThread) t).spareWaiter = w;
      }
    }
  }

  /* Wakes a strand whose waiter a channel step completed: on its own carrier, a fiber runs next. */
  private static void wake(Object strand) {
    if (strand instanceof Fiber) {
      ((Fiber) strand).unparkHandOff();
    } else {
      Strand.wake(strand);
    }
  }

  /*
   * A waiter for the current strand: the carrier's spare for a fiber (see Waiter), else a new
   * one. The carrier's spare is its own; the lock or the slot's CAS publishes the waiter.
   */
  private Waiter waiter(Object item) {
    Thread t = Thread.currentThread();
    if (t instanceof CarrierThread) {
      CarrierThread c = (CarrierThread) t;
      Waiter w = c.spareWaiter;
      if (w != null && c.stack instanceof Fiber) {
        c.spareWaiter = null;
        w.reopen(c.stack, item);
        if (w.blocker != this) { // a load instead of a fenced store when the fiber waits here again
          w.blocker = this;
        }
        return w;
      }
    }
    Waiter w = new Waiter(Strand.current(), item);
    w.blocker = this;
    return w;
  }

  /**
   * Hands {@code item} to an open receiver or buffers it. Caller holds the lock.
   *
   * @return OK, FULL (the send must wait) or SHUT
   */
  int offerLocked(Object item) {
    if (closed) {
      return SHUT;
    }
    Waiter r;
    while ((r = receivers.pollOpen()) != null) {
      r.item = item;
      Object strand = r.strand; // before the claim: a decided waiter may be recycled at once
      if (r.claimLocked()) {
        woken = strand;
        return OK;
      }
    }
    if (buffer != null && buffer.size() < capacity) {
      buffer.addLast(item);
      return OK;
    }
    return FULL;
  }

  /**
   * Takes the next item: the buffer's head (refilled from an open sender) or an open sender's
   * item. Caller holds the lock.
   *
   * @return the item, EMPTY (the receive must wait) or CLOSED
   */
  Object pollLocked() {
    if (buffer != null && !buffer.isEmpty()) {
      Object item = buffer.pollFirst();
      Object refill = claimSender();
      if (refill != EMPTY) {
        buffer.addLast(refill);
      }
      return item;
    }
    Object item = claimSender();
    if (item != EMPTY) {
      return item;
    }
    return closed ? CLOSED : EMPTY;
  }

  /* @return the item of the first open sender, whose waiter this claimed; or EMPTY */
  private Object claimSender() {
    Waiter s;
    while ((s = senders.pollOpen()) != null) {
      Object item = s.item; // before the claim: a decided waiter may be recycled at once
      Object strand = s.strand;
      if (s.claimLocked()) {
        woken = strand;
        return item;
      }
    }
    return EMPTY;
  }

  /** Parks {@code w} in the queue of senders (send) or receivers. Caller holds the lock. */
  void registerLocked(Waiter w, boolean send) {
    (send ? senders : receivers).add(w);
  }

  /** Unlinks {@code w} if it is still queued here; takes the lock. */
  void unregister(Waiter w) {
    lock();
    try {
      WaitQueue q = w.queue;
      if (q != null) {
        q.remove(w);
      }
    } finally {
      unlock();
    }
  }

  /* The channel's lock: its sections are a few field updates and never park (see SpinLocks). */
  void lock() {
    boolean local = capacity == 0 && confined(); // before the spin-lock: settling may wait for the owner
    SpinLocks.lock(LOCKED, this);
    if (capacity == 0) {
      Object s = slot;
      if (s != GENERAL) {
        slotOff(s, local);
      }
    }
  }

  /** Settles who may touch the rendezvous slot, so that {@link #lock()} will not wait; Select calls it before its first lock. */
  void settleOwner() {
    if (capacity == 0) {
      confined();
    }
  }

  /* Under the lock: turns the slot off and queues the waiter it held (see the notes). */
  private void slotOff(Object s, boolean local) {
    if (local) {
      SLOT.set(this, GENERAL);
    } else {
      while (!SLOT.compareAndSet(this, s, GENERAL)) {
        s = slot; // a slot operation got in between: null and waiters come and go, GENERAL only under the lock
      }
    }
    if (s != null) {
      Waiter w = (Waiter) s;
      (w.item != null ? senders : receivers).add(w);
    }
  }

  void unlock() {
    if (capacity == 0 && !closed && receivers.isEmpty() && senders.isEmpty()) {
      SLOT.setRelease(this, null); // the slot on again: nobody waits, nothing is left to do here
    }
    SpinLocks.unlock(LOCKED, this);
  }

  /** Unlocks, then wakes the strand that a locked step completed, if any. */
  void unlockAndWake() {
    Object strand = woken;
    woken = null;
    unlock();
    if (strand != null) {
      wake(strand); // on the same carrier the receiver (or sender) runs next
    }
  }

  /*
   * Withdraws a wait that was cancelled. @return true if aborted; false if a counterparty
   * decided it first (see the notes for a waiter that was in the slot)
   */
  private boolean withdraw(Waiter w) {
    if (slot == w && (capacity == 0 && confined() ? slot == w && clearSlot() : SLOT.compareAndSet(this, w, null))) {
      w.abort(); // nobody else holds it any more
      return true;
    }
    for (;;) {
      lock();
      try {
        WaitQueue q = w.queue;
        if (q != null) {
          if (!w.abort()) {
            return false;
          }
          q.remove(w);
          return true;
        }
        if (!w.isOpen()) {
          return false;
        }
        // Out of the slot, not queued, not decided: a taker is between its CAS and its decision.
      } finally {
        unlock();
      }
      Thread.onSpinWait();
    }
  }

  /* Confined: empties the slot with a plain store. @return true */
  private boolean clearSlot() {
    SLOT.set(this, null);
    return true;
  }

  // ------------------------------------------------------------------ the slot's owner (see the notes)

  /* @return true if the current thread may touch the slot with plain accesses; settles the owner first */
  private boolean confined() {
    Object o = owner;
    Thread t = Thread.currentThread();
    return o == t || o != SHARED && settle(o, t);
  }

  private boolean settle(Object o, Thread t) {
    for (;;) {
      if (o == t) {
        return true;
      }
      if (o == SHARED) {
        return false;
      }
      if (o == null) {
        Object claim = t instanceof CarrierThread && ((CarrierThread) t).loop() instanceof CarrierLoop
            && ((CarrierThread) t).stack instanceof Fiber ? t : SHARED;
        if (OWNER.compareAndSet(this, null, claim)) {
          return claim == t;
        }
      } else {
        awaitShared((CarrierThread) o, t);
      }
      o = owner;
    }
  }

  /* Asks the owning carrier to share the slot and waits until it did (or died). */
  private void awaitShared(CarrierThread c, Thread t) {
    c.requestShare(this);
    for (int spins = 0; owner == c; spins++) {
      if (t instanceof CarrierThread) {
        ((CarrierThread) t).runShareRequests(); // the owner may be waiting for this carrier in turn
      }
      if (!c.isAlive()) { // a dead thread's writes happen-before isAlive() returns false
        OWNER.compareAndSet(this, c, SHARED);
        return;
      }
      if (spins < 1_000) {
        Thread.onSpinWait();
      } else {
        Thread.yield(); // the owner may be waiting for this CPU
      }
    }
  }

  /** @return who may touch the rendezvous slot: null (nobody did yet), the carrier thread it is confined to, or a marker for every thread */
  Object slotOwner() {
    return owner;
  }

  /** Shares a slot confined to the current thread: called by its carrier between tasks, never inside a slot access. */
  void share() {
    if (owner == Thread.currentThread()) {
      OWNER.setVolatile(this, SHARED); // publishes this thread's plain writes of the slot to whoever reads SHARED
    }
  }
}
