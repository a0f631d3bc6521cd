package io.krill.httpd.internal.http2;

import io.krill.fibers.Suspendable;
import io.krill.httpd.http2.Http2Options;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.Channel;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.ChannelPromise;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.EmptyHttpHeaders;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpServerUpgradeHandler;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http2.Http2CodecUtil;
import io.netty.handler.codec.http2.Http2ConnectionAdapter;
import io.netty.handler.codec.http2.Http2FrameCodec;
import io.netty.handler.codec.http2.Http2FrameCodecBuilder;
import io.netty.handler.codec.http2.Http2ServerUpgradeCodec;
import io.netty.handler.codec.http2.Http2Settings;
import io.netty.handler.codec.http2.Http2Stream;
import io.netty.handler.codec.http2.Http2SettingsFrame;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.handler.timeout.IdleStateHandler;
import io.netty.util.AsciiString;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.ScheduledFuture;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sets up a new connection of a server with HTTP/2 on: decides between HTTP/1.1 and HTTP/2
 * (ALPN with TLS; the client preface or {@code Upgrade: h2c} without), then installs Netty's
 * frame codec with the {@link Http2Options}' limits and the connection's {@link StreamTable},
 * which hands every stream the client opens to the {@link Host}. Runs on the connection's event
 * loop.
 */
public final class Http2Pipeline {
  /*
   * Implementation notes.
   *
   * The server keeps its own HTTP/1.1 pipeline and strand per connection (Host.http1); this
   * class only decides when to build it and what comes instead. Each stream is a ServerStream in
   * the connection's StreamTable (no child channel), so the server's exchange sees the
   * HttpRequest / HttpContent / LastHttpContent it sees on HTTP/1.1 (made straight from the
   * frames by StreamCodec, without Netty's HTTP/1 conversion) and writes the same response
   * objects; a stream's bytes return to the client's window only as its strand reads them, so an
   * unread request body holds back WINDOW_UPDATE and the client stops at the stream's window.
   * The connection channel itself reads freely once it speaks HTTP/2: what a client may send is
   * bounded by the windows, the concurrent-stream limit and Netty's control-frame limits.
   *
   * Idle: a connection with no open stream for the idle timeout is closed with GOAWAY
   * (Netty's graceful close); one with streams in flight is left to the streams' own timeouts.
   * The handshake timer runs from accept until the client's first SETTINGS frame (HTTP/2) or
   * until HTTP/1.1 is chosen (its header-read timeout takes over).
   */
  private static final Logger LOG = LoggerFactory.getLogger(Http2Pipeline.class);
  private static final String H2 = "h2";
  private static final String HTTP_1_1 = "http/1.1";
  /*
   * The write buffer of a connection that speaks HTTP/2. The frame codec's flow controller hands
   * the socket only as many DATA bytes as the channel is writable for, then waits for it to
   * drain: with HTTP/1.1's 64 KiB that is four 16 KiB frames per pass, a socket write and a
   * writability event each, for every 64 KiB of a large body. The bytes it holds are slices of
   * bodies the streams already wrote (flow control keeps them queued either way), so a larger
   * mark costs no memory of its own; each stream's window still bounds what a stream writes.
   */
  static final WriteBufferWaterMark WRITE_BUFFER = new WriteBufferWaterMark(256 * 1024, 512 * 1024);

  private Http2Pipeline() {}

  /**
   * What the server provides: its HTTP/1.1 pipeline and strands, and its bookkeeping. Called
   * on the connection's event loop.
   */
  public interface Host {
    /**
     * Adds the HTTP/1.1 handlers at the end of {@code ch}'s pipeline and starts its strand.
     *
     * @param ch the connection
     * @param upgrade a handler to place between the response encoder and the connection
     *     handler (the {@code Upgrade: h2c} handler), or null
     */
    void http1(Channel ch, ChannelHandler upgrade);

    /**
     * Takes {@code ch}'s HTTP/1.1 handlers out (it is upgraded to HTTP/2) and ends their strand
     * without closing {@code ch}.
     *
     * @param ch the connection
     */
    void leaveHttp1(Channel ch);

    /**
     * Makes the handler of a stream the client opened; it gets the request head before its
     * strand starts ({@link StreamHandler#start()}).
     *
     * @param stream what the handler's strand writes to
     * @return the stream's handler
     */
    StreamHandler stream(Stream stream);

    /**
     * {@code ch} speaks HTTP/2 from now on; the server tracks it for shutdown, counting and
     * eviction at its connection limit.
     *
     * @param ch the connection
     * @param idle the connection's idle state, for eviction
     */
    void http2(Channel ch, Idle idle);

    /** @param bytes bytes read from an HTTP/2 connection (after TLS) */
    void bytesIn(long bytes);

    /** @param bytes bytes written to an HTTP/2 connection (before TLS) */
    void bytesOut(long bytes);
  }

  /**
   * One stream as its strand sees it: where the response goes and where the request body's
   * window is returned. The strand may run on any thread: off the connection's event loop,
   * writes hop onto it in order.
   */
  public interface Stream {
    /** @return the connection the stream belongs to */
    Channel connection();

    /**
     * Writes a response object ({@code HttpResponse}, {@code HttpContent}, {@code
     * LastHttpContent} or a {@code ByteBuf} of body) as frames of this stream; the stream owns
     * it from here. A write to a stream that is gone is dropped (the strand learns of the reset
     * from its handler being ended). Any thread.
     *
     * @param flush whether to flush the connection soon (once for all streams that ask now)
     */
    void write(Object msg, boolean flush);

    /** Flushes the connection soon (once for all streams that ask now). Any thread. */
    void flush();

    /**
     * The strand read all it was given and wants more: what it read goes back to the client's
     * window (WINDOW_UPDATE), so an unread request body holds the client back. Any thread.
     */
    void read();

    /**
     * Parks while the stream's flow-control window (or the connection's) is full. May suspend.
     *
     * @param timeoutNanos the longest wait, 0 for none
     * @throws java.net.SocketTimeoutException if the window did not open in time
     * @throws java.io.IOException if the stream was reset or the connection closed
     * @throws Suspendable never; marks that this method suspends
     */
    void awaitWritable(long timeoutNanos) throws java.io.IOException, Suspendable;

    /**
     * The strand is done with the stream: what it wrote still goes out as flow control allows;
     * a client still sending is told to stop (RST_STREAM {@code CANCEL}). Any thread; idempotent.
     */
    void close();
  }

  /**
   * What serves a stream: the server's connection handler, fed on the connection's event loop.
   */
  public interface StreamHandler {
    /**
     * Queues a request head, a body piece or the body's end for the strand (which owns it from
     * here). Loop thread.
     *
     * @param msg an {@code HttpRequest}, {@code HttpContent} or {@code LastHttpContent}
     */
    void receive(Object msg);

    /** The connection's read ended: a strand woken by it runs now. Loop thread. */
    void receiveComplete();

    /** Starts the stream's strand. Loop thread. */
    void start();

    /**
     * The stream was reset or failed, or the connection is gone: queued messages are released,
     * the strand's reads end and its writes fail. Loop thread; idempotent.
     *
     * @param cause what ended it, for the strand's exception
     */
    void ended(String cause);

    /**
     * Wakes the strand if its read deadline passed. Any thread.
     *
     * @param now {@link System#nanoTime()}
     */
    void sweep(long now);
  }

  /**
   * An HTTP/2 connection as the server's eviction at its connection limit sees it: idle while no
   * stream is open. Any thread.
   */
  public interface Idle {
    /**
     * @return while no stream is open, the {@link System#nanoTime()} at which the idle timeout
     *     would close the connection (so the smallest key waited longest, as for HTTP/1.1); 0
     *     while a stream is open
     */
    long idleKey();

    /**
     * Closes the connection gracefully (GOAWAY {@code NO_ERROR}; a stream opened in the same
     * instant still finishes) if no stream is open.
     *
     * @return true if it was idle and is now closing
     */
    boolean closeIfIdle();

    /**
     * Wakes the strands of open streams whose read deadline passed (on the connection's loop).
     * Any thread.
     *
     * @param now {@link System#nanoTime()}
     */
    void sweep(long now);
  }

  /**
   * Prepares {@code ch} (whose pipeline holds the TLS handler, if any) to choose its protocol.
   *
   * @param ch a connection just accepted, not yet reading
   * @param options the HTTP/2 options
   * @param tls the connection's TLS handler, or null
   * @param idleTimeoutNanos how long an HTTP/2 connection without streams stays open
   * @param host the server
   */
  public static void install(Channel ch, Http2Options options, SslHandler tls, long idleTimeoutNanos, Host host) {
    Connection c = new Connection(ch, options, idleTimeoutNanos, host);
    c.handshakeTimer = ch.eventLoop().schedule(c::handshakeTimedOut, options.handshakeTimeout().toNanos(),
        TimeUnit.NANOSECONDS);
    ch.closeFuture().addListener(f -> c.handshakeDone());
    if (tls != null) {
      offerH2(tls.engine());
      ch.pipeline().addLast("alpn", new AlpnHandler(c));
    } else if (options.cleartext()) {
      ch.pipeline().addLast("h2c-preface", new PrefaceSniffer(c));
    } else {
      c.handshakeDone();
      host.http1(ch, null);
      return;
    }
    ch.read(); // the TLS handshake or the first bytes
  }

  /* ALPN, server's preference first: h2, then http/1.1 (the JDK's engine picks by the server's order). */
  private static void offerH2(SSLEngine engine) {
    SSLParameters p = engine.getSSLParameters();
    p.setApplicationProtocols(new String[] {H2, HTTP_1_1});
    engine.setSSLParameters(p);
  }

  /**
   * Closes an HTTP/2 connection gracefully: GOAWAY now, streams in flight finish, then the
   * connection closes (at the latest after {@code graceMillis}). Any thread.
   *
   * @param ch an HTTP/2 connection
   * @param graceMillis how long streams in flight may take
   */
  public static void shutdown(Channel ch, long graceMillis) {
    ch.eventLoop().execute(() -> {
      Http2FrameCodec codec = ch.pipeline().get(Http2FrameCodec.class);
      if (codec != null) {
        codec.gracefulShutdownTimeoutMillis(graceMillis);
      }
      ch.close();
    });
  }

  /** One connection's protocol choice and its HTTP/2 handlers. Loop thread only, but for {@link Idle}. */
  private static final class Connection extends Http2ConnectionAdapter implements Idle {
    final Channel ch;
    final Http2Options options;
    final long idleTimeoutNanos;
    final Host host;
    ScheduledFuture<?> handshakeTimer;
    Http2FrameCodec codec;
    /* Set on the loop before the connection speaks HTTP/2; read by the sweeper. */
    volatile StreamTable streams;
    /* Written on the loop by the codec's stream events, read by eviction on the accepting loop. */
    private volatile long idleKey;

    Connection(Channel ch, Http2Options options, long idleTimeoutNanos, Host host) {
      this.ch = ch;
      this.options = options;
      this.idleTimeoutNanos = idleTimeoutNanos;
      this.host = host;
    }

    @Override
    public long idleKey() {
      return idleKey;
    }

    @Override
    public boolean closeIfIdle() {
      if (idleKey == 0) {
        return false;
      }
      ch.close(); // the frame codec's graceful close: GOAWAY, then close once no stream is open
      return true;
    }

    @Override
    public void onStreamActive(Http2Stream stream) {
      idleKey = 0;
    }

    @Override
    public void onStreamClosed(Http2Stream stream) {
      if (codec.connection().numActiveStreams() == 0) {
        becameIdle();
      }
    }

    private void becameIdle() {
      long key = System.nanoTime() + idleTimeoutNanos;
      idleKey = key == 0 ? 1 : key;
    }

    void handshakeDone() {
      ScheduledFuture<?> t = handshakeTimer;
      if (t != null) {
        handshakeTimer = null;
        t.cancel(false);
      }
    }

    void handshakeTimedOut() {
      if (handshakeTimer != null) {
        handshakeTimer = null;
        LOG.debug("{}: no protocol within {} ms (handshakeTimeout); closing", ch.remoteAddress(),
            options.handshakeTimeout().toMillis());
        ch.close();
      }
    }

    /* HTTP/1.1 from here: its own header-read and idle timeouts take over from the handshake timer. */
    void http1(ChannelHandler upgrade) {
      handshakeDone();
      host.http1(ch, upgrade);
    }

    /* The frame codec with the options' limits, built per connection (it holds the connection's state). */
    Http2FrameCodec newCodec() {
      Http2Settings settings = Http2Settings.defaultSettings()
          .maxConcurrentStreams(options.maxConcurrentStreams())
          .maxHeaderListSize(options.maxHeaderListBytes())
          .maxFrameSize(options.maxFrameBytes())
          .initialWindowSize(options.initialWindowBytes());
      int seconds = (int) options.resetWindow().getSeconds();
      codec = Http2FrameCodecBuilder.forServer()
          .initialSettings(settings)
          .decoderEnforceMaxRstFramesPerWindow(options.maxResetsPerWindow(), seconds)
          .encoderEnforceMaxRstFramesPerWindow(options.maxResetsPerWindow(), seconds)
          .build();
      // Netty applies the stream limit once the client acknowledges our SETTINGS; a client that
      // never does must not get unbounded streams (and strands) meanwhile.
      codec.connection().remote().maxActiveStreams(options.maxConcurrentStreams());
      codec.connection().addListener(this);
      becameIdle(); // no stream yet (an upgrade's stream 1 follows at once)
      return codec;
    }

    StreamTable newStreams() {
      streams = new StreamTable(host, codec);
      return streams;
    }

    @Override
    public void sweep(long now) {
      StreamTable s = streams;
      if (idleKey == 0 && s != null) {
        ch.eventLoop().execute(() -> s.sweep(now)); // streams are open: their table lives on the loop
      }
    }

    /* Installs HTTP/2 at the end of the pipeline, the client preface not yet read. */
    void http2() {
      ChannelPipeline p = ch.pipeline();
      host.http2(ch, this);
      p.addLast("h2-bytes", new ByteCounter(host));
      p.addLast("h2-continuation", new ContinuationGuard(options.maxContinuationFrames()));
      p.addLast("h2-codec", newCodec());
      p.addLast("h2-streams", newStreams());
      addWatch(p);
      ch.config().setWriteBufferWaterMark(WRITE_BUFFER);
      ch.config().setAutoRead(true);
    }

    /*
     * Upgrade: h2c, called by Netty's upgrade handler after it wrote 101 and before its codec adds
     * the frame codec and stream table right after that handler: put the byte counter and the guard
     * in front of them, the idle watch behind, and retire the HTTP/1.1 handlers.
     */
    void upgraded(ChannelHandlerContext upgradeCtx) {
      ChannelPipeline p = ch.pipeline();
      p.addBefore(upgradeCtx.name(), "h2-bytes", new ByteCounter(host));
      p.addBefore(upgradeCtx.name(), "h2-continuation", new ContinuationGuard(options.maxContinuationFrames()));
      addWatch(p);
      host.leaveHttp1(ch);
      host.http2(ch, this);
      ch.config().setWriteBufferWaterMark(WRITE_BUFFER);
      ch.config().setAutoRead(true);
    }

    private void addWatch(ChannelPipeline p) {
      long idleMillis = Math.max(1, TimeUnit.NANOSECONDS.toMillis(idleTimeoutNanos));
      p.addLast("h2-idle", new IdleStateHandler(0, 0, idleMillis, TimeUnit.MILLISECONDS));
      p.addLast("h2-watch", new Watch(this));
    }
  }

  /*
   * TLS: waits for the handshake and reads the protocol ALPN chose. Data decrypted in the same
   * read as the handshake's end may come before the event: it is held and passed on once the
   * protocol's handlers are in place.
   */
  private static final class AlpnHandler extends ChannelInboundHandlerAdapter {
    private final Connection c;
    private List<Object> held;

    AlpnHandler(Connection c) {
      this.c = c;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      if (held == null) {
        held = new ArrayList<>(2);
      }
      held.add(msg);
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
      if (!(evt instanceof SslHandshakeCompletionEvent)) {
        ctx.fireUserEventTriggered(evt);
        return;
      }
      SslHandshakeCompletionEvent e = (SslHandshakeCompletionEvent) evt;
      if (!e.isSuccess()) {
        LOG.debug("{}: TLS handshake failed: {}", ctx.channel().remoteAddress(), e.cause().toString());
        ctx.close();
        return;
      }
      String protocol = ctx.pipeline().get(SslHandler.class).engine().getApplicationProtocol();
      if (H2.equals(protocol)) {
        c.http2();
      } else {
        c.http1(null);
      }
      ctx.pipeline().remove(this);
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
      List<Object> h = held;
      held = null;
      if (h != null) {
        for (Object m : h) {
          ctx.fireChannelRead(m);
        }
        ctx.fireChannelReadComplete();
      }
    }
  }

  /* h2c: the client preface chooses HTTP/2 with prior knowledge; anything else is HTTP/1.1, which may upgrade. */
  private static final class PrefaceSniffer extends ByteToMessageDecoder {
    private static final ByteBuf PREFACE = Http2CodecUtil.connectionPrefaceBuf();
    private final Connection c;

    PrefaceSniffer(Connection c) {
      this.c = c;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
      int n = Math.min(in.readableBytes(), PREFACE.readableBytes());
      // The next handlers go in first: once removed, this hands what it read to its successor then.
      if (!ByteBufUtil.equals(PREFACE, PREFACE.readerIndex(), in, in.readerIndex(), n)) {
        c.http1(new H2cUpgradeHandler(c::upgraded, this::upgradeCodec));
        ctx.pipeline().remove(this); // to the HTTP/1.1 decoder
      } else if (n == PREFACE.readableBytes()) {
        c.http2();
        ctx.pipeline().remove(this); // to the frame codec, which reads the preface itself
      }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) throws Exception {
      super.channelReadComplete(ctx);
      if (ctx.channel().isActive() && ctx.pipeline().context(this) != null) {
        ctx.read(); // part of the preface: read on
      }
    }

    private HttpServerUpgradeHandler.UpgradeCodec upgradeCodec(CharSequence protocol) {
      if (!AsciiString.contentEquals(Http2CodecUtil.HTTP_UPGRADE_PROTOCOL_NAME, protocol)) {
        return null;
      }
      return new Http2ServerUpgradeCodec(c.newCodec(), c.newStreams());
    }
  }

  /*
   * Netty's upgrade handler, for h2c only. It answers a whole request (it aggregates one with a
   * body), but the server's decoder passes a request without body as its head alone (it drops
   * the empty end marker): such a head is completed here. Other requests pass through untouched.
   */
  private static final class H2cUpgradeHandler extends HttpServerUpgradeHandler {
    /** The largest body of an upgrade request (it is answered on stream 1 once upgraded). */
    private static final int MAX_UPGRADE_BODY_BYTES = 65536;

    H2cUpgradeHandler(SourceCodec source, UpgradeCodecFactory factory) {
      super(source, factory, MAX_UPGRADE_BODY_BYTES);
    }

    @Override
    protected boolean shouldHandleUpgradeRequest(HttpRequest req) {
      return req.headers().containsValue(HttpHeaderNames.UPGRADE, Http2CodecUtil.HTTP_UPGRADE_PROTOCOL_NAME, true);
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, HttpObject msg, List<Object> out) throws Exception {
      if (msg instanceof HttpRequest && !(msg instanceof FullHttpRequest) && shouldHandleUpgradeRequest((HttpRequest) msg)
          && !HttpUtil.isTransferEncodingChunked((HttpMessage) msg) && HttpUtil.getContentLength((HttpMessage) msg, 0L) == 0) {
        HttpRequest r = (HttpRequest) msg;
        msg = new DefaultFullHttpRequest(r.protocolVersion(), r.method(), r.uri(), Unpooled.EMPTY_BUFFER, r.headers(),
            EmptyHttpHeaders.INSTANCE);
        ((DefaultFullHttpRequest) msg).setDecoderResult(r.decoderResult());
      }
      super.decode(ctx, msg, out);
    }
  }

  /* Counts the connection's bytes into the server's counters. */
  private static final class ByteCounter extends ChannelDuplexHandler {
    private final Host host;

    ByteCounter(Host host) {
      this.host = host;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      if (msg instanceof ByteBuf) {
        host.bytesIn(((ByteBuf) msg).readableBytes());
      }
      ctx.fireChannelRead(msg);
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
      if (msg instanceof ByteBuf) {
        host.bytesOut(((ByteBuf) msg).readableBytes());
      }
      ctx.write(msg, promise);
    }
  }

  /* After the stream table: the first SETTINGS ends the handshake; idle connections without streams close. */
  private static final class Watch extends ChannelInboundHandlerAdapter {
    private final Connection c;

    Watch(Connection c) {
      this.c = c;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      if (msg instanceof Http2SettingsFrame) {
        c.handshakeDone();
      }
      ReferenceCountUtil.release(msg); // connection-level frames: the codec acted on them already
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
      if (evt instanceof IdleStateEvent) {
        if (c.codec.connection().numActiveStreams() == 0) {
          LOG.debug("{}: idle HTTP/2 connection; GOAWAY and close", ctx.channel().remoteAddress());
          ctx.close();
        }
        return;
      }
      ReferenceCountUtil.release(evt);
    }

    /*
     * The frame codec passes connection errors on before it answers them (GOAWAY with the error's
     * code, close), and the socket's I/O errors come this way too: both are the peer's doing.
     * Anything else is a failure of the server's own handlers, which must not pass unseen.
     */
    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      if (Http2CodecUtil.getEmbeddedHttp2Exception(cause) != null || cause instanceof java.io.IOException) {
        LOG.debug("{}: HTTP/2 connection failed: {}", ctx.channel().remoteAddress(), cause.toString());
      } else {
        LOG.warn("{}: HTTP/2 connection: unexpected failure in the server's handlers", ctx.channel().remoteAddress(),
            cause);
      }
    }
  }
}
