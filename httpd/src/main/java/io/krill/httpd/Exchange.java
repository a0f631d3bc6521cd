package io.krill.httpd;

import io.krill.fibers.Checks;
import io.krill.fibers.FiberCancelledException;
import io.krill.fibers.Suspendable;
import io.krill.httpd.internal.body.BufferedBody;
import io.krill.netio.FiberInput;
import io.krill.netio.FiberOutput;
import io.krill.netio.spi.ByteSink;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.DefaultHeaders;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpHeadersFactory;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.EmptyHttpHeaders;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One request and its response: checks the head, routes, runs the handler, and finishes the
 * response and the request body so the connection can serve the next request. Lives on the
 * connection's strand only.
 */
final class Exchange implements Request, Response, ByteSink, BufferedBody {
  /*
   * Implementation notes.
   *
   * One object is the request, the response and the streamed response's byte sink, so an
   * exchange allocates little besides Netty's own messages; the request body (RequestBody) is
   * made only when the handler reads it or a body must be drained. The head's conformance
   * checks are Conformance's, the request target's parsing RequestTarget's, file bodies
   * FileBodies'.
   *
   * Flushing: a response is written as one message (head and body together for send()) with a
   * void promise and flushed only when no further decoded request head is waiting; pipelined
   * requests therefore share one flush, and the last response of a batch flushes them all.
   *
   * The body: Netty emits exactly one LastHttpContent per request, so the connection can serve
   * the next request only once the body was read to its end. A handler that did not read it
   * leaves that to finish(), which discards the rest (bounded by maxBodyBytes), unless the
   * client waits for 100 Continue, in which case the connection is closed instead. A body that
   * failed (bad framing, too large, stalled) leaves the stream position undefined, so the
   * connection is always closed after it.
   */
  private static final Logger LOG = LoggerFactory.getLogger(HttpServer.class);
  private static final Logger ACCESS = LoggerFactory.getLogger("io.krill.httpd.access");
  private static final int OUTPUT_BUFFER_SIZE = 8192;
  private static final io.netty.util.AsciiString TEXT_PLAIN_UTF8 = io.netty.util.AsciiString.cached("text/plain; charset=utf-8");

  private static final DefaultHeaders.NameValidator<CharSequence> NAME_VALIDATOR =
      DefaultHttpHeadersFactory.headersFactory().getNameValidator();

  private final HttpConnection conn;
  private final ServerCore server;
  private final HttpRequest head;
  private final long startNanos;
  private Router.Match match;
  private String path;
  private Map<String, List<String>> query;

  // request body
  private int verdict; // Conformance's: NO_BODY, BODY or BODY_AFTER_CONTINUE
  private RequestBody body;

  // response
  private int status = 200;
  private HttpHeaders headers;
  private boolean committed;
  private boolean headOnly;
  private boolean chunked;
  private boolean closeAfter;
  private long declaredLength = -1;
  private long bodySent;
  private FiberOutput output;
  private boolean finishing;
  /** Set when the connection should be half-closed and drained before closing (error responses). */
  boolean lingerOnClose;
  /** Set when an upgrade handler (a WebSocket route) took the connection over: no response follows, the connection ends. */
  private boolean upgraded;
  /** Set once the exchange is over: a handler that kept the request or response can no longer touch the connection. */
  private boolean over;

  Exchange(HttpConnection conn, HttpRequest head) {
    this.conn = conn;
    this.server = conn.server;
    this.head = head;
    this.startNanos = server.accessLog ? System.nanoTime() : 0; // only the access log reads it
  }

  // ------------------------------------------------------------------ the exchange

  /** Serves the request. May suspend. @return true if the connection may serve another */
  boolean run() throws Suspendable {
    server.stats.add(conn.statsCell(), HttpServerStats.REQUESTS, 1);
    headOnly = head.method() == io.netty.handler.codec.http.HttpMethod.HEAD;
    try {
      verdict = Conformance.check(head, server.maxHeaderCount, server.maxBodyBytes, server.router,
          conn.channel().remoteAddress());
      if (verdict > Conformance.BODY_AFTER_CONTINUE) {
        sendError(verdict);
        return false;
      }
      closeAfter = !keepAlive() || server.shuttingDown;
      try {
        invoke();
        if (upgraded) {
          return false; // the connection was a WebSocket and is closed now
        }
      } catch (Throwable t) {
        if (!handleFailure(t)) {
          return false;
        }
      }
      return finish();
    } finally {
      if (body != null) {
        body.close();
      }
      if (output != null) {
        output.close();
      }
      over = true;
    }
  }

  void checkNotOver() {
    if (over) {
      throw new IllegalStateException(head.method() + " " + head.uri()
          + ": the exchange is over (expected: use request and response only inside Handler.handle)");
    }
  }

  private void invoke() throws Exception, Suspendable {
    match = server.router.match(head.method().name(), RequestTarget.rawPath(head.uri()));
    if (match == null) {
      Handler fallback = server.fallback;
      if (fallback != null) {
        fallback.handle(this, this);
      } else {
        status(404).send("404 Not Found\n");
      }
    } else if (match.route == null) {
      status(405).header("Allow", match.allow).send("405 Method Not Allowed\n");
    } else if (match.route.handler() instanceof UpgradeHandler && !conn.http2()) {
      // a taken-over connection's traffic passes no counter of the server: count it as activity
      server.takeovers.increment();
      try {
        upgraded = ((UpgradeHandler) match.route.handler()).upgrade(this, this, conn.channel(), head, "connection");
      } finally {
        server.takeovers.decrement();
      }
    } else {
      // also an upgrade route on HTTP/2: a stream is never taken over, the route answers it as a request
      match.route.handler().handle(this, this);
    }
  }

  /** @return true if the connection can go on (the failure was answered cleanly) */
  private boolean handleFailure(Throwable t) throws Suspendable {
    if (t instanceof FiberCancelledException) {
      throw (FiberCancelledException) t;
    }
    int bodyFailure = body != null ? body.failure() : 0;
    if (bodyFailure != 0) {
      LOG.debug("request body failed: {} {}: {}", head.method(), head.uri(), t.toString());
      if (!committed) {
        sendError(bodyFailure);
      }
      lingerOnClose = true;
      return false;
    }
    if (conn.failure() != null || !conn.channel().isActive()) {
      LOG.debug("connection lost during {} {}: {}", head.method(), head.uri(), t.toString());
      return false;
    }
    LOG.error("handler failed: {} {} {}", head.method(), head.uri(), head.protocolVersion(), t);
    if (committed) {
      return false; // the client got part of a response: closing is the only honest end
    }
    headers = null;
    closeAfter = true;
    sendError(500);
    return false;
  }

  /*
   * A body that missed its declared length is a handler's bug, worth one WARN; a server that
   * cuts bodies on purpose (a test web's truncation trap) would log one per page, so the later
   * ones go to DEBUG with their running count.
   */
  private void bodyMismatch() {
    long n = server.shortBodies.incrementAndGet();
    if (n == 1) {
      LOG.warn("{} {}: the handler declared Content-Length {} but wrote {} bytes; closing the connection"
          + " (later such responses of this server are logged at DEBUG)", head.method(), head.uri(), declaredLength, bodySent);
    } else {
      LOG.debug("{} {}: the handler declared Content-Length {} but wrote {} bytes; closing the connection ({} so far)",
          head.method(), head.uri(), declaredLength, bodySent, n);
    }
  }

  /* Ends the response and the request body; @return true if the connection may go on. */
  private boolean finish() throws Suspendable {
    try {
      if (!committed) {
        send(new byte[0]);
      } else if (output != null) {
        finishing = true;
        output.flush();
        output.close();
        boolean flush = flushNow();
        conn.write(LastHttpContent.EMPTY_LAST_CONTENT, flush);
        if (flush) {
          conn.awaitWritable();
        }
        if (declaredLength >= 0 && bodySent != declaredLength && !headOnly) {
          bodyMismatch();
          closeAfter = true;
        }
      }
      accessLog();
      if (body != null && body.failure() != 0) {
        lingerOnClose = true; // the handler caught a body failure and answered: the framing is lost
        return false;
      }
      if (closeAfter) {
        return false;
      }
      return finishBody();
    } catch (IOException e) {
      LOG.debug("finishing {} {} failed: {}", head.method(), head.uri(), e.toString());
      return false;
    } finally {
      if (body != null) {
        body.close();
      }
    }
  }

  /* Reads what is left of the request body, so the next request can be decoded. */
  private boolean finishBody() throws IOException, Suspendable {
    return verdict == Conformance.NO_BODY || requestBody().drain();
  }

  private RequestBody requestBody() {
    RequestBody b = body;
    if (b == null) {
      b = new RequestBody(this, conn, verdict != Conformance.NO_BODY, verdict == Conformance.BODY_AFTER_CONTINUE);
      body = b;
    }
    return b;
  }

  private void accessLog() {
    if (server.accessLog && ACCESS.isInfoEnabled()) {
      ACCESS.info("{} \"{} {} {}\" {} {} {}us", conn.channel().remoteAddress(), head.method(), head.uri(),
          protocol(), status, bodySent, (System.nanoTime() - startNanos) / 1000);
    }
  }

  private boolean flushNow() {
    return !conn.hasQueuedHead() || closeAfter;
  }

  // ------------------------------------------------------------------ errors

  /* Sends a short error response that closes the connection. */
  private void sendError(int code) throws Suspendable {
    status = code;
    closeAfter = true;
    lingerOnClose = true;
    headers = null;
    try {
      send(code + " " + HttpResponseStatus.valueOf(code).reasonPhrase() + "\n");
    } catch (IOException e) {
      LOG.debug("sending {} failed: {}", code, e.toString());
    }
    if (server.accessLog && ACCESS.isInfoEnabled()) {
      ACCESS.info("{} \"{} {} {}\" {} - -", conn.channel().remoteAddress(), head.method(), head.uri(),
          head.protocolVersion(), code);
    }
  }

  /** Answers a head that did not arrive within the header-read deadline: 408, then close. */
  static void sendTimeout(HttpConnection conn) {
    FullHttpResponse r = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.REQUEST_TIMEOUT,
        Unpooled.copiedBuffer("408 Request Timeout\n", StandardCharsets.US_ASCII));
    r.headers().set(HttpHeaderNames.CONTENT_TYPE, HttpHeaderValues.TEXT_PLAIN)
        .set(HttpHeaderNames.CONTENT_LENGTH, r.content().readableBytes())
        .set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE)
        .set(HttpHeaderNames.DATE, conn.server.date);
    conn.server.stats.response(conn.statsCell(), 408);
    try {
      conn.write(r, true);
    } catch (IOException e) {
      // the connection is gone already
    }
  }

  // ------------------------------------------------------------------ Request

  @Override
  public String method() {
    return head.method().name();
  }

  @Override
  public String uri() {
    return head.uri();
  }

  @Override
  public String path() {
    String p = path;
    if (p == null) {
      p = Paths.decode(RequestTarget.rawPath(head.uri()));
      path = p;
    }
    return p;
  }

  @Override
  public String query() {
    return RequestTarget.query(head.uri());
  }

  private Map<String, List<String>> queryMap() {
    Map<String, List<String>> m = query;
    if (m == null) {
      m = RequestTarget.parameters(query());
      query = m;
    }
    return m;
  }

  @Override
  public String queryParam(String name) {
    List<String> values = queryMap().get(name);
    return values == null ? null : values.get(0);
  }

  @Override
  public List<String> queryParams(String name) {
    List<String> values = queryMap().get(name);
    return values == null ? List.of() : Collections.unmodifiableList(values);
  }

  @Override
  public String pathParam(String name) {
    return match == null ? null : match.param(name);
  }

  @Override
  public String protocol() {
    return conn.http2() ? "HTTP/2.0" : head.protocolVersion().text();
  }

  @Override
  public boolean keepAlive() {
    // Most requests carry no Connection header: one lookup instead of HttpUtil's value walk.
    if (!head.headers().contains(HttpHeaderNames.CONNECTION)) {
      return head.protocolVersion().isKeepAliveDefault();
    }
    return HttpUtil.isKeepAlive(head);
  }

  @Override
  public String header(String name) {
    return head.headers().get(name);
  }

  @Override
  public List<String> headers(String name) {
    return head.headers().getAll(name);
  }

  @Override
  public Set<String> headerNames() {
    Set<String> names = new LinkedHashSet<>();
    for (String n : head.headers().names()) {
      names.add(n.toLowerCase(Locale.ROOT));
    }
    return Collections.unmodifiableSet(names);
  }

  @Override
  public long contentLength() {
    if (HttpUtil.isTransferEncodingChunked(head)) {
      return -1;
    }
    return HttpUtil.getContentLength(head, 0L);
  }

  @Override
  public FiberInput body() {
    return requestBody().input();
  }

  @Override
  public byte[] bodyBytes() throws IOException, Suspendable {
    FiberInput in = body();
    long cl = contentLength();
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream(cl > 0 ? (int) Math.min(cl, 65536) : 256);
    byte[] buf = new byte[8192];
    for (int n; (n = in.read(buf)) >= 0; ) {
      out.write(buf, 0, n);
    }
    return out.toByteArray();
  }

  @Override
  public InetSocketAddress remoteAddress() {
    return (InetSocketAddress) conn.channel().remoteAddress();
  }

  @Override
  public InetSocketAddress localAddress() {
    return (InetSocketAddress) conn.channel().localAddress();
  }

  @Override
  public boolean secure() {
    return server.tls != null;
  }

  @Override
  public String peer() {
    return String.valueOf(conn.channel().remoteAddress());
  }

  // ------------------------------------------------------------------ Response

  @Override
  public Response status(int code) {
    checkNotCommitted();
    if (code < 200 || code > 999) {
      throw new IllegalArgumentException("status: " + code + " (expected: 200..999)");
    }
    status = code;
    return this;
  }

  @Override
  public int status() {
    return status;
  }

  private HttpHeaders headersForWrite() {
    HttpHeaders h = headers;
    if (h == null) {
      h = CompactHeaders.RESPONSES.newHeaders(); // names unchecked here: header() and addHeader() check them
      headers = h;
    }
    return h;
  }

  /*
   * A handler's header name, in lower case like every name the server writes: Netty's cached
   * constant when it is a common one (valid by construction), else checked with Netty's own
   * name validator, which the response header map skips (the server's own names are all
   * constants). Values are checked by the map.
   */
  private static CharSequence checkedName(String name) {
    Objects.requireNonNull(name, "name");
    CharSequence n = HeaderNames.of(name);
    if (n instanceof String) {
      NAME_VALIDATOR.validateName(n);
    }
    return n;
  }

  @Override
  public Response header(String name, String value) {
    checkNotCommitted();
    if (value == null) {
      headersForWrite().remove(name);
    } else {
      headersForWrite().set(checkedName(name), value);
    }
    return this;
  }

  @Override
  public Response addHeader(String name, String value) {
    checkNotCommitted();
    headersForWrite().add(checkedName(name), value);
    return this;
  }

  @Override
  public boolean committed() {
    return committed;
  }

  private void checkNotCommitted() {
    checkNotOver();
    if (committed) {
      throw new IllegalStateException("response to " + head.method() + " " + head.uri()
          + " is committed (expected: set status and headers before sending)");
    }
  }

  @Override
  public void send(String text) throws IOException, Suspendable {
    HttpHeaders h = headersForWrite();
    if (!h.contains(HttpHeaderNames.CONTENT_TYPE)) {
      h.set(HttpHeaderNames.CONTENT_TYPE, TEXT_PLAIN_UTF8);
    }
    send(text.getBytes(StandardCharsets.UTF_8));
  }

  @Override
  public void send(byte[] bytes) throws IOException, Suspendable {
    HttpHeaders h = commit();
    sendWhole(h, bytes.length, sendsBody(bytes.length) ? body(bytes) : Unpooled.EMPTY_BUFFER);
  }

  /* Whether a whole body of this many bytes goes out (not for HEAD, 204, 304, nor when empty). */
  private boolean sendsBody(int length) {
    return bodyAllowed() && !headOnly && length > 0;
  }

  /* The committed head with Content-Length for a body of length bytes, and content (empty if none goes out). */
  private void sendWhole(HttpHeaders h, int length, ByteBuf content) throws IOException, Suspendable {
    if (bodyAllowed()) {
      h.set(HttpHeaderNames.CONTENT_LENGTH, ContentLengths.of(length));
    } else if (status != 304) {
      h.remove(HttpHeaderNames.CONTENT_LENGTH);
    }
    if (content.isReadable()) {
      bodySent = length;
    }
    boolean flush = flushNow();
    conn.write(new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, responseStatus(), content, h,
        EmptyHttpHeaders.INSTANCE), flush);
    if (flush) {
      conn.awaitWritable();
    }
  }

  @Override
  public boolean copiesFileBodies() {
    return server.tls != null || conn.http2();
  }

  /*
   * A held body (the file cache's bytes) goes out as one message: on HTTP/2 the frame codec's
   * flow controller cuts it into DATA frames of slices as the peer's windows allow, with no
   * copy and no flush per piece, and the stream stays unwritable (the strand parks below) until
   * the window has taken it.
   */
  @Override
  public void sendContent(ByteBuf content) throws IOException, Suspendable {
    HttpHeaders h;
    try {
      h = commit();
    } catch (RuntimeException e) {
      content.release();
      throw e;
    }
    int length = content.readableBytes();
    if (!sendsBody(length)) {
      content.release();
      content = Unpooled.EMPTY_BUFFER;
    }
    sendWhole(h, length, content);
  }

  /*
   * The body as a buffer. On the channel's loop without TLS the pipeline is done with the bytes
   * before write() returns (the encoder copies a small body next to the head, the transport
   * copies a large heap buffer to direct memory), so the caller's array is wrapped, not copied
   * into a pooled buffer first. Elsewhere the write is queued (another thread) or held until a
   * flush (TLS), and the caller may reuse its array after send() returns: copy.
   */
  private ByteBuf body(byte[] bytes) {
    if (server.tls == null && !conn.http2() && conn.channel().eventLoop().inEventLoop()) {
      return Unpooled.wrappedBuffer(bytes);
    }
    return conn.channel().alloc().buffer(bytes.length).writeBytes(bytes);
  }

  /* Marks the response committed and completes its headers: Date, Connection. */
  private HttpHeaders commit() {
    checkNotCommitted();
    committed = true;
    server.stats.response(conn.statsCell(), status); // counted before the client can see it
    HttpHeaders h = headersForWrite();
    if (h.contains(HttpHeaderNames.CONNECTION) && h.containsValue(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE, true)
        || server.shuttingDown
        || verdict == Conformance.BODY_AFTER_CONTINUE && (body == null || body.awaitsContinue())) {
      closeAfter = true; // the client waits for 100 before it sends the body: we will not read it
    }
    if (closeAfter) {
      h.set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
    } else if (head.protocolVersion().minorVersion() == 0) {
      h.set(HttpHeaderNames.CONNECTION, HttpHeaderValues.KEEP_ALIVE);
    }
    if (!h.contains(HttpHeaderNames.DATE)) {
      h.add(HttpHeaderNames.DATE, server.date); // absent: add, not set (set removes first)
    }
    return h;
  }

  @Override
  public FiberOutput output() throws IOException, Suspendable {
    FiberOutput out = output;
    if (out != null) {
      return out;
    }
    HttpHeaders h = commit();
    if (!bodyAllowed()) {
      if (status != 304) {
        h.remove(HttpHeaderNames.CONTENT_LENGTH);
      }
    } else if (h.contains(HttpHeaderNames.CONTENT_LENGTH)) {
      declaredLength = parseLength(h.get(HttpHeaderNames.CONTENT_LENGTH));
    } else if (headOnly) {
      // HEAD: no body follows and the length is unknown; send neither header
    } else if (head.protocolVersion().minorVersion() == 1) {
      h.set(HttpHeaderNames.TRANSFER_ENCODING, HttpHeaderValues.CHUNKED);
      chunked = true;
    } else {
      closeAfter = true; // HTTP/1.0 has no chunked coding: the body ends with the connection
      h.set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
    }
    conn.write(new DefaultHttpResponse(HttpVersion.HTTP_1_1, responseStatus(), h), false);
    out = FiberOutput.of(this, OUTPUT_BUFFER_SIZE);
    output = out;
    return out;
  }

  private long parseLength(String value) {
    try {
      long n = Long.parseLong(value.trim());
      if (n >= 0) {
        return n;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalArgumentException("Content-Length: \"" + value + "\" (expected: a number >= 0)");
  }

  @Override
  public void sendFile(Path file, long offset, long length) throws IOException, Suspendable {
    checkNotCommitted();
    Checks.nonNegative("offset", offset);
    Checks.nonNegative("length", length);
    long size = java.nio.file.Files.size(file);
    if (offset + length > size) {
      throw new IllegalArgumentException("offset + length: " + (offset + length) + " (expected: <= the file size "
          + size + " of " + file + ")");
    }
    HttpHeaders h = commit();
    boolean allowed = bodyAllowed();
    if (allowed) {
      h.set(HttpHeaderNames.CONTENT_LENGTH, ContentLengths.of(length));
    }
    conn.write(new DefaultHttpResponse(HttpVersion.HTTP_1_1, responseStatus(), h), false);
    if (allowed && !headOnly && length > 0) {
      FileBodies.write(conn, server.tls != null || conn.http2(), file, offset, length);
      bodySent = length;
    }
    boolean flush = flushNow();
    conn.write(LastHttpContent.EMPTY_LAST_CONTENT, flush);
    if (flush) {
      conn.awaitWritable();
    }
  }

  private HttpResponseStatus responseStatus() {
    return status == 200 ? HttpResponseStatus.OK : HttpResponseStatus.valueOf(status);
  }

  private boolean bodyAllowed() {
    return status >= 200 && status != 204 && status != 304;
  }

  // ------------------------------------------------------------------ the response body as a ByteSink

  @Override
  public void write(ByteBuf buf, boolean flush) throws IOException {
    if (over) {
      buf.release();
      throw new IllegalStateException(head.method() + " " + head.uri() + ": the exchange is over");
    }
    if (headOnly || !bodyAllowed()) {
      buf.release();
      return;
    }
    int n = buf.readableBytes();
    bodySent += n;
    conn.write(buf, flush && !finishing);
  }

  @Override
  public void flush() throws IOException {
    if (!finishing) {
      conn.flush();
    }
  }

  @Override
  public void awaitWritable() throws IOException, Suspendable {
    conn.awaitWritable();
  }

  @Override
  public ByteBufAllocator alloc() {
    return conn.channel().alloc();
  }
}
