package io.krill.httpd;

import io.krill.fibers.VarHandles;
import io.krill.fibers.Fiber;
import io.krill.fibers.Strand;
import io.krill.fibers.Suspendable;
import io.krill.fibers.SuspendableRunnable;
import io.krill.httpd.internal.http2.Http2Pipeline;
import io.krill.netio.spi.ConnectionHandler;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.socket.DuplexChannel;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.net.SocketException;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One HTTP connection: netio's {@link ConnectionHandler connection core} as the last handler of
 * the pipeline, queueing what the decoder produces for the connection's strand, and the strand's
 * loop that serves the requests one after another ({@link #run()}).
 */
final class HttpConnection extends ConnectionHandler
    implements ChannelFutureListener, SuspendableRunnable, Http2Pipeline.StreamHandler {
  /*
   * Implementation notes.
   *
   * The queue, the lock, the flags and the park/wake protocol are netio's connection core. What
   * is HTTP's own:
   *
   * Idle state: the strand is parked in run() with the idle deadline; the decoder holds no
   * buffer, and no timer exists: one sweeper task per server wakes readers past their deadline
   * (ServerCore.SWEEP_MILLIS), so a request costs no timer scheduling or cancelling. When part
   * of a head arrives (channelReadComplete with nothing decoded), the reader is woken so it
   * re-parks with the header-read deadline instead.
   *
   * A reader fiber is woken once per read, in channelReadComplete, with the whole read decoded
   * and queued (a GET is a head and an empty LastHttpContent), and it runs right there on the
   * loop instead of after a hop through the task queue.
   *
   * No strand while idle (fiber mode): a connection that has waited for a head for
   * ServerCore.IDLE_STRAND_DELAY, with no byte of one yet, ends its fiber (the sweeper asks it
   * to; it decides on the loop after its park, so no message can slip in between) and keeps only
   * its channel, decoder and this object: the fiber, its frame store and its registry entry (about
   * 300 bytes) are gone. A read request stays pending; the next channelReadComplete that brings a
   * head, its first bytes, the input's end or a failure (and the shutdown event) starts a fresh
   * fiber on the loop, which finds the queue as a woken one would. While strandless, the sweeper
   * enforces the idle timeout by closing the channel on its loop, and eviction at maxConnections
   * sees the same idle key as for a parked strand. Busy keep-alive connections, which come back
   * within the interval, keep their fiber and pay nothing for this.
   *
   * A fresh plain HTTP/1.1 connection (fiber mode, no TLS, no HTTP/2) starts strandless: the
   * accept path asks for the first read and sets the idle key, and the fiber starts when the
   * first head (or its first bytes, or the input's end) arrives, as for an idle connection. A
   * connection that never sends costs no fiber, and one that does saves the fiber's first park
   * (a frame capture and its arrays) and wake-up.
   *
   * Without TLS and HTTP/2, a strandless connection also gives up its codec: the decoder (with
   * Netty's parsers and scratch buffer) and the encoder leave the pipeline, about 570 bytes with
   * their contexts, once the decoder holds nothing (no byte of a head, nothing cumulated). The
   * next bytes then reach this handler raw: it puts a fresh decoder and encoder back in front of
   * itself and sends the bytes through the pipeline again, so the decoder sees them as if it had
   * never left.
   *
   * Cost per keep-alive request in fiber mode: one message through the pipeline (RequestDecoder
   * drops the end marker of a bodyless request), a few spin-lock sections, one woven frame (run)
   * unwound and rewound, no volatile store (release stores publish the reader and deadline).
   */
  private static final Logger LOG = LoggerFactory.getLogger(HttpConnection.class);

  /** next(): the deadline passed. */
  static final Object TIMEOUT = new Object();
  /** next(): woken without a message; re-check conditions. */
  static final Object NOTHING = new Object();

  final ServerCore server;
  /**
   * The HTTP/1.1 decoder; null on an HTTP/2 stream, whose request head arrives whole, and while
   * a strandless connection is without its codec. Written on the loop.
   */
  private volatile RequestDecoder decoder;
  /** Serves one HTTP/2 stream rather than an HTTP/1.1 connection. */
  private final boolean stream;
  /**
   * The HTTP/2 stream this serves, or null: its writes, reads and close go there, while
   * {@link #channel} is the stream's connection (for addresses, the allocator and the loop).
   */
  private final Http2Pipeline.Stream port;
  private ChannelHandlerContext ctx;
  /* Counted under the core's lock; volatile so the exchange's per-response checks need no lock. */
  private volatile int queuedHeads;
  /** The deadline of the reader's current wait, {@link Long#MAX_VALUE} while none. */
  private volatile long deadline = Long.MAX_VALUE;
  /**
   * A message arrived for a parked fiber reader whose wake-up waits for channelReadComplete
   * (loop thread; the sweeper also reads it, as a safety net should that event never come).
   */
  private volatile boolean wakePending;
  /**
   * While the strand waits for a head that has not begun (an idle keep-alive or fresh
   * connection): its idle deadline, which orders eviction at maxConnections oldest first; else 0.
   */
  private volatile long idleKey;
  /**
   * Fiber mode: no strand serves the connection while it idles (see the notes). Written on the
   * loop only; the sweeper reads it.
   */
  private volatile boolean strandless;
  /** The sweeper asks the idle strand to end; the strand decides on the loop. */
  private volatile boolean retire;

  private static final VarHandle DEADLINE =
      VarHandles.field(MethodHandles.lookup(), HttpConnection.class, "deadline", long.class);
  private static final VarHandle IDLE_KEY =
      VarHandles.field(MethodHandles.lookup(), HttpConnection.class, "idleKey", long.class);

  /**
   * @param channel the connection
   * @param decoder the connection's HTTP/1.1 decoder
   */
  HttpConnection(ServerCore server, Channel channel, RequestDecoder decoder) {
    super(channel);
    this.server = server;
    this.decoder = decoder;
    this.stream = false;
    this.port = null;
  }

  /** @param port an HTTP/2 stream of a connection */
  HttpConnection(ServerCore server, Http2Pipeline.Stream port) {
    super(port.connection());
    this.server = server;
    this.decoder = null;
    this.stream = true;
    this.port = port;
  }

  // ------------------------------------------------------------------ an HTTP/2 stream's handler (loop side)

  @Override
  public void receive(Object msg) {
    super.channelRead(null, msg);
  }

  @Override
  public void receiveComplete() {
    channelReadComplete(null);
  }

  @Override
  public void start() {
    server.startStrand(this, channel);
  }

  @Override
  public void ended(String cause) {
    failed(new SocketException("HTTP/2 stream " + cause + ": " + channel.remoteAddress()));
    closeQueue();
  }

  /* Asks for more input: the connection's next read, or an HTTP/2 stream's window back. */
  private void readMore(ChannelHandlerContext ctx) {
    if (port != null) {
      port.read();
    } else {
      ctx.read();
    }
  }

  /**
   * @return the server's counts of the thread that made the decoder (the channel's loop), or null
   *     on an HTTP/2 stream and while the codec is out: counting then goes to the shared adders
   */
  HttpServerStats.Cell statsCell() {
    RequestDecoder d = decoder;
    return d == null ? null : d.cell;
  }

  /** @return true if this serves one HTTP/2 stream rather than an HTTP/1.1 connection */
  boolean http2() {
    return stream;
  }

  /* When the current head's first byte came (0: none is coming in pieces; always so on a stream). */
  private long headStart() {
    RequestDecoder d = decoder;
    return d == null ? 0 : d.headStartNanos;
  }

  /**
   * The connection was upgraded to HTTP/2 and this handler taken out: ends the strand without
   * closing the channel. Any thread.
   */
  void detach() {
    closeQueue();
  }

  @Override
  public String peer() {
    return String.valueOf(channel.remoteAddress());
  }

  // ------------------------------------------------------------------ loop side

  @Override
  public void handlerAdded(ChannelHandlerContext ctx) {
    this.ctx = ctx;
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    if (decoder == null && !stream && msg instanceof ByteBuf) {
      restoreCodec(ctx, (ByteBuf) msg);
      return;
    }
    super.channelRead(ctx, msg);
  }

  /*
   * On the loop: the first bytes after the codec was taken out. A fresh decoder and encoder go
   * back in front of this handler, and the bytes go through the pipeline from its head (no TLS
   * handler when the codec is ever taken out), so they come back here decoded.
   */
  private void restoreCodec(ChannelHandlerContext ctx, ByteBuf bytes) {
    ChannelPipeline p = ctx.pipeline();
    RequestDecoder d = server.newDecoder();
    p.addBefore(ctx.name(), ServerCore.DECODER, d);
    p.addBefore(ctx.name(), ServerCore.ENCODER, server.newEncoder());
    decoder = d;
    p.fireChannelRead(bytes);
  }

  /* On the loop, as the strand ends: takes the codec out while the decoder holds nothing. */
  private void dropCodec() {
    RequestDecoder d = decoder;
    if (!server.dropIdleCodec || d == null || !d.holdsNothing()) {
      return;
    }
    ChannelPipeline p = channel.pipeline();
    p.remove(d);
    p.remove(ServerCore.ENCODER);
    decoder = null;
  }

  @Override
  protected void queued(Object msg) {
    if (msg instanceof HttpRequest) {
      queuedHeads++;
    }
  }

  @Override
  protected void dequeued(Object msg) {
    if (msg instanceof HttpRequest) {
      queuedHeads--;
    }
  }

  @Override
  protected void readable(Object reader) {
    if (reader instanceof Fiber) {
      wakePending = true; // woken in channelReadComplete, once the whole read is decoded
    } else {
      Strand.wake(reader);
    }
  }

  @Override
  public void channelReadComplete(ChannelHandlerContext ctx) {
    if (strandless) {
      if (headStart() != 0 || !isEmptyAndOpen()) {
        startStrand(); // a head, its first bytes, the input's end or a failure: a strand decides
      } else {
        readMore(ctx); // nothing for a strand yet (empty lines between requests): read on
      }
      return;
    }
    if (wakePending) {
      wakePending = false;
      // The fiber parked on this loop runs here and now, with the whole read queued; no lock is held.
      Strand.wakeHere(reader());
      return;
    }
    Object r = reader();
    if (r != null && isEmptyAndOpen()) {
      readMore(ctx); // a read that decoded nothing (part of a head or chunk): read on
      if (headStart() != 0) {
        Strand.wake(r); // a head has begun: the reader switches to the header-read deadline
      }
    }
  }

  @Override
  public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
    super.userEventTriggered(ctx, evt);
    if (strandless) {
      startStrand(); // the input ended, or the server shuts down: the strand closes the connection
    }
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    super.exceptionCaught(ctx, cause);
    if (strandless) {
      startStrand();
    }
  }

  /**
   * On the loop, as the connection is accepted: it waits for its first bytes with no strand, under
   * the idle timeout (the sweeper closes it then) and as an idle one for eviction.
   */
  void awaitFirstBytes() {
    strandless = true;
    IDLE_KEY.setRelease(this, Strand.deadline(server.idleTimeoutNanos));
    channel.read();
  }

  /* On the loop: a strandless connection gets a fresh strand for what arrived. */
  private void startStrand() {
    if (strandless) {
      strandless = false;
      IDLE_KEY.setRelease(this, 0L);
      server.startStrand(this, channel);
    }
  }

  /* On the loop: the idle timeout of a strandless connection, unless a head began meanwhile. */
  private void closeIfStrandlessExpired() {
    long key = idleKey;
    if (strandless && key != 0 && System.nanoTime() - key >= 0 && headStart() == 0 && !hasQueued()) {
      channel.close();
    }
  }

  /** The channel closed: count it and forget it. */
  @Override
  public void operationComplete(ChannelFuture future) {
    server.closed(this);
    closeQueue();
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
    boolean retired = false;
    try {
      long idleDeadline = Strand.deadline(server.idleTimeoutNanos);
      boolean woken = false;
      boolean served = false;
      for (;;) {
        // Right after a response the queue is usually empty (a client that waits for each
        // answer): awaitHead's locked check then stands for the poll, one lock section less per
        // request. A pipelined head already counted is polled at once; whatever else the check
        // finds (the rest of a body, the input's end) the next turn polls.
        boolean polled = !served || hasQueuedHead();
        Object m = polled ? pollHead() : null;
        served = false;
        if (m != null) {
          if (m == END) {
            break;
          }
          retire = false;
          Exchange ex = new Exchange(this, (HttpRequest) m);
          boolean keepAlive = ex.run() && !stream; // a stream carries one request
          if (!keepAlive) {
            if (ex.lingerOnClose) {
              lingerClose();
            }
            break;
          }
          idleDeadline = Strand.deadline(server.idleTimeoutNanos);
          woken = false;
          served = true;
          continue;
        }
        long headStart = headStart();
        if (headStart == 0 && server.shuttingDown) {
          if (!polled) {
            continue; // poll before ending: a pipelined head may be queued
          }
          break;
        }
        long deadline = headStart != 0 ? headStart + server.headerReadTimeoutNanos : idleDeadline;
        // A fresh idle deadline cannot have passed yet; after a wake-up (the sweeper's, or a
        // head that began) it may have.
        if (woken && deadline != Long.MAX_VALUE && System.nanoTime() - deadline >= 0) {
          if (headStart() != 0) {
            Exchange.sendTimeout(this);
          }
          break;
        }
        if (awaitHead(deadline)) {
          retired = true; // idle with no strand until something arrives; the channel stays open
          return;
        }
        woken = true;
      }
    } catch (Throwable t) {
      if (t instanceof RuntimeException && !(t instanceof io.krill.fibers.FiberCancelledException)
          && !(t instanceof java.io.UncheckedIOException) || t instanceof Error) {
        // not a peer's doing (a reset, a timeout) nor a shutdown's: a defect, which must not end connections silently
        LOG.warn("connection {} ended by an unexpected failure", channel.remoteAddress(), t);
      } else {
        LOG.debug("connection {} ended: {}", channel.remoteAddress(), t.toString());
      }
    } finally {
      if (!retired) {
        close();
      }
    }
  }

  /*
   * Parks once until something is queued, the connection ends or the sweeper finds the deadline
   * passed. @return true if the strand is to end and leave the idle connection strandless
   */
  private boolean awaitHead(long deadline) throws Suspendable {
    Object strand = Strand.current();
    publish(strand, deadline);
    // Only an HTTP/1.1 connection waits idle for a head; a stream's head arrives whole, and
    // eviction at maxConnections closes connections, never a stream of one.
    boolean idle = !stream && headStart() == 0;
    if (idle) {
      IDLE_KEY.setRelease(this, deadline); // a release store, as publish's: read only when evicting
    }
    boolean retired = false;
    try {
      if (isEmptyAndOpen()) {
        readMore(ctx); // from this handler down: the tail and this handler have nothing to add
        if (strand instanceof Fiber) {
          Fiber.park(this);
          retired = idle && retire && retireNow();
        } else {
          Strand.park(this, Long.MAX_VALUE); // a thread: also turns an interrupt into a cancel
        }
      }
    } finally {
      if (!retired) {
        IDLE_KEY.setRelease(this, 0L); // a strandless connection keeps it: eviction and the idle timeout read it
      }
      publish(null, Long.MAX_VALUE);
    }
    return retired;
  }

  /*
   * In the strand, after a park the sweeper ended: on the channel's loop, channelRead cannot run
   * between these checks and the strand's end, so nothing arrives unseen.
   */
  private boolean retireNow() {
    retire = false;
    if (headStart() != 0 || server.shuttingDown || !channel.eventLoop().inEventLoop()
        || !isEmptyAndOpen()) {
      return false;
    }
    strandless = true;
    dropCodec();
    return true;
  }

  /** @return the idle deadline while waiting for a head that has not begun, else 0. Any thread. */
  long idleKey() {
    return idleKey;
  }

  /**
   * Closes the connection if it is still idle: waiting for a head, none begun, nothing queued.
   * A request that arrives in the same instant is lost with the connection, as with any close of
   * an idle keep-alive connection (clients retry those). Any thread.
   *
   * @return true if it was idle and is now closing
   */
  boolean closeIfIdle() {
    if (idleKey == 0 || headStart() != 0 || hasQueued()) {
      return false;
    }
    channel.close();
    return true;
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
      Object m = pollOrEnd();
      if (m == null || m == END || m instanceof HttpRequest) {
        return m;
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
    Object m = pollOrEnd();
    if (m != null) {
      return m == END ? null : m;
    }
    if (deadline != Long.MAX_VALUE && System.nanoTime() - deadline >= 0) {
      return TIMEOUT;
    }
    DEADLINE.setRelease(this, deadline);
    try {
      m = pollOrPublish(Strand.current());
      if (m != null) {
        return m == END ? null : m;
      }
      if (port != null) {
        port.read();
      } else {
        channel.read();
      }
      Strand.park(this, Long.MAX_VALUE);
      return NOTHING;
    } finally {
      publish(null, Long.MAX_VALUE);
    }
  }

  /*
   * Release stores, not volatile ones (no StoreLoad fence, two per park and two per wake-up on
   * x86): whoever must see the reader changes the queue or the flags under the core's lock
   * first, and the reader re-checks them under it after publishing, so the lock orders the two;
   * the sweeper only needs to see the values within a sweep or two.
   */
  private void publish(Object strand, long deadline) {
    DEADLINE.setRelease(this, deadline);
    publishReader(strand);
  }

  /** Called by the sweeper: wakes the reader if its deadline passed (or a deferred wake-up is still due). Any thread. */
  @Override
  public void sweep(long now) {
    long key = idleKey;
    if (strandless) {
      if (key != 0 && now - key >= 0) {
        channel.eventLoop().execute(this::closeIfStrandlessExpired);
      }
      return;
    }
    long d = deadline;
    if (d != Long.MAX_VALUE && now - d >= 0 || wakePending) {
      wakeReader();
    } else if (server.idleWithoutStrand && key != 0 && !retire
        && now - (key - server.idleTimeoutNanos) >= server.idleStrandNanos) {
      retire = true; // idle long enough: the strand ends itself once woken (retireNow)
      wakeReader();
    }
  }

  /** @return true while no strand serves the idle connection (fiber mode) */
  boolean strandless() {
    return strandless;
  }

  /** @return true if a further request head is decoded and waiting */
  boolean hasQueuedHead() {
    return queuedHeads > 0;
  }

  /**
   * Writes {@code msg} toward the encoder with a void promise; failures arrive in
   * exceptionCaught. The pipeline owns {@code msg}, also when this throws.
   */
  void write(Object msg, boolean flush) throws IOException {
    Throwable fail = failure();
    if (fail != null || isClosed()) {
      ReferenceCountUtil.release(msg);
      throw fail != null ? new SocketException("Connection failed: " + fail + ": " + channel.remoteAddress())
          : new SocketException("Connection closed: " + channel.remoteAddress());
    }
    if (port != null) {
      port.write(msg, flush);
    } else if (flush) {
      ctx.writeAndFlush(msg, ctx.voidPromise());
    } else {
      ctx.write(msg, ctx.voidPromise());
    }
  }

  /** Flushes what was written. */
  void flush() {
    if (port != null) {
      port.flush();
    } else {
      ctx.flush();
    }
  }

  /** Parks while the channel (an HTTP/2 stream: its window) is above its high water mark. May suspend. */
  void awaitWritable() throws IOException, Suspendable {
    if (port != null) {
      port.awaitWritable(server.writeTimeoutNanos);
    } else {
      awaitWritable(server.writeTimeoutNanos);
    }
  }

  @Override
  protected IOException writeRefused(Throwable failure) {
    return new SocketException("Connection closed while writing: " + channel.remoteAddress());
  }

  /*
   * After an error response the client may still be sending (a body we refused): closing at
   * once would reset the connection and could destroy the response before the client reads
   * it. So half-close, then read and discard for a short while.
   */
  private void lingerClose() throws Suspendable {
    if (stream || !(channel instanceof DuplexChannel) || !channel.isActive()) {
      return; // a stream: the connection goes on; its close resets a client still sending
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
    if (!closeQueue()) {
      return;
    }
    if (port != null) {
      // A stream: the response ended it; the frame codec still sends what flow control holds back.
      port.close();
      return;
    }
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
}
