package io.krill.netio.spi;

import io.krill.fibers.VarHandles;
import io.krill.fibers.SpinLocks;
import io.krill.fibers.Strand;
import io.krill.fibers.Suspendable;
import io.netty.channel.Channel;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.util.ReferenceCountUtil;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.net.SocketTimeoutException;
import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;

/**
 * The connection core: the last handler of a channel's pipeline, which hands what the pipeline
 * decodes to one reading strand and wakes one writing strand when the channel becomes writable
 * again. netio's sockets and httpd's connections are built on it; protocol libraries extend it,
 * application code does not.
 *
 * <p>Threading: the {@code channel*} methods run on the channel's event loop; the strand-side
 * methods run on the reading or writing strand (a fiber anywhere, or a thread); {@link
 * #closeQueue()} and the queries may run on any thread. Reads are on demand: the channel runs
 * with autoRead off and the reader asks for one more read only when the queue is empty, so a
 * slow reader holds at most one read's worth of messages.
 */
public abstract class ConnectionHandler extends ChannelDuplexHandler {
  /*
   * Implementation notes.
   *
   * The loop produces (channelRead, events); one reader and one writer strand consume. Queue and
   * flags are guarded by a spin lock held for a few field accesses and never across a park: a
   * monitor here cost as much as the rest of a message's trip. A strand publishes itself in
   * `reader`/`writer`, re-checks its condition under the lock, then parks; the loop changes the
   * state under the lock, then wakes whoever is published. A wake-up that comes before the park
   * leaves a permit (Fiber.unpark, LockSupport.unpark), so none is lost. Publishing is a release
   * store: the lock orders it against the loop's read of the field.
   *
   * The queue is a head slot plus an overflow deque created on first need: a read usually yields
   * one message or a few, so most connections never allocate the deque, and an idle one holds no
   * queue storage at all.
   *
   * Ownership: a message in the queue belongs to the queue. Whoever polls it (the reader, or
   * closeQueue() draining) owns it and releases it. Once closed, channelRead releases a message at
   * once instead of queueing it.
   */

  /** {@link #pollOrPublish} and {@link #pollOrEnd()}: nothing more will come. */
  protected static final Object END = new Object();

  private static final VarHandle LOCKED = SpinLocks.handle(MethodHandles.lookup(), ConnectionHandler.class);
  private static final VarHandle READER =
      VarHandles.field(MethodHandles.lookup(), ConnectionHandler.class, "reader", Object.class);
  private static final VarHandle WRITER =
      VarHandles.field(MethodHandles.lookup(), ConnectionHandler.class, "writer", Object.class);

  /** The channel this handler serves. */
  protected final Channel channel;
  private volatile int locked;
  /** The queue's head: null iff the queue is empty. */
  private Object head;
  /** What follows {@link #head}, created when a second message arrives before the first is taken. */
  private ArrayDeque<Object> rest;
  private boolean inputEnded;
  private volatile boolean closed;
  private volatile Throwable failure;
  private volatile Object reader;
  private volatile Object writer;

  /** @param channel the channel this handler serves */
  protected ConnectionHandler(Channel channel) {
    this.channel = channel;
  }

  /** @return the channel */
  public final Channel channel() {
    return channel;
  }

  /** @return the peer, for messages */
  public abstract String peer();

  // ------------------------------------------------------------------ loop side

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    boolean drop;
    boolean wasEmpty;
    lock();
    try {
      drop = closed;
      wasEmpty = head == null;
      if (!drop) {
        enqueue(msg);
        queued(msg);
      }
    } finally {
      unlock();
    }
    if (drop) {
      ReferenceCountUtil.release(msg);
    } else if (wasEmpty) {
      // Only the empty -> non-empty step wakes: the reader parks only after seeing an empty
      // queue under the lock, so it takes what follows before it can park again; a wake per
      // message would leave a permit and cost the reader a useless extra round.
      readable(reader);
    }
  }

  /**
   * Called under the lock when {@code msg} joins the queue, on the loop; keep it to a few field
   * accesses.
   *
   * @param msg the message
   */
  protected void queued(Object msg) {}

  /**
   * Called under the lock when {@code msg} leaves the queue; keep it to a few field accesses.
   *
   * @param msg the message
   */
  protected void dequeued(Object msg) {}

  /**
   * The queue became non-empty; wakes the reader. By default a reader fiber parked on this loop
   * runs right here (as a Netty handler would answer in channelRead), not after a hop through the
   * loop's task queue; no lock is held.
   *
   * @param reader the published reader, or null
   */
  protected void readable(Object reader) {
    Strand.wakeHere(reader);
  }

  @Override
  public void channelReadComplete(ChannelHandlerContext ctx) {
    // A read that produced nothing for us (half a TLS record, half a frame): read on.
    if (reader != null && isEmptyAndOpen()) {
      ctx.read();
    }
  }

  @Override
  public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
    if (evt instanceof ChannelInputShutdownEvent) {
      lock();
      try {
        inputEnded = true;
      } finally {
        unlock();
      }
      Strand.wake(reader);
    }
    ReferenceCountUtil.release(evt);
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) {
    lock();
    try {
      inputEnded = true;
    } finally {
      unlock();
    }
    wakeAll();
  }

  @Override
  public void channelWritabilityChanged(ChannelHandlerContext ctx) {
    Strand.wake(writer);
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    failed(cause);
  }

  /**
   * Records the connection's failure (the first one wins) and wakes both strands. Any thread.
   *
   * @param cause what went wrong
   */
  protected final void failed(Throwable cause) {
    lock();
    try {
      if (failure == null) {
        failure = cause;
      }
    } finally {
      unlock();
    }
    wakeAll();
  }

  /** Wakes the reader and the writer, if any. Any thread. */
  protected final void wakeAll() {
    Strand.wake(reader);
    Strand.wake(writer);
  }

  /** Wakes the reader, if any, so it re-checks its conditions (a shutdown, a deadline). Any thread. */
  public final void wakeReader() {
    Strand.wake(reader);
  }

  // ------------------------------------------------------------------ reading strand

  /** @return the queue's head (owned by the caller), or null if it is empty */
  protected final Object poll() {
    lock();
    try {
      return dequeue();
    } finally {
      unlock();
    }
  }

  /**
   * @return the queue's head (owned by the caller); {@link #END} if the queue is empty and the
   *     input ended, the connection closed or failed; null if it is empty and more may come
   */
  protected final Object pollOrEnd() {
    lock();
    try {
      Object m = dequeue();
      return m != null ? m : isEnded() ? END : null;
    } finally {
      unlock();
    }
  }

  /**
   * Like {@link #pollOrEnd()}, and when it would answer null, publishes {@code strand} as the
   * reader in the same locked section, so a message that arrives next wakes it.
   *
   * @param strand the calling strand ({@link Strand#current()})
   * @return the head, {@link #END}, or null once {@code strand} is published
   */
  protected final Object pollOrPublish(Object strand) {
    lock();
    try {
      Object m = dequeue();
      if (m != null) {
        return m;
      }
      if (isEnded()) {
        return END;
      }
      READER.setRelease(this, strand);
      return null;
    } finally {
      unlock();
    }
  }

  /**
   * Publishes the reader (a release store); callers re-check their condition under the lock
   * ({@link #isEmptyAndOpen()}) before they park.
   *
   * @param strand the reading strand, or null once it stops waiting
   */
  protected final void publishReader(Object strand) {
    READER.setRelease(this, strand);
  }

  /** @return the published reader, or null */
  protected final Object reader() {
    return reader;
  }

  /** @return true if nothing is queued and more may come */
  protected final boolean isEmptyAndOpen() {
    lock();
    try {
      return head == null && !isEnded();
    } finally {
      unlock();
    }
  }

  /** @return true if a message is queued */
  public final boolean hasQueued() {
    lock();
    try {
      return head != null;
    } finally {
      unlock();
    }
  }

  /* Under the lock. */
  private boolean isEnded() {
    return closed || failure != null || inputEnded;
  }

  /* Under the lock. */
  private void enqueue(Object msg) {
    if (head == null) {
      head = msg; // the queue is empty, so rest is too
    } else {
      if (rest == null) {
        rest = new ArrayDeque<>(4);
      }
      rest.add(msg);
    }
  }

  /* Under the lock. @return the queue's head, or null if it is empty */
  private Object dequeue() {
    Object m = head;
    if (m != null) {
      ArrayDeque<Object> r = rest;
      head = r == null ? null : r.poll();
      dequeued(m);
    }
    return m;
  }

  // ------------------------------------------------------------------ writing strand

  /**
   * Parks while the channel is not writable (its outbound buffer is above the high water mark).
   * Call after flushing, or the buffer never drains. May suspend.
   *
   * @param timeoutNanos the longest wait, 0 for none
   * @throws SocketTimeoutException if the channel did not become writable in time
   * @throws IOException if the connection failed or closed ({@link #writeRefused(Throwable)})
   * @throws Suspendable never; marks that this method suspends
   */
  public final void awaitWritable(long timeoutNanos) throws IOException, Suspendable {
    if (!channel.isWritable()) {
      awaitWritableSlow(timeoutNanos);
    }
  }

  private void awaitWritableSlow(long timeoutNanos) throws IOException, Suspendable {
    long deadline = Strand.deadline(timeoutNanos);
    WRITER.setRelease(this, Strand.current());
    try {
      while (!channel.isWritable()) {
        Throwable fail = failure;
        if (fail != null || closed || !channel.isActive()) {
          throw writeRefused(fail);
        }
        if (!Strand.park(this, deadline)) {
          throw new SocketTimeoutException("Write timed out after " + TimeUnit.NANOSECONDS.toMillis(timeoutNanos)
              + " ms: " + peer() + " is not reading");
        }
      }
    } finally {
      WRITER.setRelease(this, null);
    }
  }

  /**
   * The exception for a write on a connection that failed or closed.
   *
   * @param failure the connection's failure, or null if it closed
   * @return the exception to throw
   */
  protected abstract IOException writeRefused(Throwable failure);

  // ------------------------------------------------------------------ closing

  /**
   * Marks the connection closed, releases what is queued and wakes both strands. Any thread;
   * idempotent.
   *
   * @return true if this call closed it
   */
  protected final boolean closeQueue() {
    boolean first;
    lock();
    try {
      first = !closed;
      closed = true;
    } finally {
      unlock();
    }
    for (Object m; (m = poll()) != null; ) {
      ReferenceCountUtil.release(m);
    }
    wakeAll();
    return first;
  }

  /** @return true once {@link #closeQueue()} ran */
  public final boolean isClosed() {
    return closed;
  }

  /** @return the failure that ended the connection, or null */
  public final Throwable failure() {
    return failure;
  }

  private void lock() {
    SpinLocks.lock(LOCKED, this);
  }

  private void unlock() {
    SpinLocks.unlock(LOCKED, this);
  }
}
