package io.krill.fibers;

import io.netty.util.concurrent.FastThreadLocalThread;

/**
 * A thread that carries continuations: the current {@link Stack} is a plain field, so woven
 * code finds it with one type check and one load instead of a {@link ThreadLocal} lookup.
 *
 * <p>Schedulers create their threads as carrier threads. Other threads work too, through a
 * slower thread-local fallback.
 */
final class CarrierThread extends FastThreadLocalThread {
  Stack stack = Stack.NONE;
  /** The arrays that continuations' captures on this thread write into first (see Stack), or null. */
  Stack.Scratch scratch;
  private Object loop;
  private long slices;
  private boolean inSlice;

  /** This carrier's local run queue, made by its first fiber slice, or null. Only this thread uses it. */
  LocalRunQueue runQueue;

  /**
   * A decided waiter that the next blocking channel operation of a fiber on this carrier reuses
   * (see Waiter), or null. Only this thread uses it: one spare per carrier instead of one per
   * fiber keeps a parked fiber small.
   */
  Waiter spareWaiter;

  /** Channels whose rendezvous slot is confined to this carrier and that other threads asked to share (see Channel). */
  private final java.util.Queue<Channel<?>> shareRequests = new java.util.concurrent.ConcurrentLinkedQueue<>();
  private final Runnable shareTask = this::runShareRequests;

  /**
   * Creates a carrier thread.
   *
   * @param task what the thread runs
   * @param name the thread's name
   */
  CarrierThread(Runnable task, String name) {
    super(null, task, name);
    setDaemon(true);
  }

  /**
   * Records that a fiber slice starts on this carrier, for the watchdog. The fiber itself is not
   * recorded: while its slice runs it is this thread's bound {@link #stack} (see {@link #sliceOwner()}),
   * so a slice stores no reference into this long-lived object beyond the binding (each such store
   * costs a fence in G1's write barrier once the thread object is old).
   */
  void sliceStarted() {
    slices++;
    inSlice = true;
  }

  /** Records that the slice ended. */
  void sliceEnded() {
    inSlice = false;
  }

  /** @return the event loop this thread runs, or null */
  Object loop() {
    return loop;
  }

  /** @param loop the event loop this thread runs */
  void loop(Object loop) {
    this.loop = loop;
  }

  /**
   * Returns what runs in the current slice: the stack bound to this carrier, which is the slice's
   * fiber, or a continuation that the fiber runs inside it; a description when the fiber called
   * out detached from its stack ({@code Continuation.callOnThread}); null between slices.
   *
   * @return the running fiber or continuation, a description, or null (a racy read, for the watchdog)
   */
  Object sliceOwner() {
    if (!inSlice) {
      return null;
    }
    Stack s = stack;
    return s != Stack.NONE ? s : "(a fiber in a call detached from its stack)";
  }

  /** @return how many slices started on this carrier (a racy read, for the watchdog) */
  long slices() {
    return slices;
  }

  /**
   * Asks this carrier to share {@code channel}'s slot: queues the request and a task on the
   * loop, which runs it between two tasks. Callable from any thread.
   *
   * @param channel a channel whose slot is confined to this carrier
   */
  void requestShare(Channel<?> channel) {
    shareRequests.offer(channel);
    try {
      ((java.util.concurrent.Executor) loop).execute(shareTask);
    } catch (java.util.concurrent.RejectedExecutionException e) {
      // The loop is shutting down: the asker takes over once this thread has ended.
    }
  }

  /** Shares the channels asked for so far. Only this thread calls it, never inside a slot access. */
  void runShareRequests() {
    Channel<?> c;
    while ((c = shareRequests.poll()) != null) {
      c.share();
    }
  }
}
