package io.krill.httpd;

import io.krill.fibers.Checks;
import io.krill.fibers.ExecutionMode;
import io.krill.fibers.FiberScheduler;
import io.krill.fibers.VirtualThreads;
import io.krill.httpd.http2.Http2Options;
import io.krill.netio.Tls;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * An HTTP/1.1 server: every connection is served by one strand (a fiber by default) that runs
 * {@link Handler} code blocking-style. Netty's HTTP codec does the wire format; the server adds
 * keep-alive and pipelining, limits, timeouts, routing, graceful shutdown, an access log and
 * counters.
 *
 * <pre>{@code
 * try (HttpServer server = HttpServer.builder().port(8080)
 *     .get("/hello/{name}", (req, res) -> res.send("Hello, " + req.pathParam("name") + "\n"))
 *     .build().start()) {
 *   Thread.sleep(Long.MAX_VALUE);
 * }
 * }</pre>
 *
 * <p>Threading: thread-safe. {@link #start()}, {@link #shutdown(Duration)} and {@link #close()}
 * are called from plain code (any thread) and block that thread; handlers run on the
 * connections' strands.
 */
public final class HttpServer implements AutoCloseable {
  private final Builder config;
  private final HttpServerStats stats = new HttpServerStats();
  private ServerCore core;

  private HttpServer(Builder config) {
    this.config = config;
  }

  /** @return a builder with every setting at its {@code DEFAULT_*} value */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Binds and starts accepting. Blocks the calling thread until bound.
   *
   * @return this
   * @throws java.net.BindException if the port is in use ({@code "port 8080 is in use"}, naming the
   *     address too unless it is the default), or the address is not local (naming address:port)
   * @throws IOException if binding fails otherwise
   * @throws IllegalStateException if started already
   */
  public synchronized HttpServer start() throws IOException {
    if (core != null) {
      throw new IllegalStateException("start: the server was started already");
    }
    core = ServerCore.start(config, stats);
    return this;
  }

  private synchronized ServerCore core() {
    if (core == null) {
      throw new IllegalStateException("the server is not started (expected: start() first)");
    }
    return core;
  }

  /** @return the bound port (useful with port 0) */
  public int port() {
    return localAddress().getPort();
  }

  /** @return the bound address */
  public InetSocketAddress localAddress() {
    return core().localAddress();
  }

  /* For tests: connections parked idle now, the ones maxConnections may close to make room. */
  int idleConnections() {
    return core().idleConnections();
  }

  /* For tests: each open HTTP/1.1 connection's SO_SNDBUF as the kernel reports it. */
  List<Integer> sendBuffers() {
    return core().sendBuffers();
  }

  /* For tests and measurements: how many idle collections the server started. */
  int idleCollections() {
    return core().idleCollections();
  }

  /* For tests: idle HTTP/1.1 connections whose strand has ended. */
  int strandlessConnections() {
    return core().strandlessConnections();
  }

  /** @return the live counters */
  public HttpServerStats stats() {
    return stats;
  }

  /**
   * Stops accepting, lets requests in flight finish (their responses carry
   * {@code Connection: close}), closes idle connections at once, and after {@code grace}
   * closes whatever is left. Blocks the calling thread until every connection is closed.
   * Idempotent.
   *
   * @param grace how long requests in flight may take, >= 0
   */
  public void shutdown(Duration grace) {
    Objects.requireNonNull(grace, "grace");
    if (grace.isNegative()) {
      throw new IllegalArgumentException("grace: " + grace + " (expected: >= 0)");
    }
    ServerCore c;
    synchronized (this) {
      c = core;
    }
    if (c != null) {
      c.shutdown(grace);
    }
  }

  /** Shuts down with the configured {@code shutdownGrace}; see {@link #shutdown(Duration)}. */
  @Override
  public void close() {
    shutdown(config.shutdownGrace);
  }

  @Override
  public String toString() {
    ServerCore c;
    synchronized (this) {
      c = core;
    }
    return "HttpServer[" + (c == null ? config.address + ":" + config.port + ", not started" : c.localAddress()) + "]";
  }

  /**
   * Settings of an {@link HttpServer}. Every limit has a {@code DEFAULT_*} constant and is
   * validated when set, naming the setting: {@code "maxHeaderBytes: 0 (expected: > 0)"}.
   *
   * <p>Threading: not thread-safe; configure on one thread, then {@link #build()}.
   */
  public static final class Builder {
    /** Default port. */
    public static final int DEFAULT_PORT = 8080;
    /** Default address to listen on: loopback only. */
    public static final String DEFAULT_ADDRESS = "127.0.0.1";
    /** Default: longest request line in bytes; longer gets 414. */
    public static final int DEFAULT_MAX_REQUEST_LINE_BYTES = 8192;
    /** Default: most bytes of all header lines together; more gets 431. */
    public static final int DEFAULT_MAX_HEADER_BYTES = 16384;
    /** Default: most header fields; more gets 431. */
    public static final int DEFAULT_MAX_HEADER_COUNT = 100;
    /** Default: largest request body in bytes; larger gets 413. */
    public static final long DEFAULT_MAX_BODY_BYTES = 10L * 1024 * 1024;
    /** Default: connections the kernel queues before the server accepts them (capped by somaxconn). */
    public static final int DEFAULT_BACKLOG = 1024;
    /** Default: most connections open at once; more are closed on accept. */
    public static final int DEFAULT_MAX_CONNECTIONS = 10_000;
    /** Default: how long a request head may take to arrive once its first byte came; then 408 and close. */
    public static final Duration DEFAULT_HEADER_READ_TIMEOUT = Duration.ofSeconds(10);
    /** Default: how long a connection may sit idle between requests (or with a stalled body) before it is closed. */
    public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofSeconds(60);
    /** Default: how long a response write may wait for a client that does not read. */
    public static final Duration DEFAULT_WRITE_TIMEOUT = Duration.ofSeconds(60);
    /**
     * Default: each accepted connection's kernel send buffer ({@code SO_SNDBUF}), in bytes. A fixed
     * 256 KiB (Linux doubles it for its bookkeeping) rather than the kernel's autotuning, which lets
     * one {@code sendfile} queue a whole 1 MiB file in the socket: on loopback the client's
     * acknowledgements then push most of the queued bytes on the client's CPU, and 1 MiB static
     * files went at half the rate (docs/results/2026-11-26-static-1mib.md).
     */
    public static final int DEFAULT_SEND_BUFFER_BYTES = 256 * 1024;
    /** Largest {@link Builder#sendBufferBytes}: the int the socket option takes, kept to a sane 64 MiB. */
    public static final int MAX_SEND_BUFFER_BYTES = 64 * 1024 * 1024;
    /** Default: how long {@link HttpServer#close()} lets requests in flight finish. */
    public static final Duration DEFAULT_SHUTDOWN_GRACE = Duration.ofSeconds(10);
    /** Default execution mode. */
    public static final ExecutionMode DEFAULT_MODE = ExecutionMode.FIBER;
    /** Default: no collection when idle ({@link #idleCollection}); {@code krill serve} sets one. */
    public static final Duration DEFAULT_IDLE_COLLECTION = Duration.ZERO;

    int port = DEFAULT_PORT;
    String address = DEFAULT_ADDRESS;
    Tls tls;
    int maxRequestLineBytes = DEFAULT_MAX_REQUEST_LINE_BYTES;
    int maxHeaderBytes = DEFAULT_MAX_HEADER_BYTES;
    int maxHeaderCount = DEFAULT_MAX_HEADER_COUNT;
    long maxBodyBytes = DEFAULT_MAX_BODY_BYTES;
    int maxConnections = DEFAULT_MAX_CONNECTIONS;
    int backlog = DEFAULT_BACKLOG;
    int sendBufferBytes = DEFAULT_SEND_BUFFER_BYTES;
    Duration headerReadTimeout = DEFAULT_HEADER_READ_TIMEOUT;
    Duration idleTimeout = DEFAULT_IDLE_TIMEOUT;
    Duration writeTimeout = DEFAULT_WRITE_TIMEOUT;
    Duration shutdownGrace = DEFAULT_SHUTDOWN_GRACE;
    Duration idleCollection = DEFAULT_IDLE_COLLECTION;
    /* Fiber mode: how long a connection idles before it gives up its fiber (ServerCore.IDLE_STRAND_DELAY); tests shorten it. */
    Duration idleStrandDelay = ServerCore.IDLE_STRAND_DELAY;
    ExecutionMode mode = DEFAULT_MODE;
    final List<Router.Route> routes = new ArrayList<>();
    Handler fallback;
    boolean accessLog;
    FiberScheduler scheduler;
    Http2Options http2;

    Builder() {}

    /**
     * @param port the port, 0..65535 (0: any free port)
     * @return this
     */
    public Builder port(int port) { this.port = Checks.port("port", port); return this; }

    /**
     * @param address an IP literal or hostname to listen on ({@code 0.0.0.0} for all IPv4)
     * @return this
     */
    public Builder address(String address) {
      Objects.requireNonNull(address, "address");
      if (address.isBlank()) {
        throw new IllegalArgumentException("address: \"" + address + "\" (expected: a host or IP literal)");
      }
      this.address = address;
      return this;
    }

    /**
     * @param tls server TLS settings ({@link Tls#server}), or null for plain HTTP
     * @return this
     */
    public Builder tls(Tls tls) {
      if (tls != null && !tls.isServer()) {
        throw new IllegalArgumentException("tls: client settings (expected: Tls.server(key, chain))");
      }
      this.tls = tls;
      return this;
    }

    /**
     * @param bytes the longest request line, > 0; longer gets 414
     * @return this
     */
    public Builder maxRequestLineBytes(int bytes) { this.maxRequestLineBytes = Checks.positive("maxRequestLineBytes", bytes); return this; }

    /**
     * @param bytes the most bytes of all header lines together, > 0; more gets 431
     * @return this
     */
    public Builder maxHeaderBytes(int bytes) { this.maxHeaderBytes = Checks.positive("maxHeaderBytes", bytes); return this; }

    /**
     * @param count the most header fields, > 0; more gets 431
     * @return this
     */
    public Builder maxHeaderCount(int count) { this.maxHeaderCount = Checks.positive("maxHeaderCount", count); return this; }

    /**
     * @param bytes the largest request body, >= 0; larger gets 413
     * @return this
     */
    public Builder maxBodyBytes(long bytes) { this.maxBodyBytes = Checks.nonNegative("maxBodyBytes", bytes); return this; }

    /**
     * @param count the most connections open at once, > 0; more are closed on accept
     * @return this
     */
    public Builder maxConnections(int count) { this.maxConnections = Checks.positive("maxConnections", count); return this; }

    /**
     * @param backlog connections the kernel queues before the server accepts them, > 0
     * @return this
     */
    public Builder backlog(int backlog) { this.backlog = Checks.positive("backlog", backlog); return this; }

    /**
     * @param bytes each accepted connection's kernel send buffer ({@code SO_SNDBUF}), 0..{@value
     *     #MAX_SEND_BUFFER_BYTES}; 0 leaves it to the kernel's autotuning
     * @return this
     */
    public Builder sendBufferBytes(int bytes) {
      this.sendBufferBytes = Checks.inRange("sendBufferBytes", bytes, 0, MAX_SEND_BUFFER_BYTES);
      return this;
    }

    /**
     * @param timeout how long a request head may take once its first byte came, > 0
     * @return this
     */
    public Builder headerReadTimeout(Duration timeout) { this.headerReadTimeout = Checks.positive("headerReadTimeout", timeout); return this; }

    /**
     * @param timeout how long a connection may idle between requests or within a body, > 0
     * @return this
     */
    public Builder idleTimeout(Duration timeout) { this.idleTimeout = Checks.positive("idleTimeout", timeout); return this; }

    /**
     * @param timeout how long a write may wait for a client that does not read, > 0
     * @return this
     */
    public Builder writeTimeout(Duration timeout) { this.writeTimeout = Checks.positive("writeTimeout", timeout); return this; }

    /**
     * @param grace how long {@link HttpServer#close()} lets requests in flight finish, >= 0
     * @return this
     */
    public Builder shutdownGrace(Duration grace) { this.shutdownGrace = Checks.nonNegative("shutdownGrace", grace); return this; }

    /**
     * Gives memory back when the server goes quiet: after {@code quiet} with no request, no new
     * connection and no byte received, the server asks the JVM once for a full collection (G1
     * then shrinks its committed heap toward the live data, by the heap-free ratios) and a trim
     * of the C heap, on a thread of its own; the next activity arms it again. The collection
     * stops every thread of the JVM while it runs (a time that grows with the live heap: 17–60 ms
     * at 8–29 MB measured on a loaded two-core machine), so it comes only after a quiet time; a
     * request arriving during it waits for it. It honours {@code -XX:+DisableExplicitGC} and
     * {@code -XX:+ExplicitGCInvokesConcurrent}.
     *
     * @param quiet how long the server must see no activity, >= 0; 0 (the default) never collects
     * @return this
     */
    public Builder idleCollection(Duration quiet) { this.idleCollection = Checks.nonNegative("idleCollection", quiet); return this; }

    /* For tests: a shorter wait before an idle connection gives up its fiber. */
    Builder idleStrandDelay(Duration delay) { this.idleStrandDelay = Checks.nonNegative("idleStrandDelay", delay); return this; }

    /**
     * @param mode what runs each connection's handler code
     * @return this
     */
    public Builder mode(ExecutionMode mode) { this.mode = Objects.requireNonNull(mode, "mode"); return this; }

    /**
     * Routes {@code method} requests whose path matches {@code pattern} to {@code handler}.
     * A pattern is a path of literal segments, {@code {name}} segments that match one segment
     * (read with {@link Request#pathParam}), and an optional last segment {@code *} that
     * matches the rest of the path ({@code pathParam("*")}). Literal segments win over
     * parameters; earlier routes win among equals. A matching path with no route for its
     * method gets 405 with {@code Allow}. {@code HEAD} falls back to the {@code GET} route.
     *
     * @param method an HTTP method token, e.g. {@code GET}
     * @param pattern e.g. {@code /users/{id}}
     * @param handler serves the matches
     * @return this
     */
    public Builder route(String method, String pattern, Handler handler) { routes.add(Router.Route.parse(method, pattern, Objects.requireNonNull(handler, "handler"))); return this; }

    /**
     * Same as {@code route("GET", pattern, handler)}.
     *
     * @param pattern the path pattern
     * @param handler serves the matches
     * @return this
     */
    public Builder get(String pattern, Handler handler) {
      return route("GET", pattern, handler);
    }

    /**
     * Same as {@code route("POST", pattern, handler)}.
     *
     * @param pattern the path pattern
     * @param handler serves the matches
     * @return this
     */
    public Builder post(String pattern, Handler handler) {
      return route("POST", pattern, handler);
    }

    /**
     * @param handler serves requests no route matches (default: 404)
     * @return this
     */
    public Builder fallback(Handler handler) { this.fallback = Objects.requireNonNull(handler, "handler"); return this; }

    /**
     * @param enabled log one line per response to the SLF4J logger {@code io.krill.httpd.access}
     *     at INFO (default off)
     * @return this
     */
    public Builder accessLog(boolean enabled) { this.accessLog = enabled; return this; }

    /**
     * @param scheduler the fiber scheduler whose event loops carry the connections (default:
     *     {@link FiberScheduler#defaultScheduler()})
     * @return this
     */
    public Builder scheduler(FiberScheduler scheduler) { this.scheduler = Objects.requireNonNull(scheduler, "scheduler"); return this; }

    /**
     * Serves HTTP/2 too: h2 chosen by ALPN when TLS is on, else h2c (prior knowledge and
     * {@code Upgrade: h2c}) unless {@link Http2Options#cleartext()} is off. Every stream runs the
     * same handlers, each on its own strand. Default: off (HTTP/1.1 only).
     *
     * @param options the HTTP/2 settings and limits, or null for HTTP/1.1 only
     * @return this
     */
    public Builder http2(Http2Options options) { this.http2 = options; return this; }

    /**
     * @return the server, not yet started
     * @throws IllegalArgumentException if settings contradict each other, or
     *     {@link ExecutionMode#VIRTUAL} is asked for on a JDK without virtual threads
     */
    public HttpServer build() {
      if (mode == ExecutionMode.VIRTUAL && !VirtualThreads.available()) {
        throw new IllegalArgumentException("mode: VIRTUAL " + VirtualThreads.UNAVAILABLE + "; use FIBER or PLATFORM");
      }
      Builder copy = copy();
      return new HttpServer(copy);
    }

    private Builder copy() {
      Builder b = new Builder();
      b.port = port;
      b.address = address;
      b.tls = tls;
      b.maxRequestLineBytes = maxRequestLineBytes;
      b.maxHeaderBytes = maxHeaderBytes;
      b.maxHeaderCount = maxHeaderCount;
      b.maxBodyBytes = maxBodyBytes;
      b.maxConnections = maxConnections;
      b.backlog = backlog;
      b.sendBufferBytes = sendBufferBytes;
      b.headerReadTimeout = headerReadTimeout;
      b.idleTimeout = idleTimeout;
      b.writeTimeout = writeTimeout;
      b.shutdownGrace = shutdownGrace;
      b.idleCollection = idleCollection;
      b.idleStrandDelay = idleStrandDelay;
      b.mode = mode;
      b.routes.addAll(routes);
      b.fallback = fallback;
      b.accessLog = accessLog;
      b.scheduler = scheduler;
      b.http2 = http2;
      return b;
    }
  }
}
