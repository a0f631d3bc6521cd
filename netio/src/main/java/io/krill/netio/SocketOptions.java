package io.krill.netio;

import io.krill.fibers.Checks;
import io.krill.fibers.FiberScheduler;
import io.krill.netio.dns.DnsResolver;
import java.time.Duration;
import java.util.Objects;

/**
 * Settings of client and server sockets: deadlines, TCP options, buffer limits, TLS, transport
 * and the scheduler whose fibers use the socket. Immutable and thread-safe; change a copy with
 * {@link #toBuilder()}. Every limit has a {@code DEFAULT_*} constant, listed in the README.
 *
 * <pre>{@code
 * SocketOptions o = SocketOptions.builder().readTimeout(Duration.ofSeconds(5)).tls(Tls.client()).build();
 * }</pre>
 */
public final class SocketOptions implements Cloneable {
  /** Default: how long a connect may take. */
  public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(10);
  /** Default: how long one read may wait for data (zero means forever). */
  public static final Duration DEFAULT_READ_TIMEOUT = Duration.ofSeconds(60);
  /** Default: how long a write or flush may wait for the peer to make room (zero means forever). */
  public static final Duration DEFAULT_WRITE_TIMEOUT = Duration.ofSeconds(60);
  /** Default: how long close() lets pending writes drain before it closes anyway. */
  public static final Duration DEFAULT_LINGER = Duration.ofSeconds(5);
  /** Default: bytes {@link FiberOutput} gathers before it writes them to the channel. */
  public static final int DEFAULT_OUTPUT_BUFFER_SIZE = 8192;
  /** Default: outbound bytes queued in Netty below which the channel is writable again. */
  public static final int DEFAULT_WRITE_LOW_WATER_MARK = 32 * 1024;
  /** Default: outbound bytes queued in Netty above which writers park. */
  public static final int DEFAULT_WRITE_HIGH_WATER_MARK = 64 * 1024;
  /** Default: pending connections the server's kernel queue holds. */
  public static final int DEFAULT_BACKLOG = 1024;
  /** Default: TCP_NODELAY. */
  public static final boolean DEFAULT_TCP_NO_DELAY = true;
  /** Default: SO_KEEPALIVE. */
  public static final boolean DEFAULT_KEEP_ALIVE = false;

  // Built on first use, not in <clinit>: a bad krill.netio.transport then fails each call with
  // its own clear message instead of failing class initialization once.
  private static volatile SocketOptions defaults;

  // Not final so that the builder can fill a private copy; a built instance is never written
  // again, and build() hands out a fresh clone, so it is immutable once published.
  Duration connectTimeout = DEFAULT_CONNECT_TIMEOUT;
  Duration readTimeout = DEFAULT_READ_TIMEOUT;
  Duration writeTimeout = DEFAULT_WRITE_TIMEOUT;
  Duration linger = DEFAULT_LINGER;
  int outputBufferSize = DEFAULT_OUTPUT_BUFFER_SIZE;
  int writeLowWaterMark = DEFAULT_WRITE_LOW_WATER_MARK;
  int writeHighWaterMark = DEFAULT_WRITE_HIGH_WATER_MARK;
  int backlog = DEFAULT_BACKLOG;
  boolean tcpNoDelay = DEFAULT_TCP_NO_DELAY;
  boolean keepAlive = DEFAULT_KEEP_ALIVE;
  int sendBufferSize;
  int receiveBufferSize;
  Tls tls;
  Transport transport = Transport.fromSystemProperty();
  FiberScheduler scheduler;
  DnsResolver resolver;
  java.net.InetAddress localAddress;

  private SocketOptions() {}

  private SocketOptions copy() {
    try {
      return (SocketOptions) super.clone();
    } catch (CloneNotSupportedException e) {
      throw new AssertionError(e);
    }
  }

  /** @return the defaults */
  public static SocketOptions defaults() {
    SocketOptions d = defaults;
    if (d == null) {
      d = new Builder().build();
      defaults = d;
    }
    return d;
  }

  /** @return a builder starting from the defaults */
  public static Builder builder() {
    return new Builder();
  }

  /** @return a builder starting from these options */
  public Builder toBuilder() {
    return new Builder(this);
  }

  /** @return the connect timeout */
  public Duration connectTimeout() {
    return connectTimeout;
  }

  /** @return the read timeout (zero: none) */
  public Duration readTimeout() {
    return readTimeout;
  }

  /** @return the write timeout (zero: none) */
  public Duration writeTimeout() {
    return writeTimeout;
  }

  /** @return the TLS settings, or null for plain TCP */
  public Tls tls() {
    return tls;
  }

  /** @return the scheduler: the one given, else the current fiber's, else the default */
  public FiberScheduler scheduler() {
    if (scheduler != null) {
      return scheduler;
    }
    io.krill.fibers.Fiber f = io.krill.fibers.Fiber.current();
    return f != null ? f.scheduler() : FiberScheduler.defaultScheduler();
  }

  /** @return the local address a client socket binds before it connects, or null for the OS's choice */
  public java.net.InetAddress localAddress() {
    return localAddress;
  }

  /** @return the transport, with AUTO resolved */
  public Transport transport() {
    return transport.resolve();
  }

  /** Builds {@link SocketOptions}. Not thread-safe. */
  public static final class Builder {
    private final SocketOptions o;

    private Builder() {
      o = new SocketOptions();
    }

    private Builder(SocketOptions from) {
      o = from.copy();
    }

    /** @param timeout how long a connect (and a client's TLS handshake wait) may take, > 0 @return this */
    public Builder connectTimeout(Duration timeout) { o.connectTimeout = Checks.positive("connectTimeout", timeout); return this; }

    /** @param timeout how long one read may wait, zero for forever @return this */
    public Builder readTimeout(Duration timeout) { o.readTimeout = Checks.nonNegative("readTimeout", timeout); return this; }

    /** @param timeout how long one write or flush may wait for room, zero for forever @return this */
    public Builder writeTimeout(Duration timeout) { o.writeTimeout = Checks.nonNegative("writeTimeout", timeout); return this; }

    /** @param linger how long close() lets pending writes drain, zero to close at once @return this */
    public Builder linger(Duration linger) { o.linger = Checks.nonNegative("linger", linger); return this; }

    /** @param bytes how many bytes FiberOutput gathers before writing, > 0 @return this */
    public Builder outputBufferSize(int bytes) { o.outputBufferSize = Checks.positive("outputBufferSize", bytes); return this; }

    /**
     * @param low the writable-again mark, > 0
     * @param high the park-writers mark, >= low
     * @return this
     */
    public Builder writeBufferWaterMark(int low, int high) {
      Checks.positive("writeLowWaterMark", low);
      if (high < low) {
        throw new IllegalArgumentException("writeHighWaterMark: " + high + " (expected: >= writeLowWaterMark " + low + ")");
      }
      o.writeLowWaterMark = low;
      o.writeHighWaterMark = high;
      return this;
    }

    /** @param backlog the server's pending-connection queue, > 0 @return this */
    public Builder backlog(int backlog) { o.backlog = Checks.positive("backlog", backlog); return this; }

    /** @param on TCP_NODELAY @return this */
    public Builder tcpNoDelay(boolean on) { o.tcpNoDelay = on; return this; }

    /** @param on SO_KEEPALIVE @return this */
    public Builder keepAlive(boolean on) { o.keepAlive = on; return this; }

    /** @param bytes SO_SNDBUF, 0 for the OS default @return this */
    public Builder sendBufferSize(int bytes) { o.sendBufferSize = Checks.nonNegative("sendBufferSize", bytes); return this; }

    /** @param bytes SO_RCVBUF, 0 for the OS default @return this */
    public Builder receiveBufferSize(int bytes) { o.receiveBufferSize = Checks.nonNegative("receiveBufferSize", bytes); return this; }

    /** @param tls TLS settings, or null for plain TCP @return this */
    public Builder tls(Tls tls) { o.tls = tls; return this; }

    /** @param transport the transport @return this */
    public Builder transport(Transport transport) { o.transport = Objects.requireNonNull(transport, "transport"); return this; }

    /** @param scheduler the scheduler of the fibers that serve accepted connections @return this */
    public Builder scheduler(FiberScheduler scheduler) { o.scheduler = Objects.requireNonNull(scheduler, "scheduler"); return this; }

    /** @param resolver resolves hostnames for connect; null uses the JDK's resolver on the blocking pool @return this */
    public Builder resolver(DnsResolver resolver) { o.resolver = resolver; return this; }

    /**
     * Sets the source address of client connections: connect binds it (port chosen by the OS)
     * before connecting, so that many clients can spread over several local addresses, e.g.
     * 127.0.0.2, 127.0.0.3, ... toward one loopback server. Servers ignore it.
     *
     * @param address the local address, or null for the OS's choice
     * @return this
     */
    public Builder localAddress(java.net.InetAddress address) { o.localAddress = address; return this; }

    /** @return the options */
    public SocketOptions build() {
      return o.copy();
    }
  }
}
