package io.krill.httpd;

import io.krill.fibers.Fiber;
import io.krill.fibers.SpinLocks;
import io.krill.fibers.Strand;
import io.krill.fibers.Suspendable;
import io.krill.fibers.SuspendableRunnable;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.channel.socket.DuplexChannel;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One HTTP connection: the last handler of its pipeline, which queues what the decoder
 * produces for the connection's strand, and the strand's loop that serves the requests one
 * after another ({@link #run()}).
 */
final class HttpConnection extends ChannelDuplexHandler implements ChannelFutureListener, SuspendableRunnable {
  /*
   * Implementation notes.
   *
   * Like netio's Connection: the loop produces (channelRead, events) and one strand consumes;
   * the queue and flags are guarded by `this`, never held across a park. A strand publishes
   * itself in `reader`, re-checks, then parks; the loop wakes whoever is published, and a
   * wake-up before the park leaves a permit. Reads are on demand (autoRead off): the strand
   * asks for one more read only when the queue is empty, so a connection holds at most one
   * read's worth of decoded requests and nothing while idle.
   *
   * Idle state: the strand is parked in run() with the idle deadline; the decoder holds no
   * buffer, and no timer exists: one sweeper task per server wakes readers past their deadline
   * (ServerCore.SWEEP_MILLIS), so a request costs no timer scheduling or cancelling. When part
   * of a head arrives (channelReadComplete with nothing decoded), the reader is woken so it
   * re-parks with the header-read deadline instead.
   *
   * Cost per keep-alive request in fiber mode (the loop resumes the fiber inside
   * channelReadComplete): one message through the pipeline (RequestDecoder drops the end marker
   * of a bodyless request), four monitor enters (channelRead, pollHead twice, the re-check before
   * parking), one woven frame (run) unwound and rewound, no volatile store (publishReader).
   */
  private static final Logger LOG = LoggerFactory.getLogger(HttpConnection.class);

  /** next(): the deadline passed. */
  static final Object TIMEOUT = new Object();
  /** next(): woken without a message; re-check conditions. */
  static final Object NOTHING = new Object();
  /** pollHead(): nothing more will be served. */
  private static final Object END = new Object();

  final ServerCore server;
  final Channel channel;
  final RequestDecoder decoder;
  private ChannelHandlerContext ctx;
  private final ArrayDeque<Object> inbound = new ArrayDeque<>(4);
  /* Written under the lock; volatile so the exchange's per-response checks need no lock. */
  private volatile int queuedHeads;
  private boolean inputEnded;
  private volatile boolean closed;
  private volatile Throwable failure;
  private volatile Object reader;
  private volatile Object writer;
  /** The deadline of the reader's current wait, {@link Long#MAX_VALUE} while none. */
  private volatile long deadline = Long.MAX_VALUE;
  /**
   * A message arrived for a parked fiber reader whose wake-up waits for channelReadComplete
   * (loop thread; the sweeper also reads it, as a safety net should that event never come).
   */
  private volatile boolean wakePending;

  private static final VarHandle READER;
  private static final VarHandle DEADLINE;

  static {
    try {
      MethodHandles.Lookup l = MethodHandles.lookup();
      READER = l.findVarHandle(HttpConnection.class, "reader", Object.class);
      DEADLINE = l.findVarHandle(HttpConnection.class, "deadline", long.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  HttpConnection(ServerCore server, Channel channel, RequestDecoder decoder) {
    this.server = server;
    this.channel = channel;
    this.decoder = decoder;
  }

  // ------------------------------------------------------------------ loop side

  @Override
  public void handlerAdded(ChannelHandlerContext ctx) {
    this.ctx = ctx;
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    boolean drop;
    boolean wasEmpty;
    lock();
    try {
      drop = closed;
      wasEmpty = inbound.isEmpty();
      if (!drop) {
        inbound.add(msg);
        if (msg instanceof HttpRequest) {
          queuedHeads++;
        }
      }
    } finally {
      unlock();
    }
    if (drop) {
      ReferenceCountUtil.release(msg);
    } else if (wasEmpty) {
      // Only the empty -> non-empty step wakes: the reader parks only after seeing an empty
      // queue under the lock, so it drains whatever follows before it can park again. Waking
      // for every message (a GET is a head and an empty LastHttpContent) left a permit that
      // made the next park return at once for a useless extra round.
      Object r = reader;
      if (r instanceof Fiber) {
        wakePending = true; // woken in channelReadComplete, once the whole read is decoded
      } else {
        Strand.wake(r);
      }
    }
  }

  @Override
  public void channelReadComplete(ChannelHandlerContext ctx) {
    if (wakePending) {
      wakePending = false;
      // The fiber parked on this loop runs here and now, with the whole read queued, instead
      // of after a hop through the task queue; no lock is held here.
      Strand.wakeHere(reader);
      return;
    }
    Object r = reader;
    if (r != null && isEmptyAndOpen()) {
      ctx.read(); // a read that decoded nothing (part of a head or chunk): read on
      if (decoder.headStartNanos != 0) {
        Strand.wake(r); // a head has begun: the reader switches to the header-read deadline
      }
    }
  }

  private boolean isEmptyAndOpen() {
    lock();
    try {
      return inbound.isEmpty() && !inputEnded && failure == null && !closed;
    } finally {
      unlock();
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
    Strand.wake(reader);
    Strand.wake(writer);
  }

  @Override
  public void channelWritabilityChanged(ChannelHandlerContext ctx) {
    Strand.wake(writer);
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
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

  /** The channel closed: count it and forget it. */
  @Override
  public void operationComplete(ChannelFuture future) {
    server.closed(this);
    lock();
    try {
      closed = true;
    } finally {
      unlock();
    }
    releaseQueued();
    Strand.wake(reader);
    Strand.wake(writer);
  }

  /** Shutdown began: an idle connection's reader wakes up and ends. Any thread. */
  void wakeReader() {
    Strand.wake(reader);
  }

  // ------------------------------------------------------------------ strand side

  /**
   * Serves requests until the connection ends; the strand's body. May suspend.
   *
   * <p>One flat loop, and the strand runs this object itself: the wait for the next head parks
   * right here with {@link Fiber#park(Object)} on a fiber, so a keep-alive request costs one
   * woven frame to unwind and rewind.
   */
  @Override
  public void run() throws Suspendable {
    try {
      long idleDeadline = Strand.deadline(server.idleTimeoutNanos);
      boolean woken = false;
      for (;;) {
        Object m = pollHead();
        if (m != null) {
          if (m == END) {
            break;
          }
          Exchange ex = new Exchange(this, (HttpRequest) m);
          boolean keepAlive = ex.run();
          if (!keepAlive) {
            if (ex.lingerOnClose) {
              lingerClose();
            }
            break;
          }
          idleDeadline = Strand.deadline(server.idleTimeoutNanos);
          woken = false;
          continue;
        }
        long headStart = decoder.headStartNanos;
        if (headStart == 0 && server.shuttingDown) {
          break;
        }
        long deadline = headStart != 0 ? headStart + server.headerReadTimeoutNanos : idleDeadline;
        // A fresh idle deadline cannot have passed yet; after a wake-up (the sweeper's, or a
        // head that began) it may have.
        if (woken && deadline != Long.MAX_VALUE && System.nanoTime() - deadline >= 0) {
          if (decoder.headStartNanos != 0) {
            Exchange.sendTimeout(this);
          }
          break;
        }
        Object strand = Strand.current();
        publishReader(strand, deadline);
        try {
          if (isEmptyAndOpen()) {
            ctx.read(); // from this handler down: the tail and this handler have nothing to add
            if (strand instanceof Fiber) {
              Fiber.park(this);
            } else {
              Strand.park(this, Long.MAX_VALUE); // a thread: also turns an interrupt into a cancel
            }
          }
        } finally {
          publishReader(null, Long.MAX_VALUE);
        }
        woken = true;
      }
    } catch (Throwable t) {
      LOG.debug("connection {} ended: {}", channel.remoteAddress(), t.toString());
    } finally {
      close();
    }
  }

  /**
   * Takes the next request head off the queue, dropping what precedes it (the rest of a request
   * already answered: Netty ends every request, also a GET, with a {@link LastHttpContent}).
   *
   * @return the head (owned by the caller), {@link #END} once the input ended, the connection
   *     closed or failed with nothing left to serve, or null when the queue is empty
   */
  private Object pollHead() {
    for (;;) {
      Object m;
      lock();
      try {
        m = inbound.poll();
        if (m == null) {
          return closed || failure != null || inputEnded ? END : null;
        }
        if (m instanceof HttpRequest) {
          queuedHeads--;
          return m;
        }
      } finally {
        unlock();
      }
      ReferenceCountUtil.release(m); // content of a request already answered
    }
  }

  /**
   * Takes the next decoded message, parking at most once. The park has no timer of its own:
   * the server's sweeper wakes readers whose {@link #deadline} passed. May suspend.
   *
   * @param deadline a {@link System#nanoTime()} deadline, or {@link Long#MAX_VALUE} for none
   * @return the message (owned by the caller), null at end of input or once closed or failed,
   *     {@link #TIMEOUT} if the deadline passed, {@link #NOTHING} if woken without one
   */
  Object next(long deadline) throws Suspendable {
    lock();
    try {
      Object m = inbound.poll();
      if (m != null) {
        if (m instanceof HttpRequest) {
          queuedHeads--;
        }
        return m;
      }
      if (closed || failure != null || inputEnded) {
        return null;
      }
    } finally {
      unlock();
    }
    if (deadline != Long.MAX_VALUE && System.nanoTime() - deadline >= 0) {
      return TIMEOUT;
    }
    publishReader(Strand.current(), deadline);
    try {
      lock();
      try {
        if (!inbound.isEmpty() || closed || failure != null || inputEnded) {
          return NOTHING;
        }
      } finally {
        unlock();
      }
      channel.read();
      Strand.park(this, Long.MAX_VALUE);
      return NOTHING;
    } finally {
      publishReader(null, Long.MAX_VALUE);
    }
  }

  /*
   * Release stores, not volatile ones (no StoreLoad fence, two per park and two per wake-up on
   * x86): whoever must see the reader changes the queue or the flags under this monitor first,
   * and the reader re-checks them under it after publishing, so the monitor orders the two; the
   * sweeper only needs to see the values within a sweep or two.
   */
  private void publishReader(Object strand, long deadline) {
    DEADLINE.setRelease(this, deadline);
    READER.setRelease(this, strand);
  }

  /** Called by the sweeper: wakes the reader if its deadline passed (or a deferred wake-up is still due). Any thread. */
  void sweep(long now) {
    long d = deadline;
    if (d != Long.MAX_VALUE && now - d >= 0 || wakePending) {
      Strand.wake(reader);
    }
  }

  /** @return true if a further request head is decoded and waiting */
  boolean hasQueuedHead() {
    return queuedHeads > 0;
  }

  /** @return why the connection failed, or null */
  Throwable failure() {
    return failure;
  }

  /**
   * Writes {@code msg} toward the encoder with a void promise; failures arrive in
   * exceptionCaught. The pipeline owns {@code msg}, also when this throws.
   */
  void write(Object msg, boolean flush) throws IOException {
    Throwable fail = failure;
    boolean refused = closed;
    if (refused || fail != null) {
      ReferenceCountUtil.release(msg);
      throw fail != null ? new SocketException("Connection failed: " + fail + ": " + channel.remoteAddress())
          : new SocketException("Connection closed: " + channel.remoteAddress());
    }
    if (flush) {
      ctx.writeAndFlush(msg, ctx.voidPromise());
    } else {
      ctx.write(msg, ctx.voidPromise());
    }
  }

  /** Flushes what was written. */
  void flush() {
    ctx.flush();
  }

  /** Parks while the channel is above its high water mark. May suspend. */
  void awaitWritable() throws IOException, Suspendable {
    if (channel.isWritable()) {
      return;
    }
    long deadline = Strand.deadline(server.writeTimeoutNanos);
    writer = Strand.current();
    try {
      while (!channel.isWritable()) {
        lock();
        try {
          if (failure != null || closed || !channel.isActive()) {
            throw new SocketException("Connection closed while writing: " + channel.remoteAddress());
          }
        } finally {
          unlock();
        }
        if (!Strand.park(this, deadline)) {
          throw new SocketTimeoutException("Write timed out after "
              + TimeUnit.NANOSECONDS.toMillis(server.writeTimeoutNanos) + " ms: " + channel.remoteAddress()
              + " is not reading");
        }
      }
    } finally {
      writer = null;
    }
  }

  /*
   * After an error response the client may still be sending (a body we refused): closing at
   * once would reset the connection and could destroy the response before the client reads
   * it. So half-close, then read and discard for a short while.
   */
  private void lingerClose() throws Suspendable {
    if (!(channel instanceof DuplexChannel) || !channel.isActive()) {
      return;
    }
    ctx.flush();
    ((DuplexChannel) channel).shutdownOutput();
    long deadline = Strand.deadline(ServerCore.LINGER_NANOS);
    for (;;) {
      Object m = next(deadline);
      if (m == null || m == TIMEOUT) {
        return;
      }
      ReferenceCountUtil.release(m);
    }
  }

  /** Closes once what was written is flushed (at the latest after the write timeout). Idempotent. */
  void close() {
    lock();
    try {
      if (closed) {
        return;
      }
      closed = true;
    } finally {
      unlock();
    }
    releaseQueued();
    if (!channel.isActive()) {
      channel.close();
      return;
    }
    ChannelFuture f = channel.writeAndFlush(Unpooled.EMPTY_BUFFER);
    f.addListener(ChannelFutureListener.CLOSE);
    if (!f.isDone()) {
      channel.eventLoop().schedule(() -> {
        channel.close();
      }, server.writeTimeoutNanos, TimeUnit.NANOSECONDS);
    }
  }

  private void releaseQueued() {
    for (;;) {
      Object m;
      lock();
      try {
        m = inbound.poll();
        if (m == null) {
          queuedHeads = 0;
          return;
        }
      } finally {
        unlock();
      }
      ReferenceCountUtil.release(m);
    }
  }

  /* The lock of the guarded sections (close() may come from another thread): see SpinLocks. */
  private volatile int locked;
  private static final java.lang.invoke.VarHandle LOCKED =
      io.krill.fibers.SpinLocks.handle(java.lang.invoke.MethodHandles.lookup(), HttpConnection.class);

  private void lock() {
    io.krill.fibers.SpinLocks.lock(LOCKED, this);
  }

  private void unlock() {
    io.krill.fibers.SpinLocks.unlock(LOCKED, this);
  }
}
