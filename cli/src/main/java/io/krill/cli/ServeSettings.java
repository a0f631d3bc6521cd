package io.krill.cli;

import io.krill.config.ConfigSchema;
import io.krill.config.Setting;
import io.krill.config.Settings;
import io.krill.fibers.ExecutionMode;
import io.krill.httpd.HttpServer;
import io.krill.httpd.files.StaticFiles;
import io.krill.httpd.websocket.WebSocketSettings;
import io.krill.httpd.http2.Http2Options;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The settings of {@code krill serve}: every {@link HttpServer.Builder} setting under
 * {@code httpd.}, the static-file handler's under {@code serve.}; defaults are the builders'
 * {@code DEFAULT_*} constants. Immutable; thread-safe.
 */
final class ServeSettings {
  private static final Duration MIN_TIMEOUT = Duration.ofMillis(1);
  private static final long MAX_HEAD_BYTES = 1L << 30;

  static final Setting<Integer> PORT = Setting.ofInt("httpd.port")
      .defaultValue(HttpServer.Builder.DEFAULT_PORT).range(0, 65535)
      .doc("TCP port to listen on; 0 picks a free one").build();
  static final Setting<String> ADDRESS = Setting.ofHost("httpd.address")
      .defaultValue(HttpServer.Builder.DEFAULT_ADDRESS)
      .doc("Address to listen on (0.0.0.0 or :: for every interface)").build();
  static final Setting<ExecutionMode> MODE = Setting.ofEnum("httpd.execution-mode", ExecutionMode.class)
      .flag("--mode").defaultValue(HttpServer.Builder.DEFAULT_MODE)
      .doc("What runs each connection: a fiber, a virtual thread (JDK 21+) or a platform thread").build();
  static final Setting<Long> MAX_REQUEST_LINE = Setting.ofBytes("httpd.limits.max-request-line-bytes")
      .defaultValue((long) HttpServer.Builder.DEFAULT_MAX_REQUEST_LINE_BYTES).range(1L, MAX_HEAD_BYTES)
      .doc("Longest request line; longer gets 414").build();
  static final Setting<Long> MAX_HEADER_BYTES = Setting.ofBytes("httpd.limits.max-header-bytes")
      .defaultValue((long) HttpServer.Builder.DEFAULT_MAX_HEADER_BYTES).range(1L, MAX_HEAD_BYTES)
      .doc("Most bytes of all header lines together; more gets 431").build();
  static final Setting<Integer> MAX_HEADER_COUNT = Setting.ofInt("httpd.limits.max-header-count")
      .defaultValue(HttpServer.Builder.DEFAULT_MAX_HEADER_COUNT).atLeast(1)
      .doc("Most header fields; more gets 431").build();
  static final Setting<Long> MAX_BODY_BYTES = Setting.ofBytes("httpd.limits.max-body-bytes")
      .defaultValue(HttpServer.Builder.DEFAULT_MAX_BODY_BYTES).atLeast(0L)
      .doc("Largest request body; larger gets 413").build();
  static final Setting<Integer> MAX_CONNECTIONS = Setting.ofInt("httpd.limits.max-connections")
      .defaultValue(HttpServer.Builder.DEFAULT_MAX_CONNECTIONS).atLeast(1)
      .doc("Most connections open at once; then the oldest idle ones are closed, or 503 if none is idle").build();
  static final Setting<Integer> BACKLOG = Setting.ofInt("httpd.limits.backlog")
      .defaultValue(HttpServer.Builder.DEFAULT_BACKLOG).atLeast(1)
      .doc("Connections the kernel queues before the server accepts them").build();
  static final Setting<Long> SEND_BUFFER = Setting.ofBytes("httpd.limits.send-buffer-bytes")
      .defaultValue((long) HttpServer.Builder.DEFAULT_SEND_BUFFER_BYTES)
      .range(0L, (long) HttpServer.Builder.MAX_SEND_BUFFER_BYTES)
      .doc("Each connection's kernel send buffer (SO_SNDBUF); 0 leaves it to the kernel's autotuning").build();
  static final Setting<Duration> HEADER_READ_TIMEOUT = Setting.ofDuration("httpd.timeouts.header-read")
      .defaultValue(HttpServer.Builder.DEFAULT_HEADER_READ_TIMEOUT).atLeast(MIN_TIMEOUT)
      .doc("How long a request head may take once its first byte came; then 408").build();
  static final Setting<Duration> IDLE_TIMEOUT = Setting.ofDuration("httpd.timeouts.idle")
      .defaultValue(HttpServer.Builder.DEFAULT_IDLE_TIMEOUT).atLeast(MIN_TIMEOUT)
      .doc("How long a connection may idle between requests or within a body").build();
  static final Setting<Duration> WRITE_TIMEOUT = Setting.ofDuration("httpd.timeouts.write")
      .defaultValue(HttpServer.Builder.DEFAULT_WRITE_TIMEOUT).atLeast(MIN_TIMEOUT)
      .doc("How long a response write may wait for a client that does not read").build();
  static final Setting<Duration> SHUTDOWN_GRACE = Setting.ofDuration("httpd.timeouts.shutdown-grace")
      .defaultValue(HttpServer.Builder.DEFAULT_SHUTDOWN_GRACE).atLeast(Duration.ZERO)
      .doc("How long requests in flight may finish after a stop signal").build();
  /** {@code krill serve}'s quiet time before it gives memory back (the builder's default is never). */
  static final Duration DEFAULT_IDLE_COLLECTION = Duration.ofSeconds(30);
  static final Setting<Duration> IDLE_COLLECTION = Setting.ofDuration("httpd.idle-collection")
      .defaultValue(DEFAULT_IDLE_COLLECTION).atLeast(Duration.ZERO)
      .check(d -> d.isZero() || d.compareTo(Duration.ofSeconds(1)) >= 0, "0 (off) or at least 1s")
      .doc("After this long with no request, new connection, byte received or open WebSocket: one full collection and"
          + " C-heap trim give the memory of the last burst back; 0 turns it off").build();
  static final Setting<Path> TLS_CERT = Setting.ofPath("httpd.tls.cert-file")
      .flag("--tls-cert").optional().check(TlsFiles::isCertificateFile, "a PEM X.509 certificate file")
      .doc("PEM certificate chain, leaf first; turns on TLS with httpd.tls.key-file").build();
  static final Setting<Path> TLS_KEY = Setting.ofPath("httpd.tls.key-file")
      .flag("--tls-key").optional().check(TlsFiles::isPrivateKeyFile, "a PEM PKCS#8 private key file")
      .doc("PEM PKCS#8 private key (BEGIN PRIVATE KEY) of the certificate").build();
  static final Setting<Boolean> TLS_SELF_SIGNED = Setting.ofBoolean("httpd.tls.self-signed")
      .flag("--tls-self-signed").defaultValue(false).doc("TLS with a throw-away self-signed certificate for localhost (development only)").build();
  static final Setting<Boolean> ACCESS_LOG = Setting.ofBoolean("httpd.access-log")
      .defaultValue(false).doc("One line per response to the SLF4J logger io.krill.httpd.access").build();
  static final Setting<Boolean> HTTP2 = Setting.ofBoolean("httpd.http2.enabled")
      .flag("--http2").defaultValue(false)
      .doc("Serve HTTP/2 too: h2 by ALPN with TLS, h2c (prior knowledge and Upgrade: h2c) without").build();
  static final Setting<Boolean> HTTP2_CLEARTEXT = Setting.ofBoolean("httpd.http2.cleartext")
      .defaultValue(Http2Options.DEFAULT_CLEARTEXT).doc("With HTTP/2 on and TLS off: serve h2c").build();
  static final Setting<Integer> HTTP2_MAX_STREAMS = Setting.ofInt("httpd.http2.max-concurrent-streams")
      .defaultValue(Http2Options.DEFAULT_MAX_CONCURRENT_STREAMS).atLeast(1)
      .doc("Streams a client may have open at once; more are refused (REFUSED_STREAM)").build();
  static final Setting<Long> HTTP2_MAX_HEADER_LIST = Setting.ofBytes("httpd.http2.max-header-list-bytes")
      .defaultValue((long) Http2Options.DEFAULT_MAX_HEADER_LIST_BYTES).range(1024L, (long) Integer.MAX_VALUE)
      .doc("Largest decoded header list of a request; larger gets 431, far larger GOAWAY").build();
  static final Setting<Long> HTTP2_MAX_FRAME = Setting.ofBytes("httpd.http2.max-frame-bytes")
      .defaultValue((long) Http2Options.DEFAULT_MAX_FRAME_BYTES)
      .range((long) Http2Options.DEFAULT_MAX_FRAME_BYTES, (long) Http2Options.MAX_FRAME_BYTES_LIMIT)
      .doc("Largest frame payload accepted").build();
  static final Setting<Long> HTTP2_INITIAL_WINDOW = Setting.ofBytes("httpd.http2.initial-window-bytes")
      .defaultValue((long) Http2Options.DEFAULT_INITIAL_WINDOW_BYTES).range(1L, (long) Http2Options.MAX_WINDOW_BYTES_LIMIT)
      .doc("Each stream's receive window: what a client may send ahead of the handler reading it").build();
  static final Setting<Integer> HTTP2_MAX_RESETS = Setting.ofInt("httpd.http2.max-resets-per-window")
      .defaultValue(Http2Options.DEFAULT_MAX_RESETS_PER_WINDOW).atLeast(1)
      .doc("RST_STREAM frames a client may send per reset window; more: GOAWAY ENHANCE_YOUR_CALM (rapid reset)").build();
  static final Setting<Duration> HTTP2_RESET_WINDOW = Setting.ofDuration("httpd.http2.reset-window")
      .defaultValue(Http2Options.DEFAULT_RESET_WINDOW).range(Duration.ofSeconds(1), Duration.ofHours(1))
      .check(d -> d.toNanos() % 1_000_000_000L == 0, "whole seconds")
      .doc("The window in which RST_STREAM frames are counted").build();
  static final Setting<Integer> HTTP2_MAX_CONTINUATIONS = Setting.ofInt("httpd.http2.max-continuation-frames")
      .defaultValue(Http2Options.DEFAULT_MAX_CONTINUATION_FRAMES).atLeast(1)
      .doc("CONTINUATION frames one header block may span; more: GOAWAY ENHANCE_YOUR_CALM").build();
  static final Setting<Duration> HTTP2_HANDSHAKE_TIMEOUT = Setting.ofDuration("httpd.http2.handshake-timeout")
      .defaultValue(Http2Options.DEFAULT_HANDSHAKE_TIMEOUT).atLeast(MIN_TIMEOUT)
      .doc("How long a new connection may take to show its protocol (TLS handshake, preface, first bytes)").build();
  static final Setting<Path> ROOT = Setting.ofPath("serve.root")
      .defaultValue(Path.of(".")).check(Files::isDirectory, "an existing directory")
      .doc("Directory whose files are served").build();
  static final Setting<String> INDEX_FILE = Setting.ofString("serve.index-file")
      .defaultValue(StaticFiles.Builder.DEFAULT_INDEX_FILE)
      .check(n -> !n.isEmpty() && n.indexOf('/') < 0 && n.indexOf('\\') < 0 && !n.equals("..") && !n.equals("."),
          "a file name without separators")
      .doc("File answered for a directory").build();
  static final Setting<Boolean> GZIP = Setting.ofBoolean("serve.gzip")
      .defaultValue(StaticFiles.Builder.DEFAULT_GZIP).doc("Gzip text files when the client accepts it").build();
  static final Setting<Integer> GZIP_LEVEL = Setting.ofInt("serve.gzip-level")
      .defaultValue(StaticFiles.Builder.DEFAULT_GZIP_LEVEL).range(1, 9)
      .doc("Deflate level of gzip responses: 1 fastest, 9 smallest").build();
  static final Setting<Long> GZIP_CACHE_BYTES = Setting.ofBytes("serve.gzip-cache-bytes")
      .defaultValue(StaticFiles.Builder.DEFAULT_GZIP_CACHE_BYTES).atLeast(0L)
      .doc("Memory for gzipped files, each compressed once; 0 compresses per response").build();
  static final Setting<Boolean> GZIP_STATIC = Setting.ofBoolean("serve.gzip-static")
      .defaultValue(StaticFiles.Builder.DEFAULT_GZIP_STATIC)
      .doc("Answer with name.gz next to a file when the client accepts gzip").build();
  static final Setting<Long> FILE_CACHE_BYTES = Setting.ofBytes("serve.file-cache-bytes")
      .defaultValue(StaticFiles.Builder.DEFAULT_FILE_CACHE_BYTES).atLeast(0L)
      .doc("Memory for files' bytes (up to serve.file-cache-max-file-bytes each), read once per version;"
          + " size and mtime are checked per request").build();
  static final Setting<Long> FILE_CACHE_MAX_FILE_BYTES = Setting.ofBytes("serve.file-cache-max-file-bytes")
      .defaultValue(StaticFiles.Builder.DEFAULT_FILE_CACHE_MAX_FILE_BYTES)
      .range(0L, StaticFiles.Builder.MAX_FILE_CACHE_MAX_FILE_BYTES)
      .doc("Largest file the file cache holds (above " + StaticFiles.Builder.FILE_CACHE_MAX_FILE_BYTES / 1024
          + "KiB in direct memory, sent without a read per response over TLS and HTTP/2)").build();
  static final Setting<Boolean> HIDDEN_FILES = Setting.ofBoolean("serve.hidden-files")
      .defaultValue(StaticFiles.Builder.DEFAULT_HIDDEN_FILES)
      .doc("Serve paths with a segment starting with . (.git, .env)").build();

  static final Setting<Boolean> DEMO = Setting.ofBoolean("serve.demo")
      .flag("--demo").defaultValue(false)
      .doc("Also serve a chat demo: its page at " + ChatDemo.PAGE + ", its WebSocket at " + ChatDemo.SOCKET).build();
  static final Setting<Long> WS_MAX_FRAME = Setting.ofBytes("httpd.websocket.max-frame-bytes")
      .defaultValue((long) WebSocketSettings.DEFAULT_MAX_FRAME_BYTES).range(1L, MAX_HEAD_BYTES)
      .doc("Largest WebSocket frame payload; larger closes the socket with 1009").build();
  static final Setting<Long> WS_MAX_MESSAGE = Setting.ofBytes("httpd.websocket.max-message-bytes")
      .defaultValue((long) WebSocketSettings.DEFAULT_MAX_MESSAGE_BYTES).range(1L, MAX_HEAD_BYTES)
      .doc("Largest WebSocket message (all frames, decompressed); larger closes with 1009").build();
  static final Setting<Long> WS_SEND_QUEUE = Setting.ofBytes("httpd.websocket.send-queue-bytes")
      .defaultValue((long) WebSocketSettings.DEFAULT_SEND_QUEUE_BYTES).range(1L, MAX_HEAD_BYTES)
      .doc("Bytes a WebSocket may have waiting to be written before send waits and trySend drops").build();
  static final Setting<Duration> WS_IDLE_TIMEOUT = Setting.ofDuration("httpd.websocket.idle-timeout")
      .defaultValue(WebSocketSettings.DEFAULT_IDLE_TIMEOUT).atLeast(MIN_TIMEOUT)
      .doc("How long a WebSocket may see no frame either way; then it closes with 1001").build();
  static final Setting<Duration> WS_SEND_TIMEOUT = Setting.ofDuration("httpd.websocket.send-timeout")
      .defaultValue(WebSocketSettings.DEFAULT_SEND_TIMEOUT).atLeast(MIN_TIMEOUT)
      .doc("How long a WebSocket send may wait for a peer that does not read").build();
  static final Setting<Boolean> WS_COMPRESSION = Setting.ofBoolean("httpd.websocket.compression")
      .defaultValue(WebSocketSettings.DEFAULT_COMPRESSION)
      .doc("Agree permessage-deflate when a WebSocket client offers it").build();

  static final ConfigSchema SCHEMA = ConfigSchema.builder()
      .add(PORT, ADDRESS, MODE, MAX_REQUEST_LINE, MAX_HEADER_BYTES, MAX_HEADER_COUNT, MAX_BODY_BYTES,
          MAX_CONNECTIONS, BACKLOG, SEND_BUFFER, HEADER_READ_TIMEOUT, IDLE_TIMEOUT, WRITE_TIMEOUT, SHUTDOWN_GRACE,
          IDLE_COLLECTION, TLS_CERT, TLS_KEY, TLS_SELF_SIGNED, ACCESS_LOG, HTTP2, HTTP2_CLEARTEXT, HTTP2_MAX_STREAMS,
          HTTP2_MAX_HEADER_LIST, HTTP2_MAX_FRAME, HTTP2_INITIAL_WINDOW, HTTP2_MAX_RESETS, HTTP2_RESET_WINDOW,
          HTTP2_MAX_CONTINUATIONS, HTTP2_HANDSHAKE_TIMEOUT, ROOT, INDEX_FILE, GZIP, GZIP_LEVEL, GZIP_CACHE_BYTES,
          GZIP_STATIC, FILE_CACHE_BYTES, FILE_CACHE_MAX_FILE_BYTES, HIDDEN_FILES)
      .add(DEMO, WS_MAX_FRAME, WS_MAX_MESSAGE, WS_SEND_QUEUE, WS_IDLE_TIMEOUT, WS_SEND_TIMEOUT, WS_COMPRESSION)
      .rule(TLS_KEY, s -> s.find(TLS_KEY).isPresent() == s.find(TLS_CERT).isPresent(),
          "set together with httpd.tls.cert-file")
      .rule(TLS_SELF_SIGNED, s -> !s.get(TLS_SELF_SIGNED) || s.find(TLS_CERT).isEmpty(),
          "false when httpd.tls.cert-file is set")
      .rule(MODE, s -> s.get(MODE) != ExecutionMode.VIRTUAL || Runtime.version().feature() >= 21,
          "fiber or platform: virtual threads need JDK 21 or newer, this is " + Runtime.version().feature())
      .build();

  /** The settings that have a flag of their own, in help order; every setting has {@code --set KEY=VALUE}. */
  static final ConfigSchema FLAGGED = ConfigSchema.builder()
      .add(ROOT, PORT, ADDRESS, MODE, TLS_CERT, TLS_KEY, TLS_SELF_SIGNED, ACCESS_LOG, HTTP2, DEMO)
      .build();

  private ServeSettings() {}

  /** Copies every server setting except TLS onto a builder. */
  static HttpServer.Builder apply(Settings s, HttpServer.Builder b) {
    return b.port(s.get(PORT))
        .address(s.get(ADDRESS))
        .mode(s.get(MODE))
        .maxRequestLineBytes(Math.toIntExact(s.get(MAX_REQUEST_LINE)))
        .maxHeaderBytes(Math.toIntExact(s.get(MAX_HEADER_BYTES)))
        .maxHeaderCount(s.get(MAX_HEADER_COUNT))
        .maxBodyBytes(s.get(MAX_BODY_BYTES))
        .maxConnections(s.get(MAX_CONNECTIONS))
        .backlog(s.get(BACKLOG))
        .sendBufferBytes(Math.toIntExact(s.get(SEND_BUFFER)))
        .headerReadTimeout(s.get(HEADER_READ_TIMEOUT))
        .idleTimeout(s.get(IDLE_TIMEOUT))
        .writeTimeout(s.get(WRITE_TIMEOUT))
        .shutdownGrace(s.get(SHUTDOWN_GRACE))
        .idleCollection(s.get(IDLE_COLLECTION))
        .accessLog(s.get(ACCESS_LOG))
        .http2(http2(s));
  }

  /** @return the HTTP/2 options, or null when HTTP/2 is off */
  static Http2Options http2(Settings s) {
    if (!s.get(HTTP2)) {
      return null;
    }
    return Http2Options.builder()
        .cleartext(s.get(HTTP2_CLEARTEXT))
        .maxConcurrentStreams(s.get(HTTP2_MAX_STREAMS))
        .maxHeaderListBytes(Math.toIntExact(s.get(HTTP2_MAX_HEADER_LIST)))
        .maxFrameBytes(Math.toIntExact(s.get(HTTP2_MAX_FRAME)))
        .initialWindowBytes(Math.toIntExact(s.get(HTTP2_INITIAL_WINDOW)))
        .maxResetsPerWindow(s.get(HTTP2_MAX_RESETS))
        .resetWindow(s.get(HTTP2_RESET_WINDOW))
        .maxContinuationFrames(s.get(HTTP2_MAX_CONTINUATIONS))
        .handshakeTimeout(s.get(HTTP2_HANDSHAKE_TIMEOUT))
        .build();
  }

  /** The WebSocket limits the settings describe (for the routes of {@code --demo}). */
  static WebSocketSettings websocket(Settings s) {
    return WebSocketSettings.builder()
        .maxFrameBytes(Math.toIntExact(s.get(WS_MAX_FRAME)))
        .maxMessageBytes(Math.toIntExact(s.get(WS_MAX_MESSAGE)))
        .sendQueueBytes(Math.toIntExact(s.get(WS_SEND_QUEUE)))
        .idleTimeout(s.get(WS_IDLE_TIMEOUT))
        .sendTimeout(s.get(WS_SEND_TIMEOUT))
        .compression(s.get(WS_COMPRESSION))
        .build();
  }

  /** The static-file handler the settings describe. */
  static StaticFiles.Builder files(Settings s) {
    return StaticFiles.builder(s.get(ROOT))
        .indexFile(s.get(INDEX_FILE))
        .gzip(s.get(GZIP))
        .gzipLevel(s.get(GZIP_LEVEL))
        .gzipCacheBytes(s.get(GZIP_CACHE_BYTES))
        .gzipStatic(s.get(GZIP_STATIC))
        .fileCacheBytes(s.get(FILE_CACHE_BYTES))
        .fileCacheMaxFileBytes(s.get(FILE_CACHE_MAX_FILE_BYTES))
        .hiddenFiles(s.get(HIDDEN_FILES));
  }
}
