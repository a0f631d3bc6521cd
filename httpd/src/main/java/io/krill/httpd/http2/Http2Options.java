package io.krill.httpd.http2;

import io.krill.fibers.Checks;
import java.time.Duration;

/**
 * HTTP/2 settings and limits of an {@link io.krill.httpd.HttpServer}. Every limit has a
 * {@code DEFAULT_*} constant and is validated when set, naming the setting:
 * {@code "maxConcurrentStreams: 0 (expected: > 0)"}.
 *
 * <pre>{@code
 * HttpServer.builder().tls(tls).http2(Http2Options.builder().maxConcurrentStreams(50).build())
 * }</pre>
 *
 * <p>With TLS, h2 is offered by ALPN next to http/1.1. Without TLS, h2c is served with prior
 * knowledge and by {@code Upgrade: h2c} when {@link Builder#cleartext(boolean)} is on (the
 * default). Immutable and thread-safe.
 */
public final class Http2Options {
  /** Default: streams a client may have open at once (SETTINGS_MAX_CONCURRENT_STREAMS); more are refused with REFUSED_STREAM. */
  public static final int DEFAULT_MAX_CONCURRENT_STREAMS = 100;
  /** Default: the largest decoded header list in bytes (SETTINGS_MAX_HEADER_LIST_SIZE); larger gets 431 or, far larger, GOAWAY. */
  public static final int DEFAULT_MAX_HEADER_LIST_BYTES = 16384;
  /** Default: the largest frame payload the server accepts (SETTINGS_MAX_FRAME_SIZE), the protocol's minimum. */
  public static final int DEFAULT_MAX_FRAME_BYTES = 16384;
  /** Default: each stream's receive window in bytes (SETTINGS_INITIAL_WINDOW_SIZE), the protocol's default. */
  public static final int DEFAULT_INITIAL_WINDOW_BYTES = 65535;
  /** Default: RST_STREAM frames a client may send per {@link #DEFAULT_RESET_WINDOW} before GOAWAY ENHANCE_YOUR_CALM (rapid reset). */
  public static final int DEFAULT_MAX_RESETS_PER_WINDOW = 200;
  /** Default: the window in which RST_STREAM frames are counted. */
  public static final Duration DEFAULT_RESET_WINDOW = Duration.ofSeconds(30);
  /** Default: CONTINUATION frames one header block may span before GOAWAY ENHANCE_YOUR_CALM. */
  public static final int DEFAULT_MAX_CONTINUATION_FRAMES = 16;
  /** Default: how long a new connection may take to show its protocol (TLS handshake, preface or first request bytes). */
  public static final Duration DEFAULT_HANDSHAKE_TIMEOUT = Duration.ofSeconds(10);
  /** Default: whether h2c (cleartext HTTP/2) is served on a server without TLS. */
  public static final boolean DEFAULT_CLEARTEXT = true;

  /** Largest SETTINGS_MAX_FRAME_SIZE the protocol allows (RFC 9113 section 6.5.2). */
  public static final int MAX_FRAME_BYTES_LIMIT = (1 << 24) - 1;
  /** Largest SETTINGS_INITIAL_WINDOW_SIZE the protocol allows. */
  public static final int MAX_WINDOW_BYTES_LIMIT = Integer.MAX_VALUE;

  private final int maxConcurrentStreams;
  private final int maxHeaderListBytes;
  private final int maxFrameBytes;
  private final int initialWindowBytes;
  private final int maxResetsPerWindow;
  private final Duration resetWindow;
  private final int maxContinuationFrames;
  private final Duration handshakeTimeout;
  private final boolean cleartext;

  private Http2Options(Builder b) {
    this.maxConcurrentStreams = b.maxConcurrentStreams;
    this.maxHeaderListBytes = b.maxHeaderListBytes;
    this.maxFrameBytes = b.maxFrameBytes;
    this.initialWindowBytes = b.initialWindowBytes;
    this.maxResetsPerWindow = b.maxResetsPerWindow;
    this.resetWindow = b.resetWindow;
    this.maxContinuationFrames = b.maxContinuationFrames;
    this.handshakeTimeout = b.handshakeTimeout;
    this.cleartext = b.cleartext;
  }

  /** @return a builder with every setting at its {@code DEFAULT_*} value */
  public static Builder builder() {
    return new Builder();
  }

  /** @return the settings at their defaults */
  public static Http2Options defaults() {
    return builder().build();
  }

  /** @return streams a client may have open at once */
  public int maxConcurrentStreams() { return maxConcurrentStreams; }

  /** @return the largest decoded header list in bytes */
  public int maxHeaderListBytes() { return maxHeaderListBytes; }

  /** @return the largest frame payload accepted */
  public int maxFrameBytes() { return maxFrameBytes; }

  /** @return each stream's receive window in bytes */
  public int initialWindowBytes() { return initialWindowBytes; }

  /** @return RST_STREAM frames allowed per {@link #resetWindow()} */
  public int maxResetsPerWindow() { return maxResetsPerWindow; }

  /** @return the window in which RST_STREAM frames are counted */
  public Duration resetWindow() { return resetWindow; }

  /** @return CONTINUATION frames one header block may span */
  public int maxContinuationFrames() { return maxContinuationFrames; }

  /** @return how long a new connection may take to show its protocol */
  public Duration handshakeTimeout() { return handshakeTimeout; }

  /** @return true if h2c is served on a server without TLS */
  public boolean cleartext() { return cleartext; }

  @Override
  public String toString() {
    return "Http2Options[maxConcurrentStreams=" + maxConcurrentStreams + ", maxHeaderListBytes=" + maxHeaderListBytes
        + ", maxFrameBytes=" + maxFrameBytes + ", initialWindowBytes=" + initialWindowBytes
        + ", maxResetsPerWindow=" + maxResetsPerWindow + ", resetWindow=" + Checks.format(resetWindow)
        + ", maxContinuationFrames=" + maxContinuationFrames + ", handshakeTimeout=" + Checks.format(handshakeTimeout)
        + ", cleartext=" + cleartext + "]";
  }

  /**
   * Builds {@link Http2Options}; each setter validates its argument.
   *
   * <p>Threading: not thread-safe; configure on one thread, then {@link #build()}.
   */
  public static final class Builder {
    private int maxConcurrentStreams = DEFAULT_MAX_CONCURRENT_STREAMS;
    private int maxHeaderListBytes = DEFAULT_MAX_HEADER_LIST_BYTES;
    private int maxFrameBytes = DEFAULT_MAX_FRAME_BYTES;
    private int initialWindowBytes = DEFAULT_INITIAL_WINDOW_BYTES;
    private int maxResetsPerWindow = DEFAULT_MAX_RESETS_PER_WINDOW;
    private Duration resetWindow = DEFAULT_RESET_WINDOW;
    private int maxContinuationFrames = DEFAULT_MAX_CONTINUATION_FRAMES;
    private Duration handshakeTimeout = DEFAULT_HANDSHAKE_TIMEOUT;
    private boolean cleartext = DEFAULT_CLEARTEXT;

    Builder() {}

    /**
     * @param streams streams a client may have open at once, > 0; more are refused (RST_STREAM REFUSED_STREAM)
     * @return this
     */
    public Builder maxConcurrentStreams(int streams) { this.maxConcurrentStreams = Checks.positive("maxConcurrentStreams", streams); return this; }

    /**
     * @param bytes the largest decoded header list, >= 1024; a larger request gets 431, a far larger one GOAWAY
     * @return this
     */
    public Builder maxHeaderListBytes(int bytes) { this.maxHeaderListBytes = Checks.inRange("maxHeaderListBytes", bytes, 1024, Integer.MAX_VALUE); return this; }

    /**
     * @param bytes the largest frame payload accepted, 16384..16777215; larger is a FRAME_SIZE_ERROR
     * @return this
     */
    public Builder maxFrameBytes(int bytes) { this.maxFrameBytes = Checks.inRange("maxFrameBytes", bytes, DEFAULT_MAX_FRAME_BYTES, MAX_FRAME_BYTES_LIMIT); return this; }

    /**
     * @param bytes each stream's receive window, 1..2147483647: what a client may send ahead of the handler reading it
     * @return this
     */
    public Builder initialWindowBytes(int bytes) { this.initialWindowBytes = Checks.positive("initialWindowBytes", bytes); return this; }

    /**
     * @param resets RST_STREAM frames a client may send per reset window, > 0; more: GOAWAY ENHANCE_YOUR_CALM
     * @return this
     */
    public Builder maxResetsPerWindow(int resets) { this.maxResetsPerWindow = Checks.positive("maxResetsPerWindow", resets); return this; }

    /**
     * @param window the window in which RST_STREAM frames are counted, 1 s..1 h, whole seconds
     * @return this
     */
    public Builder resetWindow(Duration window) {
      Checks.inRange("resetWindow", window, Duration.ofSeconds(1), Duration.ofHours(1));
      if (window.toNanos() % 1_000_000_000L != 0) {
        throw Checks.bad("resetWindow", Checks.format(window), "whole seconds");
      }
      this.resetWindow = window;
      return this;
    }

    /**
     * @param frames CONTINUATION frames one header block may span, > 0; more: GOAWAY ENHANCE_YOUR_CALM
     * @return this
     */
    public Builder maxContinuationFrames(int frames) { this.maxContinuationFrames = Checks.positive("maxContinuationFrames", frames); return this; }

    /**
     * @param timeout how long a new connection may take to show its protocol, > 0
     * @return this
     */
    public Builder handshakeTimeout(Duration timeout) { this.handshakeTimeout = Checks.positive("handshakeTimeout", timeout); return this; }

    /**
     * @param enabled serve h2c (prior knowledge and {@code Upgrade: h2c}) on a server without TLS
     * @return this
     */
    public Builder cleartext(boolean enabled) { this.cleartext = enabled; return this; }

    /** @return the options */
    public Http2Options build() {
      return new Http2Options(this);
    }
  }
}
