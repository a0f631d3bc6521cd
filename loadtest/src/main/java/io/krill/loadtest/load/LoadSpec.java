package io.krill.loadtest.load;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;

/**
 * What one load-generator run does: target, protocol, loop model, connection count and the
 * bounds of its two phases. Immutable; build with {@link #builder()}. Every limit has a
 * {@code DEFAULT_*} constant and a range checked by {@link Builder#build()}, and the
 * load-generator table of docs/loadtest.md lists them.
 *
 * <p>Only loopback targets are accepted: {@link Builder#build()} refuses any other address
 * with an {@link IllegalArgumentException} naming the {@code target} field.
 */
public final class LoadSpec {
  /** What the generator speaks. */
  public enum Protocol {
    /** HTTP/1.1 keep-alive GET requests, optionally pipelined. */
    HTTP,
    /** Raw TCP: writes a message, reads the same bytes back and checks them. */
    ECHO
  }

  /** How requests are paced. */
  public enum Mode {
    /** Each connection sends, waits for the answer, and sends again. */
    CLOSED,
    /**
     * Requests start at a constant total rate; latency counts from the intended send time, so a
     * stalled server is charged for every request it delayed (coordinated-omission corrected).
     */
    OPEN,
    /**
     * Each connection sends one request, then holds the connection idle until the measured
     * phase ends or the run is stopped, then checks it with one more request.
     */
    IDLE
  }

  /** Default: target host. */
  public static final String DEFAULT_HOST = "127.0.0.1";
  /** Default: request path (HTTP). */
  public static final String DEFAULT_PATH = "/hello";
  /** Default: connections. */
  public static final int DEFAULT_CONNECTIONS = 100;
  /** Most connections one generator process opens: the 20,000-file cap less headroom. */
  public static final int MAX_CONNECTIONS = 19_500;
  /** Default: requests written before waiting for their answers (HTTP pipelining depth). */
  public static final int DEFAULT_PIPELINE = 1;
  /** Largest pipelining depth. */
  public static final int MAX_PIPELINE = 1024;
  /** Default: echo message size in bytes. */
  public static final int DEFAULT_ECHO_SIZE = 64;
  /** Largest echo message. */
  public static final int MAX_ECHO_SIZE = 1 << 20;
  /** Default: source addresses 127.0.0.2, 127.0.0.3, ... the connections are spread over. */
  public static final int DEFAULT_SOURCES = 8;
  /** Most source addresses (127.0.0.2 .. 127.0.0.251). */
  public static final int MAX_SOURCES = 250;
  /** Default: warm-up time. */
  public static final Duration DEFAULT_WARMUP = Duration.ofSeconds(2);
  /** Default: most requests in the warm-up. */
  public static final long DEFAULT_WARMUP_REQUESTS = 100_000_000L;
  /** Default: measured time. */
  public static final Duration DEFAULT_MEASURE = Duration.ofSeconds(10);
  /** Default: most requests in the measured phase. */
  public static final long DEFAULT_MEASURE_REQUESTS = 1_000_000_000L;
  /** Longest warm-up or measured phase. */
  public static final Duration MAX_PHASE = Duration.ofHours(1);
  /** Default: how long one answer may take before it counts as a timeout. */
  public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(10);
  /** Default: how long one connect may take. */
  public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(10);
  /** Default: connects in flight at once. */
  public static final int DEFAULT_CONNECTS_IN_FLIGHT = 256;
  /** Default: largest HTTP response accepted, bytes. */
  public static final int DEFAULT_MAX_RESPONSE_BYTES = 1 << 20;
  /** Largest open-loop rate, requests per second over all connections. */
  public static final long MAX_RATE = 10_000_000L;

  final String host;
  final InetAddress address;
  final int port;
  final Protocol protocol;
  final Mode mode;
  final String path;
  final int connections;
  final int pipeline;
  final int echoSize;
  final long rate;
  final int sources;
  final int threads;
  final Duration warmup;
  final long warmupRequests;
  final Duration measure;
  final long measureRequests;
  final Duration requestTimeout;
  final Duration connectTimeout;
  final int connectsInFlight;
  final int maxResponseBytes;

  private LoadSpec(Builder b, InetAddress address) {
    host = b.host;
    this.address = address;
    port = b.port;
    protocol = b.protocol;
    mode = b.mode;
    path = b.path;
    connections = b.connections;
    pipeline = b.pipeline;
    echoSize = b.echoSize;
    rate = b.rate;
    sources = b.sources;
    threads = b.threads;
    warmup = b.warmup;
    warmupRequests = b.warmupRequests;
    measure = b.measure;
    measureRequests = b.measureRequests;
    requestTimeout = b.requestTimeout;
    connectTimeout = b.connectTimeout;
    connectsInFlight = b.connectsInFlight;
    maxResponseBytes = b.maxResponseBytes;
  }

  /** @return a builder with the defaults; the port must be set */
  public static Builder builder() {
    return new Builder();
  }

  /** @return the connection count */
  public int connections() {
    return connections;
  }

  /** @return the loop model */
  public Mode mode() {
    return mode;
  }

  /** @return the protocol */
  public Protocol protocol() {
    return protocol;
  }

  @Override
  public String toString() {
    return String.format(Locale.ROOT, "%s %s %s:%d%s conns=%d pipeline=%d%s warmup=%s/%d measure=%s/%d",
        protocol, mode, host, port, protocol == Protocol.HTTP ? path : " size=" + echoSize, connections, pipeline,
        mode == Mode.OPEN ? " rate=" + rate : "", warmup, warmupRequests, measure, measureRequests);
  }

  /** Builds a {@link LoadSpec}. Not thread-safe. */
  public static final class Builder {
    private String host = DEFAULT_HOST;
    private int port;
    private Protocol protocol = Protocol.HTTP;
    private Mode mode = Mode.CLOSED;
    private String path = DEFAULT_PATH;
    private int connections = DEFAULT_CONNECTIONS;
    private int pipeline = DEFAULT_PIPELINE;
    private int echoSize = DEFAULT_ECHO_SIZE;
    private long rate;
    private int sources = DEFAULT_SOURCES;
    private int threads = Runtime.getRuntime().availableProcessors();
    private Duration warmup = DEFAULT_WARMUP;
    private long warmupRequests = DEFAULT_WARMUP_REQUESTS;
    private Duration measure = DEFAULT_MEASURE;
    private long measureRequests = DEFAULT_MEASURE_REQUESTS;
    private Duration requestTimeout = DEFAULT_REQUEST_TIMEOUT;
    private Duration connectTimeout = DEFAULT_CONNECT_TIMEOUT;
    private int connectsInFlight = DEFAULT_CONNECTS_IN_FLIGHT;
    private int maxResponseBytes = DEFAULT_MAX_RESPONSE_BYTES;

    private Builder() {}

    /** @param host the target, a loopback address or "localhost" @return this */
    public Builder host(String host) {
      this.host = Objects.requireNonNull(host, "host");
      return this;
    }

    /** @param port the target port, 1..65535 @return this */
    public Builder port(int port) {
      this.port = port;
      return this;
    }

    /** @param protocol HTTP or raw echo @return this */
    public Builder protocol(Protocol protocol) {
      this.protocol = Objects.requireNonNull(protocol, "protocol");
      return this;
    }

    /** @param mode closed loop, open loop or idle @return this */
    public Builder mode(Mode mode) {
      this.mode = Objects.requireNonNull(mode, "mode");
      return this;
    }

    /** @param path the HTTP request path, starting with '/' @return this */
    public Builder path(String path) {
      this.path = Objects.requireNonNull(path, "path");
      return this;
    }

    /** @param n connections, 1..{@value #MAX_CONNECTIONS} @return this */
    public Builder connections(int n) {
      this.connections = n;
      return this;
    }

    /** @param depth requests written back to back before reading their answers (closed HTTP only) @return this */
    public Builder pipeline(int depth) {
      this.pipeline = depth;
      return this;
    }

    /** @param bytes echo message size @return this */
    public Builder echoSize(int bytes) {
      this.echoSize = bytes;
      return this;
    }

    /** @param perSecond open-loop rate over all connections @return this */
    public Builder rate(long perSecond) {
      this.rate = perSecond;
      return this;
    }

    /** @param n source addresses 127.0.0.2 .. 127.0.0.(n+1) for an IPv4 target @return this */
    public Builder sources(int n) {
      this.sources = n;
      return this;
    }

    /** @param n event-loop threads of the generator's fiber scheduler @return this */
    public Builder threads(int n) {
      this.threads = n;
      return this;
    }

    /** @param time warm-up time bound @param requests warm-up request bound @return this */
    public Builder warmup(Duration time, long requests) {
      this.warmup = Objects.requireNonNull(time, "warmup");
      this.warmupRequests = requests;
      return this;
    }

    /** @param time measured time bound (the idle hold, in idle mode) @param requests measured request bound @return this */
    public Builder measure(Duration time, long requests) {
      this.measure = Objects.requireNonNull(time, "measure");
      this.measureRequests = requests;
      return this;
    }

    /** @param timeout how long one answer may take @return this */
    public Builder requestTimeout(Duration timeout) {
      this.requestTimeout = Objects.requireNonNull(timeout, "requestTimeout");
      return this;
    }

    /** @param bytes largest HTTP answer body; a longer one counts as a bad response @return this */
    public Builder maxResponseBytes(int bytes) {
      this.maxResponseBytes = bytes;
      return this;
    }

    /** @param timeout how long one connect may take @return this */
    public Builder connectTimeout(Duration timeout) {
      this.connectTimeout = Objects.requireNonNull(timeout, "connectTimeout");
      return this;
    }

    /** @param n connects in flight at once @return this */
    public Builder connectsInFlight(int n) {
      this.connectsInFlight = n;
      return this;
    }

    /**
     * Checks every field and resolves the target.
     *
     * @return the spec
     * @throws IllegalArgumentException naming the first bad field, e.g. a target that is not loopback
     */
    public LoadSpec build() {
      InetAddress a = loopback(host);
      range("port", port, 1, 65535);
      range("connections", connections, 1, MAX_CONNECTIONS);
      range("pipeline", pipeline, 1, MAX_PIPELINE);
      range("echoSize", echoSize, 1, MAX_ECHO_SIZE);
      range("sources", sources, 1, MAX_SOURCES);
      range("threads", threads, 1, 256);
      range("connectsInFlight", connectsInFlight, 1, MAX_CONNECTIONS);
      range("maxResponseBytes", maxResponseBytes, 1, Integer.MAX_VALUE);
      phase("warmup", warmup, false);
      range("warmupRequests", warmupRequests, 0, Long.MAX_VALUE);
      phase("measure", measure, true);
      range("measureRequests", measureRequests, 1, Long.MAX_VALUE);
      positive("requestTimeout", requestTimeout);
      positive("connectTimeout", connectTimeout);
      if (protocol == Protocol.HTTP && !path.startsWith("/")) {
        throw new IllegalArgumentException("path: " + path + " (expected: starts with '/')");
      }
      if (mode == Mode.OPEN) {
        range("rate", rate, 1, MAX_RATE);
        if (pipeline != 1) {
          throw new IllegalArgumentException("pipeline: " + pipeline + " (expected: 1 in open-loop mode)");
        }
      } else if (rate != 0) {
        throw new IllegalArgumentException("rate: " + rate + " (expected: 0 outside open-loop mode)");
      }
      if (protocol == Protocol.ECHO && pipeline != 1) {
        throw new IllegalArgumentException("pipeline: " + pipeline + " (expected: 1 for echo)");
      }
      return new LoadSpec(this, a);
    }

    private static InetAddress loopback(String host) {
      InetAddress a;
      try {
        a = InetAddress.getByName(host);
      } catch (UnknownHostException e) {
        throw new IllegalArgumentException("target: " + host + " (expected: a loopback address; it does not resolve)", e);
      }
      if (!a.isLoopbackAddress()) {
        throw new IllegalArgumentException("target: " + host + " (expected: a loopback address, 127.0.0.0/8 or ::1;"
            + " the load generator never sends traffic off this machine)");
      }
      return a;
    }

    private static void range(String name, long v, long min, long max) {
      if (v < min || v > max) {
        String expected = max == Long.MAX_VALUE || max == Integer.MAX_VALUE ? ">= " + min : min + ".." + max;
        throw new IllegalArgumentException(name + ": " + v + " (expected: " + expected + ")");
      }
    }

    private static void positive(String name, Duration d) {
      if (d.isNegative() || d.isZero()) {
        throw new IllegalArgumentException(name + ": " + d + " (expected: > 0)");
      }
    }

    private static void phase(String name, Duration d, boolean positive) {
      if (d.isNegative() || (positive && d.isZero()) || d.compareTo(MAX_PHASE) > 0) {
        throw new IllegalArgumentException(name + ": " + d + " (expected: " + (positive ? "> 0" : ">= 0")
            + " and <= " + MAX_PHASE + ")");
      }
    }
  }

  /** @return the source address of connection {@code index}, or null to let the OS choose (IPv6 target) */
  InetAddress source(int index) {
    if (!(address instanceof Inet4Address)) {
      return null;
    }
    byte[] b = {127, 0, 0, (byte) (2 + index % sources)};
    try {
      return InetAddress.getByAddress(b);
    } catch (UnknownHostException e) {
      throw new AssertionError(e);
    }
  }
}
