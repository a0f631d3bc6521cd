package io.krill.httpd;

import io.krill.fibers.Continuation;
import io.krill.fibers.ExecutionMode;
import io.krill.fibers.Fiber;
import io.krill.fibers.FiberScheduler;
import io.krill.fibers.VirtualThreads;
import io.krill.httpd.http2.Http2Options;
import io.krill.httpd.internal.http2.Http2Pipeline;
import io.krill.netio.Tls;
import io.krill.netio.Transport;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.AsciiString;
import java.io.IOException;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The running server: the listening channel, each accepted connection's pipeline and strand,
 * the open connections, and shutdown. Thread-safe.
 */
final class ServerCore {
  private static final Logger LOG = LoggerFactory.getLogger(HttpServer.class);
  /** How long a connection closed after an error response drains what the client still sends. */
  static final long LINGER_NANOS = TimeUnit.SECONDS.toNanos(2);
  private static final int WRITE_LOW_WATER_MARK = 32 * 1024;
  private static final int WRITE_HIGH_WATER_MARK = 64 * 1024;
  /** How often the sweeper wakes readers past their deadline: the precision of the timeouts. */
  static final long SWEEP_MILLIS = 100;
  /**
   * Fiber mode: how long an HTTP/1.1 connection waits for a head before its fiber (and, without
   * TLS and HTTP/2, its codec) goes, about 650 bytes less each until its next bytes arrive. Long
   * against a client's gap between requests, also on an overloaded server whose clients wait a
   * second or two for each answer, so busy connections keep their fiber and pay no fiber start
   * per request; the sweeper's period adds up to {@link #SWEEP_MILLIS}.
   */
  static final Duration IDLE_STRAND_DELAY = Duration.ofSeconds(5);
  /** The most idle connections closed in one go to make room at maxConnections. */
  static final int EVICT_MAX = 32;
  /* Netty splits bodies into contents of at most this many bytes. */
  private static final int MAX_CHUNK_BYTES = 16384;

  final HttpServerStats stats;
  final Router router;
  final Handler fallback;
  final Tls tls;
  final int maxHeaderCount;
  final long maxBodyBytes;
  final long idleTimeoutNanos;
  final long headerReadTimeoutNanos;
  final long writeTimeoutNanos;
  final boolean accessLog;
  private final int maxConnections;
  private final int backlog;
  private final int sendBufferBytes;
  private final int maxRequestLineBytes;
  private final int maxHeaderBytes;
  private final ExecutionMode mode;
  private final FiberScheduler scheduler;
  private final Set<HttpConnection> connections = ConcurrentHashMap.newKeySet();
  /* Connections being refused with 503 right now (bounded by Overload). */
  private final AtomicInteger refusing = new AtomicInteger();
  /* HTTP/2 on: connections still choosing their protocol, and those speaking HTTP/2 (each keeps its streams' handlers). */
  private final Http2Options http2;
  private final Set<Channel> negotiating = ConcurrentHashMap.newKeySet();
  private final Map<Channel, Http2Pipeline.Idle> http2Connections = new ConcurrentHashMap<>();
  volatile boolean shuttingDown;
  /**
   * The Date value of this server's responses: formatted by {@link Dates}, taken again by each
   * sweep, so it trails the clock by at most about {@link #SWEEP_MILLIS} (the header has a
   * resolution of a second) and a response reads no clock for it.
   */
  volatile AsciiString date = Dates.now();
  /* Responses whose body missed its declared Content-Length: the first is a WARN, the rest DEBUG (a test web cuts bodies on purpose). */
  final java.util.concurrent.atomic.AtomicLong shortBodies = new java.util.concurrent.atomic.AtomicLong();
  /** Idle HTTP/1.1 connections give up their strand (fiber mode; a thread per connection keeps its own). */
  final boolean idleWithoutStrand;
  /** {@link #IDLE_STRAND_DELAY}, or a test's shorter one. */
  final long idleStrandNanos;
  /**
   * Strandless connections also give up their decoder and encoder (no TLS handler before them,
   * no HTTP/2 pipeline that renames them).
   */
  final boolean dropIdleCodec;
  /** Pipeline names of the HTTP/1.1 codec's handlers. */
  static final String DECODER = "decoder";
  static final String ENCODER = "encoder";
  private final HttpDecoderConfig decoderConfig;
  /* Null when the server never collects when idle. */
  private final IdleCollector idleCollector;
  /* Upgrade handlers (WebSocket sockets) serving a connection they took over, right now. */
  final LongAdder takeovers = new LongAdder();
  private io.netty.util.concurrent.ScheduledFuture<?> sweeper;
  private Channel serverChannel;
  private InetSocketAddress localAddress;

  private ServerCore(HttpServer.Builder b, HttpServerStats stats) {
    this.stats = stats;
    this.router = new Router(b.routes);
    this.fallback = b.fallback;
    this.tls = b.tls;
    this.maxHeaderCount = b.maxHeaderCount;
    this.maxBodyBytes = b.maxBodyBytes;
    this.idleTimeoutNanos = b.idleTimeout.toNanos();
    this.headerReadTimeoutNanos = b.headerReadTimeout.toNanos();
    this.writeTimeoutNanos = b.writeTimeout.toNanos();
    this.accessLog = b.accessLog;
    this.maxConnections = b.maxConnections;
    this.backlog = b.backlog;
    this.sendBufferBytes = b.sendBufferBytes;
    this.maxRequestLineBytes = b.maxRequestLineBytes;
    this.maxHeaderBytes = b.maxHeaderBytes;
    this.mode = b.mode;
    this.idleWithoutStrand = b.mode == ExecutionMode.FIBER;
    this.idleStrandNanos = b.idleStrandDelay.toNanos();
    this.scheduler = b.scheduler != null ? b.scheduler : FiberScheduler.defaultScheduler();
    this.http2 = b.http2;
    this.dropIdleCodec = idleWithoutStrand && b.tls == null && b.http2 == null;
    this.idleCollector = b.idleCollection.isZero() ? null : IdleCollector.collecting(b.idleCollection.toNanos());
    this.decoderConfig = new HttpDecoderConfig()
        .setMaxInitialLineLength(maxRequestLineBytes)
        .setMaxHeaderSize(maxHeaderBytes)
        .setMaxChunkSize(MAX_CHUNK_BYTES)
        .setAllowDuplicateContentLengths(false)
        .setHeadersFactory(CompactHeaders.REQUESTS)
        .setStrictLineParsing(true);
  }

  static ServerCore start(HttpServer.Builder b, HttpServerStats stats) throws IOException {
    ServerCore core = new ServerCore(b, stats);
    core.bind(b.address, b.port);
    return core;
  }

  private void bind(String address, int port) throws IOException {
    // The carriers' own transport: accepted channels then live on the fiber loops, so each
    // connection's fiber runs on its channel's thread with no hand-off (also with epoll or io_uring carriers).
    Transport transport = Transport.ofCarriers(scheduler);
    EventLoopGroup group = transport.group(scheduler);
    ServerBootstrap sb = new ServerBootstrap()
        .group(group, group)
        .channel(transport.serverChannel())
        .option(ChannelOption.SO_BACKLOG, backlog)
        .option(ChannelOption.SO_REUSEADDR, true)
        .childOption(ChannelOption.AUTO_READ, false)
        .childOption(ChannelOption.ALLOW_HALF_CLOSURE, true)
        .childOption(ChannelOption.TCP_NODELAY, true)
        // One allocator for every connection instead of one per channel, and with epoll or NIO
        // one sizing handle per loop too: about 140 bytes less per connection, idle ones included.
        .childOption(ChannelOption.RCVBUF_ALLOCATOR,
            transport == Transport.IO_URING ? LoopReceiveBuffers.perConnection() : LoopReceiveBuffers.SHARED)
        .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK,
            new WriteBufferWaterMark(WRITE_LOW_WATER_MARK, WRITE_HIGH_WATER_MARK))
        .childHandler(new ChannelInitializer<Channel>() {
          @Override
          protected void initChannel(Channel ch) {
            accepted(ch);
          }
        });
    if (sendBufferBytes > 0) {
      sb.childOption(ChannelOption.SO_SNDBUF, sendBufferBytes);
    }
    ChannelFuture f = sb.bind(address, port).awaitUninterruptibly();
    if (!f.isSuccess()) {
      Throwable cause = f.cause();
      String reason = String.valueOf(cause.getMessage());
      IOException e = new BindException(reason.contains("in use")
          ? "port " + port + " is in use" + (address.equals(HttpServer.Builder.DEFAULT_ADDRESS) ? "" : " on " + address)
          : "Cannot bind " + address + ":" + port + ": " + reason);
      e.initCause(cause);
      throw e;
    }
    serverChannel = f.channel();
    date = Dates.now(); // fresh for the first sweep period
    sweeper = serverChannel.eventLoop().scheduleAtFixedRate(this::sweep, SWEEP_MILLIS, SWEEP_MILLIS,
        TimeUnit.MILLISECONDS);
    localAddress = (InetSocketAddress) serverChannel.localAddress();
    LOG.debug("httpd listening on {} ({} mode)", localAddress, mode);
  }

  /* On the accepting loop: build the pipeline and start the connection's strand. */
  private void accepted(Channel ch) {
    stats.accepted.increment();
    if (shuttingDown) {
      stats.rejected.increment();
      ch.close();
      return;
    }
    if (stats.open.sum() >= maxConnections && closeOldestIdle() == 0) {
      stats.rejected.increment();
      Overload.refuse(ch, tls, refusing);
      return;
    }
    stats.open.increment();
    ChannelPipeline p = ch.pipeline();
    SslHandler ssl = null;
    if (tls != null) {
      ssl = tls.newHandler(ch.alloc(), null, 0);
      p.addLast("tls", ssl);
    }
    if (http2 != null) {
      negotiating.add(ch);
      ch.closeFuture().addListener(f -> {
        if (negotiating.remove(ch) || http2Connections.remove(ch) != null) {
          stats.open.decrement();
        }
      });
      Http2Pipeline.install(ch, http2, ssl, idleTimeoutNanos, new Http2Host());
      return;
    }
    http1(ch, null);
  }

  /* Adds HTTP/1.1's handlers (and the h2c upgrade handler, if any) and starts the connection's strand. */
  private void http1(Channel ch, ChannelHandler upgrade) {
    RequestDecoder decoder = newDecoder();
    HttpConnection c = new HttpConnection(this, ch, decoder);
    ChannelPipeline p = ch.pipeline();
    p.addLast(DECODER, decoder);
    p.addLast(ENCODER, newEncoder());
    if (upgrade != null) {
      p.addLast("h2c-upgrade", upgrade);
    }
    p.addLast("connection", c);
    connections.add(c);
    ch.closeFuture().addListener(c);
    if (dropIdleCodec && upgrade == null) {
      c.awaitFirstBytes(); // no fiber until a request begins (see HttpConnection's notes)
    } else {
      startStrand(c, ch);
    }
  }

  /* An HTTP/1.1 connection's decoder: when accepted, and again when an idle one's codec comes back. */
  RequestDecoder newDecoder() {
    return new RequestDecoder(decoderConfig, stats.cell());
  }

  /* An HTTP/1.1 connection's encoder. */
  ResponseEncoder newEncoder() {
    return new ResponseEncoder(stats.cell());
  }

  /* Starts the strand that serves c: when accepted, and again when a strandless idle connection gets bytes. */
  void startStrand(HttpConnection c, Channel ch) {
    switch (mode) {
      case FIBER:
        Fiber.Builder fb = Fiber.builder().scheduler(scheduler).name("httpd");
        if (Transport.isCarrier(ch.eventLoop(), scheduler)) {
          fb.home(ch.eventLoop());
        }
        fb.start(c);
        break;
      case VIRTUAL:
        VirtualThreads.start(() -> Continuation.runOnThread(c));
        break;
      case PLATFORM:
        startPlatform("httpd " + ch.remoteAddress(), () -> Continuation.runOnThread(c));
        break;
      default:
        throw new AssertionError(mode);
    }
  }

  /**
   * At maxConnections: closes the idle connections (HTTP/1.1 ones waiting for a request, HTTP/2
   * ones without an open stream) that waited longest (an eighth of the idle
   * ones, at least one and at most {@link #EVICT_MAX}, as nginx does), so a new client gets a
   * place. Their count leaves the open count at once. One pass over the connections; runs only
   * while the server is full.
   *
   * @return how many were closed
   */
  private int closeOldestIdle() {
    List<Candidate> idle = new ArrayList<>();
    for (HttpConnection c : connections) {
      long key = c.idleKey();
      if (key != 0) {
        idle.add(new Candidate(key, c, null));
      }
    }
    for (Map.Entry<Channel, Http2Pipeline.Idle> e : http2Connections.entrySet()) {
      long key = e.getValue().idleKey();
      if (key != 0) {
        idle.add(new Candidate(key, null, e.getKey()));
      }
    }
    if (idle.isEmpty()) {
      return 0;
    }
    idle.sort(Comparator.comparingLong(Candidate::key));
    int want = Math.max(1, Math.min(EVICT_MAX, idle.size() / 8));
    int closed = 0;
    for (int i = 0; i < idle.size() && closed < want; i++) {
      HttpConnection c = idle.get(i).connection();
      if (c == null) {
        closed += evictHttp2(idle.get(i).http2());
      } else if (c.closeIfIdle()) {
        closed++;
        stats.evicted.increment();
        if (connections.remove(c)) {
          stats.open.decrement();
        }
      }
    }
    return closed;
  }

  /* GOAWAY on an HTTP/2 connection without streams; its count leaves the open count at once. @return 1 if closed */
  private int evictHttp2(Channel ch) {
    Http2Pipeline.Idle c = http2Connections.get(ch);
    if (c == null || !c.closeIfIdle()) {
      return 0;
    }
    stats.evicted.increment();
    if (http2Connections.remove(ch) != null) {
      stats.open.decrement();
    }
    return 1;
  }

  /** @return how many HTTP/1.1 connections idle without a strand now (for tests and measurements) */
  int strandlessConnections() {
    int n = 0;
    for (HttpConnection c : connections) {
      if (c.strandless()) {
        n++;
      }
    }
    return n;
  }

  /** @return each open HTTP/1.1 connection's kernel send buffer, as its socket reports it */
  List<Integer> sendBuffers() {
    List<Integer> sizes = new ArrayList<>();
    for (HttpConnection c : connections) {
      sizes.add(c.channel().config().getOption(ChannelOption.SO_SNDBUF));
    }
    return sizes;
  }

  /** @return how many connections are idle now (waiting for a head, none begun; HTTP/2 without streams) */
  int idleConnections() {
    int n = 0;
    for (HttpConnection c : connections) {
      if (c.idleKey() != 0) {
        n++;
      }
    }
    for (Http2Pipeline.Idle c : http2Connections.values()) {
      if (c.idleKey() != 0) {
        n++;
      }
    }
    return n;
  }

  /* An idle HTTP/1.1 connection, or an idle HTTP/2 one's channel. */
  private record Candidate(long key, HttpConnection connection, Channel http2) {}

  /* What the HTTP/2 pipeline asks of the server; on the connection's loop. */
  private final class Http2Host implements Http2Pipeline.Host {
    @Override
    public void http1(Channel ch, ChannelHandler upgrade) {
      negotiating.remove(ch); // from now on the connection handler counts it
      ServerCore.this.http1(ch, upgrade);
    }

    @Override
    public void leaveHttp1(Channel ch) {
      ChannelPipeline p = ch.pipeline();
      HttpConnection c = (HttpConnection) p.remove("connection");
      p.remove("encoder");
      p.remove("decoder");
      connections.remove(c); // http2() takes over the count
      c.detach();
    }

    @Override
    public Http2Pipeline.StreamHandler stream(Http2Pipeline.Stream stream) {
      return new HttpConnection(ServerCore.this, stream);
    }

    @Override
    public void http2(Channel ch, Http2Pipeline.Idle idle) {
      negotiating.remove(ch);
      http2Connections.put(ch, idle);
    }

    @Override
    public void bytesIn(long bytes) {
      stats.bytesIn.add(bytes);
    }

    @Override
    public void bytesOut(long bytes) {
      stats.bytesOut.add(bytes);
    }
  }

  private static void startPlatform(String name, Runnable body) {
    Thread t = new Thread(body, name);
    t.setDaemon(true);
    t.start();
  }

  /* One pass over the open connections: wakes readers whose deadline passed. */
  private void sweep() {
    date = Dates.now();
    long now = System.nanoTime();
    for (HttpConnection c : connections) {
      c.sweep(now);
    }
    for (Http2Pipeline.Idle c : http2Connections.values()) {
      c.sweep(now); // on each connection's loop, while it has streams
    }
    if (idleCollector != null) {
      idleCollector.tick(stats.requests() + stats.acceptedConnections() + stats.bytesIn(), takeovers.sum() > 0, now);
    }
  }

  /** @return how many idle collections were started */
  int idleCollections() {
    return idleCollector == null ? 0 : idleCollector.started();
  }

  /** A connection's channel closed. */
  void closed(HttpConnection c) {
    if (connections.remove(c)) {
      stats.open.decrement();
    }
  }

  InetSocketAddress localAddress() {
    return localAddress;
  }

  /* Stop accepting; idle connections end now, busy ones after their request; force after grace. */
  void shutdown(Duration grace) {
    if (!shuttingDown) {
      shuttingDown = true;
      serverChannel.close().awaitUninterruptibly();
    }
    for (HttpConnection c : connections) {
      c.wakeReader();
      c.channel().pipeline().fireUserEventTriggered(UpgradeHandler.SHUTDOWN_EVENT); // an upgraded one ends itself
    }
    for (Channel ch : http2Connections.keySet()) {
      Http2Pipeline.shutdown(ch, grace.toMillis()); // GOAWAY; streams in flight finish
    }
    for (Channel ch : negotiating) {
      ch.close();
    }
    long deadline = System.nanoTime() + grace.toNanos();
    while (!allClosed() && System.nanoTime() - deadline < 0) {
      sleepBriefly();
    }
    for (HttpConnection c : new ArrayList<>(connections)) {
      c.channel().close();
    }
    for (Channel ch : new ArrayList<>(http2Connections.keySet())) {
      ch.pipeline().firstContext().close(); // past the frame codec's graceful close; its streams end with it
    }
    long hard = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    while (!allClosed() && System.nanoTime() - hard < 0) {
      sleepBriefly();
    }
    sweeper.cancel(false);
  }

  private boolean allClosed() {
    return connections.isEmpty() && http2Connections.isEmpty() && negotiating.isEmpty();
  }

  private static void sleepBriefly() {
    try {
      Thread.sleep(5);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while shutting down", e);
    }
  }
}
