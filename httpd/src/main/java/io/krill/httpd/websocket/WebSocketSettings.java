package io.krill.httpd.websocket;

import io.krill.fibers.Checks;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * The limits and options of a WebSocket route. Every limit has a {@code DEFAULT_*} constant and is
 * validated when set, naming the setting: {@code "maxFrameBytes: 0 (expected: > 0)"}. Immutable
 * and thread-safe; the builder is not.
 */
public final class WebSocketSettings {
  /** Default: largest frame payload accepted; a larger one closes the socket with 1009. */
  public static final int DEFAULT_MAX_FRAME_BYTES = 64 * 1024;
  /** Default: largest message accepted (all its frames, decompressed); larger closes with 1009. */
  public static final int DEFAULT_MAX_MESSAGE_BYTES = 64 * 1024;
  /** Default: bytes that may wait to be written before {@code send} parks and {@code trySend} refuses. */
  public static final int DEFAULT_SEND_QUEUE_BYTES = 64 * 1024;
  /** Default: how long a socket may see no frame either way before it is closed with 1001. */
  public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofMinutes(5);
  /** Default: how long {@code send} may wait for a peer that does not read. */
  public static final Duration DEFAULT_SEND_TIMEOUT = Duration.ofSeconds(60);
  /** Default: how long {@code close} waits for the peer's Close before it closes the connection. */
  public static final Duration DEFAULT_CLOSE_TIMEOUT = Duration.ofSeconds(5);
  /** Default: permessage-deflate is agreed when the peer offers it. */
  public static final boolean DEFAULT_COMPRESSION = true;
  /** Default: {@code receive} returns whole messages, not frames. */
  public static final boolean DEFAULT_WHOLE_MESSAGES = true;

  private static final WebSocketSettings DEFAULTS = builder().build();

  private final int maxFrameBytes;
  private final int maxMessageBytes;
  private final int sendQueueBytes;
  private final Duration idleTimeout;
  private final Duration sendTimeout;
  private final Duration closeTimeout;
  private final boolean compression;
  private final boolean wholeMessages;
  private final List<String> allowedOrigins;
  private final List<String> subprotocols;

  private WebSocketSettings(Builder b) {
    this.maxFrameBytes = b.maxFrameBytes;
    this.maxMessageBytes = b.maxMessageBytes;
    this.sendQueueBytes = b.sendQueueBytes;
    this.idleTimeout = b.idleTimeout;
    this.sendTimeout = b.sendTimeout;
    this.closeTimeout = b.closeTimeout;
    this.compression = b.compression;
    this.wholeMessages = b.wholeMessages;
    this.allowedOrigins = List.copyOf(b.allowedOrigins);
    this.subprotocols = List.copyOf(b.subprotocols);
  }

  /** @return the settings with every value at its default */
  public static WebSocketSettings defaults() {
    return DEFAULTS;
  }

  /** @return a builder with every value at its default */
  public static Builder builder() {
    return new Builder();
  }

  /** @return the largest frame payload accepted, in bytes */
  public int maxFrameBytes() {
    return maxFrameBytes;
  }

  /** @return the largest message accepted, in bytes */
  public int maxMessageBytes() {
    return maxMessageBytes;
  }

  /** @return the bytes that may wait to be written before sends wait or are refused */
  public int sendQueueBytes() {
    return sendQueueBytes;
  }

  /** @return how long a socket may see no frame either way */
  public Duration idleTimeout() {
    return idleTimeout;
  }

  /** @return how long a send may wait for a peer that does not read */
  public Duration sendTimeout() {
    return sendTimeout;
  }

  /** @return how long a close waits for the peer's Close */
  public Duration closeTimeout() {
    return closeTimeout;
  }

  /** @return true if permessage-deflate is agreed when offered */
  public boolean compression() {
    return compression;
  }

  /** @return true if receive returns whole messages, false for frames */
  public boolean wholeMessages() {
    return wholeMessages;
  }

  /** @return the origins allowed to open a socket (lower case); empty for any */
  public List<String> allowedOrigins() {
    return allowedOrigins;
  }

  /** @return the subprotocols offered, in order of preference; empty for none */
  public List<String> subprotocols() {
    return subprotocols;
  }

  @Override
  public String toString() {
    return "WebSocketSettings[maxFrameBytes=" + maxFrameBytes + ", maxMessageBytes=" + maxMessageBytes
        + ", sendQueueBytes=" + sendQueueBytes + ", idleTimeout=" + idleTimeout + ", sendTimeout=" + sendTimeout
        + ", closeTimeout=" + closeTimeout + ", compression=" + compression + ", wholeMessages=" + wholeMessages
        + ", allowedOrigins=" + allowedOrigins + ", subprotocols=" + subprotocols + "]";
  }

  /** Builds {@link WebSocketSettings}. Not thread-safe. */
  public static final class Builder {
    private int maxFrameBytes = DEFAULT_MAX_FRAME_BYTES;
    private int maxMessageBytes = DEFAULT_MAX_MESSAGE_BYTES;
    private int sendQueueBytes = DEFAULT_SEND_QUEUE_BYTES;
    private Duration idleTimeout = DEFAULT_IDLE_TIMEOUT;
    private Duration sendTimeout = DEFAULT_SEND_TIMEOUT;
    private Duration closeTimeout = DEFAULT_CLOSE_TIMEOUT;
    private boolean compression = DEFAULT_COMPRESSION;
    private boolean wholeMessages = DEFAULT_WHOLE_MESSAGES;
    private final List<String> allowedOrigins = new ArrayList<>();
    private final List<String> subprotocols = new ArrayList<>();

    private Builder() {}

    /**
     * @param bytes the largest frame payload accepted, > 0; a larger frame closes with 1009
     * @return this
     */
    public Builder maxFrameBytes(int bytes) { this.maxFrameBytes = Checks.positive("maxFrameBytes", bytes); return this; }

    /**
     * @param bytes the largest message accepted (all frames, decompressed), > 0; larger closes with 1009
     * @return this
     */
    public Builder maxMessageBytes(int bytes) { this.maxMessageBytes = Checks.positive("maxMessageBytes", bytes); return this; }

    /**
     * @param bytes bytes that may wait to be written before send parks and trySend refuses, > 0
     * @return this
     */
    public Builder sendQueueBytes(int bytes) { this.sendQueueBytes = Checks.positive("sendQueueBytes", bytes); return this; }

    /**
     * @param timeout how long a socket may see no frame either way before it closes with 1001, > 0
     * @return this
     */
    public Builder idleTimeout(Duration timeout) { this.idleTimeout = Checks.positive("idleTimeout", timeout); return this; }

    /**
     * @param timeout how long a send may wait for a peer that does not read, > 0
     * @return this
     */
    public Builder sendTimeout(Duration timeout) { this.sendTimeout = Checks.positive("sendTimeout", timeout); return this; }

    /**
     * @param timeout how long a close waits for the peer's Close, > 0
     * @return this
     */
    public Builder closeTimeout(Duration timeout) { this.closeTimeout = Checks.positive("closeTimeout", timeout); return this; }

    /**
     * @param enabled agree permessage-deflate (RFC 7692) when the peer offers it
     * @return this
     */
    public Builder compression(boolean enabled) { this.compression = enabled; return this; }

    /**
     * @param enabled true: receive returns whole messages (fragments joined, up to maxMessageBytes);
     *     false: receive returns each frame, {@link WebSocketMessage#last()} marking a message's end
     * @return this
     */
    public Builder wholeMessages(boolean enabled) { this.wholeMessages = enabled; return this; }

    /**
     * Only pages from these origins may open a socket (a handshake whose {@code Origin} is
     * another gets 403); a client that sends no {@code Origin} (not a browser) is let in.
     * Without any, every origin may.
     *
     * @param origins e.g. {@code https://example.com}, {@code http://localhost:8080}
     * @return this
     */
    public Builder allowOrigins(String... origins) {
      for (String o : origins) {
        Objects.requireNonNull(o, "origin");
        if (!o.startsWith("http://") && !o.startsWith("https://") && !o.equals("null")) {
          throw Checks.bad("allowedOrigins", o, "scheme://host[:port], e.g. https://example.com");
        }
        allowedOrigins.add(o.toLowerCase(Locale.ROOT));
      }
      return this;
    }

    /**
     * @param protocols subprotocols the route speaks, in order of preference; the first one the
     *     client offers is agreed
     * @return this
     */
    public Builder subprotocols(String... protocols) {
      for (String p : protocols) {
        Objects.requireNonNull(p, "subprotocol");
        if (p.isEmpty() || !p.chars().allMatch(c -> c > 32 && c < 127 && "()<>@,;:\\\"/[]?={}".indexOf(c) < 0)) {
          throw Checks.bad("subprotocols", p, "an HTTP token");
        }
        subprotocols.add(p);
      }
      return this;
    }

    /** @return the settings */
    public WebSocketSettings build() {
      return new WebSocketSettings(this);
    }
  }
}
