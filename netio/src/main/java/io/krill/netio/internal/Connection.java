package io.krill.netio.internal;

import io.krill.fibers.SpinLocks;
import io.krill.fibers.Strand;
import io.krill.fibers.Suspendable;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.channel.socket.DuplexChannel;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.ScheduledFuture;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The last handler of a netio channel's pipeline: it hands what the pipeline decodes to one
 * reading strand and tells one writing strand when the channel becomes writable again. Reads
 * are on demand: the channel runs with autoRead off and {@link #take} asks for one more read
 * only when its queue is empty, so a slow reader holds at most one read's worth of data. Not
 * API.
 */
@io.netty.channel.ChannelHandler.Sharable // one pipeline only; Sharable so messages() can re-add it after the codecs
public final class Connection extends ChannelDuplexHandler implements ChannelFutureListener {
  /*
   * Implementation notes.
   *
   * The loop thread produces (channelRead, events); the reader and the writer strands may be
   * fibers on this loop, fibers elsewhere, or platform threads. Queue and flags are guarded by
   * the lock, held only for a few field accesses and never across a park. A strand publishes
   * itself in `reader`/`writer` under the lock, after checking its condition, then parks; the
   * loop changes the state under the lock, then wakes whoever is published. The lock is a
   * spin lock (lock()/unlock(), one CAS and one release store): the sections are a few field
   * accesses, and a monitor here cost as much as the rest of a message's trip. A wake-up that
   * comes before the park leaves a permit (Fiber.unpark, LockSupport.unpark), so none is lost.
   *
   * The queue is a head slot plus an overflow deque created on first need: a read usually
   * yields one message (a byte buffer) or a few (a codec's head and content), so most
   * connections never allocate the deque, and an idle one holds no queue storage at all.
   *
   * Ownership: a message in the queue belongs to the queue. Whoever polls it (the reader, or
   * close() draining) owns it and releases it. After close() no message is queued: channelRead
   * releases it at once.
   */

  /** The handler's name in the pipeline. */
  public static final String NAME = "krill-connection";

  private final Channel channel;
  private final String peer;
  /** The queue's head: null iff the queue is empty. */
  private Object head;
  /** What follows {@link #head}, created when a second message arrives before the first is taken. */
  private ArrayDeque<Object> rest;
  private boolean inputEnded;
  private boolean closed;
  private boolean outputShutdown;
  private Throwable failure;
  private volatile Object reader;
  private volatile Object writer;

  /**
   * @param channel the channel this handler serves
   * @param peer the peer as {@code host:port}, for messages
   */
  public Connection(Channel channel, String peer) {
    this.channel = channel;
    this.peer = peer;
  }

  /** @return the channel */
  public Channel channel() {
    return channel;
  }

  /** @return the peer as {@code host:port} */
  public String peer() {
    return peer;
  }

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
      }
    } finally {
      unlock();
    }
    if (drop) {
      ReferenceCountUtil.release(msg);
    } else if (wasEmpty) {
      // Only the empty -> non-empty step wakes: the reader parks only after seeing an empty
      // queue under the lock, so it takes what follows before it can park again; a wake per
      // message would leave a permit and cost the reader a useless extra round. A reader fiber
      // parked on this loop runs right here (as a Netty handler would answer in channelRead),
      // not after a hop through the loop's task queue; no lock is held.
      Strand.wakeHere(reader);
    }
  }

  @Override
  public void channelReadComplete(ChannelHandlerContext ctx) {
    // A read that produced nothing for us (half a TLS record, half a frame): read on.
    if (reader != null && isEmptyAndOpen()) {
      ctx.read();
    }
  }

  private boolean isEmptyAndOpen() {
    lock();
    try {
      return head == null && !inputEnded && failure == null && !closed;
    } finally {
      unlock();
    }
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
    }
    return m;
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
    Strand.wake(reader);
    Strand.wake(writer);
  }

  @Override
  public void channelWritabilityChanged(ChannelHandlerContext ctx) {
    Strand.wake(writer);
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    failed(cause);
  }

  private void failed(Throwable cause) {
    lock();
    try {
      if (failure == null) {
        failure = cause;
      }
    } finally {
      unlock();
    }
    Strand.wake(reader);
    Strand.wake(writer);
  }

  // ------------------------------------------------------------------ reading strand

  /**
   * Takes the next inbound message, parking while there is none. Messages already received
   * come before a failure.
   *
   * @param timeoutNanos the longest wait, 0 for none
   * @return the message, owned by the caller; null at the end of the stream
   * @throws SocketTimeoutException if nothing came in time
   * @throws IOException if the connection failed or was closed locally
   * @throws Suspendable never; marks that this method suspends
   */
  public Object take(long timeoutNanos) throws IOException, Suspendable {
    Object m = poll();
    return m != null ? m : takeSlow(timeoutNanos);
  }

  private Object poll() {
    lock();
    try {
      return dequeue();
    } finally {
      unlock();
    }
  }

  private Object takeSlow(long timeoutNanos) throws IOException, Suspendable {
    long deadline = Strand.deadline(timeoutNanos);
    Object me = Strand.current();
    try {
      for (;;) {
        Throwable fail;
        lock();
        try {
          Object m = dequeue();
          if (m != null) {
            return m;
          }
          if (closed) {
            throw Errors.closed(peer);
          }
          fail = failure;
          if (fail == null && inputEnded) {
            return null;
          }
          reader = me;
        } finally {
          unlock();
        }
        if (fail != null) {
          throw Errors.ioFailed(fail, peer);
        }
        channel.read();
        if (!Strand.park(this, deadline)) {
          throw new SocketTimeoutException("Read timed out after " + TimeUnit.NANOSECONDS.toMillis(timeoutNanos)
              + " ms: " + peer);
        }
      }
    } finally {
      reader = null;
    }
  }

  /** @return true if a message is queued */
  public boolean hasQueued() {
    lock();
    try {
      return head != null;
    } finally {
      unlock();
    }
  }

  // ------------------------------------------------------------------ writing strand

  /**
   * Writes a message; the pipeline takes ownership, also when this throws.
   *
   * @param msg the message
   * @param flush whether to flush
   * @throws IOException if the socket is closed, its output shut down, or a write failed
   */
  public void write(Object msg, boolean flush) throws IOException {
    Throwable fail;
    boolean refused;
    lock();
    try {
      fail = failure;
      refused = closed || outputShutdown;
    } finally {
      unlock();
    }
    if (refused || fail != null) {
      ReferenceCountUtil.release(msg);
      throw fail != null ? Errors.ioFailed(fail, peer) : Errors.closed(peer);
    }
    if (channel.eventLoop().inEventLoop() && channel.isActive()) {
      // On the channel's own loop (a fiber at home): the write runs now, on an open channel,
      // so a void promise is safe; a failure arrives in exceptionCaught like any other. No
      // promise, no listener, no notification task per write.
      if (flush) {
        channel.writeAndFlush(msg, channel.voidPromise());
      } else {
        channel.write(msg, channel.voidPromise());
      }
      return;
    }
    ChannelFuture f = flush ? channel.writeAndFlush(msg) : channel.write(msg);
    f.addListener(this);
  }

  /**
   * Listens to writes made off the channel's loop: a failed one fails the connection. Not for
   * callers.
   *
   * @param f the write's future
   */
  @Override
  public void operationComplete(ChannelFuture f) {
    if (!f.isSuccess()) {
      failed(f.cause());
    }
  }

  /** Flushes what was written. */
  public void flush() {
    channel.flush();
  }

  /**
   * Parks while the channel is not writable (its outbound buffer is above the high water
   * mark). Call after flushing, or the buffer never drains.
   *
   * @param timeoutNanos the longest wait, 0 for none
   * @throws SocketTimeoutException if the channel did not become writable in time
   * @throws IOException if the connection failed or closed
   * @throws Suspendable never; marks that this method suspends
   */
  public void awaitWritable(long timeoutNanos) throws IOException, Suspendable {
    if (!channel.isWritable()) {
      awaitWritableSlow(timeoutNanos);
    }
  }

  private void awaitWritableSlow(long timeoutNanos) throws IOException, Suspendable {
    long deadline = Strand.deadline(timeoutNanos);
    writer = Strand.current();
    try {
      while (!channel.isWritable()) {
        Throwable fail;
        lock();
        try {
          fail = failure;
          if (fail == null && (closed || !channel.isActive())) {
            throw Errors.closed(peer);
          }
        } finally {
          unlock();
        }
        if (fail != null) {
          throw Errors.ioFailed(fail, peer);
        }
        if (!Strand.park(this, deadline)) {
          throw new SocketTimeoutException("Write timed out after " + TimeUnit.NANOSECONDS.toMillis(timeoutNanos)
              + " ms: " + peer + " is not reading");
        }
      }
    } finally {
      writer = null;
    }
  }

  /**
   * Half-closes: once everything written so far is on the wire, shuts the output down.
   *
   * @param timeoutNanos the longest wait for pending writes, 0 for none
   * @throws IOException if that failed
   * @throws Suspendable never; marks that this method suspends
   */
  public void shutdownOutput(long timeoutNanos) throws IOException, Suspendable {
    lock();
    try {
      if (closed) {
        throw Errors.closed(peer);
      }
      if (outputShutdown) {
        return;
      }
      outputShutdown = true;
    } finally {
      unlock();
    }
    if (!(channel instanceof DuplexChannel)) {
      throw new UnsupportedOperationException("shutdownOutput: " + channel.getClass().getSimpleName() + " is not a duplex channel");
    }
    io.netty.channel.ChannelPromise done = channel.newPromise();
    channel.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(f -> {
      if (f.isSuccess()) {
        ((DuplexChannel) channel).shutdownOutput(done);
      } else {
        done.setFailure(f.cause());
      }
    });
    if (!Await.done(done, Strand.deadline(timeoutNanos))) {
      throw new SocketTimeoutException("Shutting down output timed out after "
          + TimeUnit.NANOSECONDS.toMillis(timeoutNanos) + " ms: " + peer + " is not reading");
    }
    if (!done.isSuccess()) {
      throw Errors.ioFailed(done.cause(), peer);
    }
  }

  // ------------------------------------------------------------------ closing

  /**
   * Closes without waiting: releases what is queued, wakes waiting strands, and closes the
   * channel once what was written is flushed, or after {@code lingerNanos} at the latest.
   *
   * @param lingerNanos how long pending writes may take before the channel is closed anyway
   */
  public void close(long lingerNanos) {
    List<Object> drained;
    lock();
    try {
      if (closed) {
        return;
      }
      closed = true;
      drained = new ArrayList<>();
      for (Object m; (m = dequeue()) != null; ) {
        drained.add(m);
      }
      rest = null;
    } finally {
      unlock();
    }
    for (Object m : drained) {
      ReferenceCountUtil.release(m);
    }
    Strand.wake(reader);
    Strand.wake(writer);
    if (!channel.isActive()) {
      channel.close();
      return;
    }
    channel.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
    if (lingerNanos > 0) {
      ScheduledFuture<?> force = channel.eventLoop().schedule(() -> {
        channel.close();
      }, lingerNanos, TimeUnit.NANOSECONDS);
      channel.closeFuture().addListener(f -> force.cancel(false));
    }
  }

  /** @return true until {@link #close} was called or the channel closed */
  public boolean isOpen() {
    lock();
    try {
      return !closed && channel.isActive();
    } finally {
      unlock();
    }
  }

  /** @return the failure that ended the connection, or null */
  public Throwable failure() {
    lock();
    try {
      return failure;
    } finally {
      unlock();
    }
  }
  private volatile int locked;
  private static final java.lang.invoke.VarHandle LOCKED =
      io.krill.fibers.SpinLocks.handle(java.lang.invoke.MethodHandles.lookup(), Connection.class);

  private void lock() {
    io.krill.fibers.SpinLocks.lock(LOCKED, this);
  }

  private void unlock() {
    io.krill.fibers.SpinLocks.unlock(LOCKED, this);
  }
}
