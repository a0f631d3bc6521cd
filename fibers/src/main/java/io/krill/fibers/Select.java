package io.krill.fibers;

import java.time.Duration;
import java.util.Arrays;
import java.util.Objects;
import java.util.random.RandomGenerator;

/**
 * A CSP alternation (alt): waits for the first of several channel operations that can
 * complete, performs exactly that one, and runs its handler.
 *
 * <pre>{@code
 * String r = Select.<String>create()
 *     .onReceive(requests, req -> "request " + req)
 *     .onSend(replies, reply, () -> "replied")
 *     .onTimeout(Duration.ofSeconds(1), () -> "idle")
 *     .select();
 * }</pre>
 *
 * <p><b>Which case wins.</b> When {@link #select()} starts, it checks the cases in declaration
 * order (or, after {@link #randomOrder}, in a fresh random order) and takes the first that is
 * ready, atomically across all the channels involved. A receive is ready when an item is
 * buffered or a sender waits, a send when a receiver waits or the buffer has room; a case whose
 * channel is closed is ready too, and completes by throwing {@link ChannelClosedException}.
 * If no case is ready, the default case runs, if there is one. Otherwise the select waits, and
 * the first case that a counterparty (another strand's send, receive, select or close)
 * completes wins; if the timeout passes first, the timeout handler runs. Exactly one case ever
 * completes: the others have no effect. The timeout uses the scheduler's clock, which is
 * virtual under {@link DeterministicScheduler}.
 *
 * <p>{@link #select()} may suspend: it suspends the calling fiber and never blocks the carrier;
 * off-fiber it blocks the thread. Handlers run on the selecting strand after the choice and
 * may suspend. A select may be reused for any number of {@code select()} calls, but by one
 * strand at a time: it is not thread-safe. The channels it names may be raced by any number
 * of strands on any threads.
 *
 * @param <R> the handlers' result type
 */
public final class Select<R> {
  /*
   * Implementation notes.
   *
   * One select() call:
   *  1. Lock every distinct channel of the cases, in Channel.id order (single operations take
   *     one channel lock, so lock order is global and there is no deadlock).
   *  2. Poll the cases in order under those locks: the first ready case is completed right
   *     there (pollLocked / offerLocked claim the counterparty's waiter with one CAS on *its*
   *     owner), so "first ready case" is exact, not racy.
   *  3. If none is ready and there is no default: register one Waiter per case, all sharing
   *     one owner Waiter, still under all the locks. Nobody can see a half-registered select.
   *  4. Unlock (waking any strand completed in step 2), and park.
   *  5. A counterparty that meets one of our waiters claims it with a CAS null -> waiter on the
   *     owner's decision; a close claims it with closed=true; our own timeout or cancellation
   *     CASes null -> ABORTED. Exactly one CAS wins. A counterparty whose claim fails drops the
   *     waiter and moves on to the next one in its queue.
   *  6. After the decision, unregister every case waiter (each under its channel's lock; the
   *     winner is already unlinked), then run the winner's handler, or the timeout handler.
   *
   * Two selects can match each other: the one that arrives second holds all its own locks,
   * so its waiters are not yet visible, and it needs only the one CAS on the other's owner.
   */

  /**
   * A case handler that may suspend.
   *
   * @param <R> the result type
   */
  @FunctionalInterface
  public interface Handler<R> {
    /**
     * Runs after the case won.
     *
     * @return the select's result
     * @throws Suspendable never; marks that this method may suspend
     */
    R handle() throws Suspendable;
  }

  /**
   * A receive-case handler that may suspend.
   *
   * @param <T> the item type
   * @param <R> the result type
   */
  @FunctionalInterface
  public interface ReceiveHandler<T, R> {
    /**
     * Runs after the receive case won.
     *
     * @param item the item received
     * @return the select's result
     * @throws Suspendable never; marks that this method may suspend
     */
    R handle(T item) throws Suspendable;
  }

  private static final boolean RECEIVE = false;
  private static final boolean SEND = true;

  private Channel<?>[] channels = new Channel<?>[4];
  private boolean[] sends = new boolean[4];
  private Object[] items = new Object[4];
  private Object[] handlers = new Object[4];
  private int size;
  private Channel<?>[] lockOrder;
  private int[] order;
  private RandomGenerator random;
  private long timeoutNanos = -1;
  private Handler<? extends R> timeoutHandler;
  private Handler<? extends R> defaultHandler;
  private int readyIndex;
  private Object readyItem;

  private Select() {}

  /**
   * Creates an empty select.
   *
   * @param <R> the handlers' result type
   * @return the select
   */
  public static <R> Select<R> create() {
    return new Select<>();
  }

  /**
   * Adds a receive case.
   *
   * @param channel where to receive
   * @param handler gets the item if this case wins
   * @param <T> the item type
   * @return this
   */
  public <T> Select<R> onReceive(Channel<T> channel, ReceiveHandler<? super T, ? extends R> handler) {
    return add(channel, RECEIVE, null, handler);
  }

  /**
   * Adds a send case.
   *
   * @param channel where to send
   * @param item what to send, not null
   * @param handler runs if this case wins, after the item was sent
   * @param <T> the item type
   * @return this
   */
  public <T> Select<R> onSend(Channel<T> channel, T item, Handler<? extends R> handler) {
    return add(channel, SEND, Objects.requireNonNull(item, "item"), handler);
  }

  /**
   * Sets the timeout case: it wins if no other case completes within {@code timeout} of the
   * start of a {@link #select()}. A zero timeout wins at once if no case is ready.
   *
   * @param timeout how long to wait, not negative
   * @param handler runs if the timeout wins
   * @return this
   * @throws IllegalStateException if the select has a timeout or a default case already
   */
  public Select<R> onTimeout(Duration timeout, Handler<? extends R> handler) {
    Checks.nonNegative("timeout", timeout);
    Objects.requireNonNull(handler, "handler");
    if (timeoutHandler != null || defaultHandler != null) {
      throw new IllegalStateException("select: has a " + (timeoutHandler != null ? "timeout" : "default case")
          + " already; a select has at most one timeout or default case");
    }
    timeoutNanos = saturatedNanos(timeout);
    timeoutHandler = handler;
    return this;
  }

  /**
   * Sets the default case: it wins when no other case is ready at the start of a
   * {@link #select()}, which then never waits.
   *
   * @param handler runs if no case is ready
   * @return this
   * @throws IllegalStateException if the select has a timeout or a default case already
   */
  public Select<R> onDefault(Handler<? extends R> handler) {
    Objects.requireNonNull(handler, "handler");
    if (timeoutHandler != null || defaultHandler != null) {
      throw new IllegalStateException("select: has a " + (timeoutHandler != null ? "timeout" : "default case")
          + " already; a select has at most one timeout or default case");
    }
    defaultHandler = handler;
    return this;
  }

  /**
   * Makes each {@link #select()} check the cases in a fresh random order instead of declaration
   * order, so that no ready case starves. The order is a Fisher-Yates shuffle of the case
   * indexes {@code 0..n-1}: for {@code k} from {@code n-1} down to 1, swap {@code k} with
   * {@code random.nextInt(k + 1)}. A seeded generator makes the choices reproducible.
   *
   * @param random the source of randomness, used only by the selecting strand
   * @return this
   */
  public Select<R> randomOrder(RandomGenerator random) {
    this.random = Objects.requireNonNull(random, "random");
    return this;
  }

  private Select<R> add(Channel<?> channel, boolean send, Object item, Object handler) {
    Objects.requireNonNull(channel, "channel");
    Objects.requireNonNull(handler, "handler");
    if (size == channels.length) {
      int n = size * 2;
      channels = Arrays.copyOf(channels, n);
      sends = Arrays.copyOf(sends, n);
      items = Arrays.copyOf(items, n);
      handlers = Arrays.copyOf(handlers, n);
    }
    channels[size] = channel;
    sends[size] = send;
    items[size] = item;
    handlers[size] = handler;
    size++;
    lockOrder = null;
    order = null;
    return this;
  }

  // ------------------------------------------------------------------ selecting

  /**
   * Performs one alternation: completes exactly one case (see the class comment for which)
   * and returns its handler's result. May suspend.
   *
   * @return the winning handler's result
   * @throws ChannelClosedException if the winning case's channel is closed
   * @throws FiberCancelledException if the calling fiber is cancelled while it waits (then no
   *     case completed)
   * @throws IllegalStateException if the select has no case at all
   * @throws Suspendable never; marks that this method may suspend
   */
  public R select() throws Suspendable {
    if (size == 0 && timeoutHandler == null && defaultHandler == null) {
      throw new IllegalStateException("select: no cases");
    }
    Waiter[] registered = pollOrRegister();
    if (registered == null) {
      return readyIndex >= 0 ? complete(readyIndex, readyItem == Channel.CLOSED, readyItem) : fallback();
    }
    Waiter owner = registered[0].owner;
    boolean decided;
    try {
      decided = Waiter.await(owner, this, deadline(), Waiter::abort);
    } finally {
      unregister(registered);
    }
    if (!decided) {
      return timeoutHandler.handle();
    }
    Waiter won = (Waiter) owner.decision();
    return complete(won.index, won.closed, won.item);
  }

  private long deadline() {
    return timeoutHandler == null ? Waiter.NO_DEADLINE : Waiter.deadline(timeoutNanos);
  }

  private R fallback() throws Suspendable {
    return defaultHandler != null ? defaultHandler.handle() : timeoutHandler.handle();
  }

  @SuppressWarnings("unchecked")
  private R complete(int index, boolean closed, Object item) throws Suspendable {
    if (closed) {
      throw channels[index].closedException(sends[index] ? "send" : "receive");
    }
    if (sends[index]) {
      return ((Handler<? extends R>) handlers[index]).handle();
    }
    return ((ReceiveHandler<Object, ? extends R>) handlers[index]).handle(item);
  }

  /*
   * Steps 1-4 of the notes. Returns null when done without waiting: then readyIndex is the
   * completed case (readyItem its item or Channel.CLOSED), or -1 for default/zero timeout.
   */
  private Waiter[] pollOrRegister() {
    Channel<?>[] locks = lockOrder();
    int[] ord = order();
    Waiter[] registered = null;
    readyIndex = -1;
    readyItem = null;
    for (Channel<?> c : locks) {
      c.settleOwner(); // may wait for another carrier: not while holding a channel's lock
    }
    for (Channel<?> c : locks) {
      c.lock();
    }
    try {
      for (int k = 0; k < size; k++) {
        int i = ord[k];
        Object x = sends[i] ? offer(channels[i], items[i]) : channels[i].pollLocked();
        if (x != Channel.EMPTY) {
          readyIndex = i;
          readyItem = x;
          return null;
        }
      }
      if (defaultHandler == null && timeoutNanos != 0) {
        registered = registerLocked();
      }
    } finally {
      for (Channel<?> c : locks) {
        c.unlockAndWake();
      }
    }
    return registered;
  }

  private static Object offer(Channel<?> c, Object item) {
    int r = c.offerLocked(item);
    return r == Channel.OK ? null : r == Channel.FULL ? Channel.EMPTY : Channel.CLOSED;
  }

  private Waiter[] registerLocked() {
    Waiter owner = new Waiter(Strand.current(), null);
    Waiter[] ws = new Waiter[Math.max(1, size)];
    for (int i = 0; i < size; i++) {
      Waiter w = new Waiter(owner, i, sends[i] ? items[i] : null);
      channels[i].registerLocked(w, sends[i]);
      ws[i] = w;
    }
    if (size == 0) {
      ws[0] = new Waiter(owner, -1, null); // a timeout-only select: a handle on the owner
    }
    return ws;
  }

  private void unregister(Waiter[] registered) {
    for (int i = 0; i < size; i++) {
      channels[i].unregister(registered[i]);
    }
  }

  private Channel<?>[] lockOrder() {
    Channel<?>[] locks = lockOrder;
    if (locks == null) {
      locks = Arrays.copyOf(channels, size);
      Arrays.sort(locks, (a, b) -> Long.compare(a.id, b.id));
      int n = 0;
      for (int i = 0; i < locks.length; i++) {
        if (n == 0 || locks[n - 1] != locks[i]) {
          locks[n++] = locks[i];
        }
      }
      locks = Arrays.copyOf(locks, n);
      lockOrder = locks;
    }
    return locks;
  }

  private int[] order() {
    int[] ord = order;
    if (ord == null) {
      ord = new int[size];
      order = ord;
    }
    for (int i = 0; i < size; i++) {
      ord[i] = i;
    }
    RandomGenerator r = random;
    if (r != null) {
      for (int k = size - 1; k > 0; k--) {
        int j = r.nextInt(k + 1);
        int t = ord[k];
        ord[k] = ord[j];
        ord[j] = t;
      }
    }
    return ord;
  }

  private static long saturatedNanos(Duration d) {
    try {
      return d.toNanos();
    } catch (ArithmeticException e) {
      return Long.MAX_VALUE - 1;
    }
  }

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder("Select[");
    for (int i = 0; i < size; i++) {
      sb.append(i == 0 ? "" : ", ").append(sends[i] ? "send " : "receive ").append(channels[i]);
    }
    if (timeoutHandler != null) {
      sb.append(size == 0 ? "" : ", ").append("timeout ").append(Duration.ofNanos(timeoutNanos));
    }
    if (defaultHandler != null) {
      sb.append(size == 0 ? "" : ", ").append("default");
    }
    return sb.append(']').toString();
  }
}
