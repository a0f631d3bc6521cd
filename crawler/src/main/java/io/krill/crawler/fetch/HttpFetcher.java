package io.krill.crawler.fetch;

import io.krill.fibers.Checks;
import io.krill.fibers.FiberScheduler;
import io.krill.fibers.Suspendable;
import io.krill.netio.FiberSocket;
import io.krill.netio.MessageSocket;
import io.krill.netio.SocketOptions;
import io.krill.netio.Tls;
import io.krill.netio.dns.DnsResolver;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.UnknownHostException;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import javax.net.ssl.SSLException;

/**
 * A fiber HTTP/1.1 client for crawling: GET with keep-alive reuse per origin, gzip/deflate
 * with a decompressed-size cap, a body cap, connect/read/total deadlines, a slow-drip guard,
 * HTTPS with verification (or none, when built {@code insecure}), redirects with a limit, and
 * an address-safety check after every DNS answer. Failures never throw: they come back as an
 * {@link Exchange} with an {@link Exchange#error()}.
 *
 * <pre>{@code
 * HttpFetcher f = HttpFetcher.builder().resolver(dns).build();
 * List<Exchange> hops = f.fetchFollowing(uri, f.resolve(uri), (from, to) -> null);
 * }</pre>
 *
 * <p>Limits:
 * <table>
 *   <caption>HttpFetcher limits</caption>
 *   <tr><th>builder method</th><th>default</th><th>meaning</th></tr>
 *   <tr><td>connectTimeout</td><td>{@link #DEFAULT_CONNECT_TIMEOUT}</td><td>TCP connect and TLS handshake</td></tr>
 *   <tr><td>readTimeout</td><td>{@link #DEFAULT_READ_TIMEOUT}</td><td>longest silence while a response is due</td></tr>
 *   <tr><td>totalTimeout</td><td>{@link #DEFAULT_TOTAL_TIMEOUT}</td><td>whole exchange, one hop</td></tr>
 *   <tr><td>minBytesPerSecond</td><td>{@value #DEFAULT_MIN_BYTES_PER_SECOND}</td><td>slow-drip guard after the grace time</td></tr>
 *   <tr><td>slowGrace</td><td>{@link #DEFAULT_SLOW_GRACE}</td><td>time before the drip guard applies</td></tr>
 *   <tr><td>maxBodyBytes</td><td>{@value #DEFAULT_MAX_BODY_BYTES}</td><td>body bytes as received</td></tr>
 *   <tr><td>maxDecompressedBytes</td><td>{@value #DEFAULT_MAX_DECOMPRESSED_BYTES}</td><td>body after gzip/deflate</td></tr>
 *   <tr><td>maxHeaderBytes</td><td>{@value #DEFAULT_MAX_HEADER_BYTES}</td><td>response head</td></tr>
 *   <tr><td>maxRedirects</td><td>{@value #DEFAULT_MAX_REDIRECTS}</td><td>hops followed by fetchFollowing</td></tr>
 *   <tr><td>maxIdlePerOrigin</td><td>{@value #DEFAULT_MAX_IDLE_PER_ORIGIN}</td><td>kept-alive idle connections</td></tr>
 *   <tr><td>idleTimeout</td><td>{@link #DEFAULT_IDLE_TIMEOUT}</td><td>an idle connection is not reused after this</td></tr>
 * </table>
 *
 * <p>Threading: thread-safe. {@code fetch*} and {@link #resolve} may suspend the calling fiber;
 * on a platform or virtual thread they block it.
 */
public final class HttpFetcher implements AutoCloseable {
  /*
   * Implementation notes. The pipeline is tls? -> WireTap -> HttpClientCodec -> netio's
   * connection handler, so the tap sees plain HTTP bytes exactly as on the wire (for WARC),
   * and the strand receives decoded HttpObjects. A receive waits in slices of at most
   * SLICE_NANOS so that the total deadline, the silence limit and the drip rate are checked
   * while bytes trickle in below the codec (a header sent one byte a second produces no
   * HttpObject at all). A reused connection that ends before any byte of the response came
   * back was closed by the server while idle: the request is retried once on a new one.
   */
  /** Default connect (and TLS handshake) timeout. */
  public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(10);
  /** Default longest silence while a response is due. */
  public static final Duration DEFAULT_READ_TIMEOUT = Duration.ofSeconds(30);
  /** Default time for one whole exchange. */
  public static final Duration DEFAULT_TOTAL_TIMEOUT = Duration.ofSeconds(60);
  /** Default minimum transfer rate after the grace time, bytes per second (0 disables). */
  public static final long DEFAULT_MIN_BYTES_PER_SECOND = 1024;
  /** Default time before the slow-drip guard applies. */
  public static final Duration DEFAULT_SLOW_GRACE = Duration.ofSeconds(5);
  /** Default body cap, bytes as received. */
  public static final long DEFAULT_MAX_BODY_BYTES = 10L * 1024 * 1024;
  /** Default cap on the decompressed body. */
  public static final long DEFAULT_MAX_DECOMPRESSED_BYTES = 50L * 1024 * 1024;
  /** Default cap on a response head. */
  public static final int DEFAULT_MAX_HEADER_BYTES = 64 * 1024;
  /** Default redirect limit. */
  public static final int DEFAULT_MAX_REDIRECTS = 5;
  /** Interim (1xx) responses skipped before a final one; one more fails the fetch as a protocol error. */
  public static final int MAX_INTERIM_RESPONSES = 8;
  /** Default idle connections kept per origin. */
  public static final int DEFAULT_MAX_IDLE_PER_ORIGIN = 4;
  /** Default time an idle connection stays reusable. */
  public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofSeconds(30);
  /** Default User-Agent header. */
  public static final String DEFAULT_USER_AGENT = "krill-crawler/0.1 (+https://github.com/krill/krill)";

  private static final long SLICE_NANOS = 250_000_000L;
  /** Largest body buffer sized up front from a Content-Length (a larger body grows it as it arrives). */
  private static final int PRESIZE_LIMIT = 1 << 20;

  private final DnsResolver resolver;
  private final FiberScheduler scheduler;
  private final AddressPolicy policy;
  private final Tls tls;
  private final boolean insecure;
  private final Duration connectTimeout;
  private final long readTimeoutNanos;
  private final long totalTimeoutNanos;
  private final long minBytesPerSecond;
  private final long slowGraceNanos;
  private final long maxBodyBytes;
  private final long maxDecompressedBytes;
  private final int maxHeaderBytes;
  private final int maxRedirects;
  private final String userAgent;
  private final ConnectionPool pool;

  private HttpFetcher(Builder b) throws SSLException {
    this.resolver = b.resolver != null ? b.resolver : DnsResolver.system();
    this.scheduler = b.scheduler;
    this.policy = b.policy;
    this.insecure = b.insecure;
    this.tls = b.insecure ? Tls.insecureClientTrustingAnyCertificate()
        : b.trusted != null ? Tls.client(b.trusted) : Tls.client();
    this.connectTimeout = b.connectTimeout;
    this.readTimeoutNanos = b.readTimeout.toNanos();
    this.totalTimeoutNanos = b.totalTimeout.toNanos();
    this.minBytesPerSecond = b.minBytesPerSecond;
    this.slowGraceNanos = b.slowGrace.toNanos();
    this.maxBodyBytes = b.maxBodyBytes;
    this.maxDecompressedBytes = b.maxDecompressedBytes;
    this.maxHeaderBytes = b.maxHeaderBytes;
    this.maxRedirects = b.maxRedirects;
    this.userAgent = b.userAgent;
    this.pool = new ConnectionPool(b.idleTimeout.toNanos(), b.maxIdlePerOrigin);
  }

  /** @return a builder with the defaults */
  public static Builder builder() {
    return new Builder();
  }

  /** @return the resolver used */
  public DnsResolver resolver() {
    return resolver;
  }

  /** @return true if certificates are not verified */
  public boolean insecure() {
    return insecure;
  }

  /** @return the User-Agent sent */
  public String userAgent() {
    return userAgent;
  }

  /** @return idle pooled connections now */
  public int idleConnections() {
    return pool.idleCount();
  }

  /**
   * Resolves the URL's host and checks the address against the safety policy. May suspend.
   *
   * @param uri an http(s) URL
   * @return the address to connect to
   * @throws FetchException DNS if it does not resolve, BLOCKED if the policy refuses it
   * @throws Suspendable never; marks that this method suspends
   */
  public InetAddress resolve(URI uri) throws FetchException, Suspendable {
    return resolveAll(uri).get(0);
  }

  /**
   * Resolves the URL's host to all its addresses (one lookup) and checks the first, the one to
   * connect to, against the safety policy. May suspend.
   *
   * @param uri an http(s) URL
   * @return the addresses in preference order, not empty; the first is checked
   * @throws FetchException DNS if it does not resolve, BLOCKED if the policy refuses the first address
   * @throws Suspendable never; marks that this method suspends
   */
  public List<InetAddress> resolveAll(URI uri) throws FetchException, Suspendable {
    String host = uri.getHost();
    if (host == null) {
      throw FetchException.of(FetchException.Kind.BAD_URL, uri, "no host");
    }
    if (host.startsWith("[") && host.endsWith("]")) {
      host = host.substring(1, host.length() - 1);
    }
    List<InetAddress> all;
    try {
      all = resolver.resolveAll(host);
    } catch (UnknownHostException e) {
      throw new FetchException(FetchException.Kind.DNS, uri.toString(), e.getMessage(), e);
    }
    check(uri, all.get(0));
    return all;
  }

  private void check(URI uri, InetAddress a) throws FetchException {
    String refusal = policy.refusal(a);
    if (refusal != null) {
      throw FetchException.of(FetchException.Kind.BLOCKED, uri, refusal);
    }
  }

  /**
   * Fetches {@code uri}, following redirects up to the limit. Each target is resolved and
   * checked for safety here, and offered to {@code check} first. May suspend.
   *
   * @param uri the URL
   * @param address its resolved, checked address (see {@link #resolve})
   * @param check decides on each redirect
   * @return the exchanges in order, at least one; a redirect target that failed DNS or the
   *     safety check appears as an exchange with that error
   * @throws Suspendable never; marks that this method suspends
   */
  public List<Exchange> fetchFollowing(URI uri, InetAddress address, RedirectCheck check) throws Suspendable {
    List<Exchange> hops = new ArrayList<>();
    URI current = uri;
    InetAddress at = address;
    for (int hop = 0; ; hop++) {
      Exchange ex = fetch(current, at);
      hops.add(ex);
      URI target = ex.error == null ? ex.location() : null;
      if (target == null) {
        return hops;
      }
      if (hop == maxRedirects) {
        ex.error = FetchException.of(FetchException.Kind.REDIRECT_LIMIT, current,
            "more than maxRedirects " + maxRedirects + " redirects, next " + target);
        return hops;
      }
      String scheme = target.getScheme() == null ? "" : target.getScheme().toLowerCase(Locale.ROOT);
      if (!scheme.equals("http") && !scheme.equals("https")) {
        ex.error = FetchException.of(FetchException.Kind.REDIRECT_REFUSED, current, "redirect to " + target + ": not http(s)");
        return hops;
      }
      if (check.refusal(current, target) != null) {
        return hops;
      }
      try {
        at = resolve(target);
      } catch (FetchException e) {
        Exchange refused = new Exchange(target);
        refused.startedAt = Instant.now();
        refused.error = e;
        hops.add(refused);
        return hops;
      }
      current = target;
    }
  }

  /**
   * Fetches {@code uri} once (a redirect is returned, not followed). May suspend.
   *
   * @param uri the URL
   * @param address its resolved, checked address
   * @return the exchange; failures are in {@link Exchange#error()}
   * @throws Suspendable never; marks that this method suspends
   */
  public Exchange fetch(URI uri, InetAddress address) throws Suspendable {
    Objects.requireNonNull(uri, "uri");
    Objects.requireNonNull(address, "address");
    Exchange ex = new Exchange(uri);
    ex.address = address;
    ex.startedAt = Instant.now();
    long start = System.nanoTime();
    try {
      fetchOnce(ex, start + totalTimeoutNanos);
    } catch (FetchException e) {
      ex.error = e;
    }
    ex.totalNanos = System.nanoTime() - start;
    return ex;
  }

  private void fetchOnce(Exchange ex, long deadline) throws FetchException, Suspendable {
    URI uri = ex.uri;
    String scheme = uri.getScheme().toLowerCase(Locale.ROOT);
    boolean https = scheme.equals("https");
    int port = uri.getPort() > 0 ? uri.getPort() : https ? 443 : 80;
    String key = scheme + "://" + uri.getHost() + ":" + port + "@" + ex.address.getHostAddress();
    for (int attempt = 0; ; attempt++) {
      ConnectionPool.Pooled c = attempt == 0 ? pool.take(key) : null;
      ex.reusedConnection = c != null;
      if (c == null) {
        c = connect(ex, port, https, deadline);
      }
      boolean keep = false;
      try {
        keep = exchange(ex, c, port, https, deadline);
        return;
      } catch (StaleConnection stale) {
        if (!ex.reusedConnection) {
          throw stale.failure;
        }
        // closed by the server while idle: retry once on a fresh connection
      } finally {
        if (keep) {
          pool.offer(key, c);
        } else {
          c.socket.close();
        }
      }
    }
  }

  /** A reused connection ended before any response byte: the server closed it while idle. */
  private static final class StaleConnection extends Exception {
    private static final long serialVersionUID = 1L;
    final FetchException failure;

    StaleConnection(FetchException failure) {
      super(null, null, false, false);
      this.failure = failure;
    }
  }

  private ConnectionPool.Pooled connect(Exchange ex, int port, boolean https, long deadline)
      throws FetchException, Suspendable {
    URI uri = ex.uri;
    long t0 = System.nanoTime();
    long remaining = deadline - t0;
    if (remaining <= 0) {
      throw FetchException.of(FetchException.Kind.TIMEOUT, uri, "totalTimeout " + Duration.ofNanos(totalTimeoutNanos).toMillis() + " ms passed");
    }
    SocketOptions.Builder o = SocketOptions.builder()
        .connectTimeout(Duration.ofNanos(Math.min(connectTimeout.toNanos(), remaining)))
        .readTimeout(Duration.ofNanos(readTimeoutNanos))
        .resolver(resolver);
    if (scheduler != null) {
      o.scheduler(scheduler);
    }
    if (https) {
      o.tls(tls.handshakeTimeout(Duration.ofNanos(Math.min(connectTimeout.toNanos(), remaining))));
    }
    // TLS needs the name (SNI, verification); the resolver answers it from its cache with the checked address.
    String host = https ? bareHost(uri) : ex.address.getHostAddress();
    FiberSocket s = null;
    try {
      s = FiberSocket.connect(host, port, o.build());
      SocketAddress remote = s.remoteAddress();
      if (remote instanceof InetSocketAddress) {
        InetAddress actual = ((InetSocketAddress) remote).getAddress();
        ex.address = actual;
        check(uri, actual);
      }
      WireTap tap = new WireTap();
      MessageSocket<HttpObject> ms = s.messages(p -> {
        p.addLast("krill-wiretap", tap);
        p.addLast("krill-http", new HttpClientCodec(4096, maxHeaderBytes, 8192));
      });
      ex.connectNanos = System.nanoTime() - t0;
      ConnectionPool.Pooled c = new ConnectionPool.Pooled(ms, tap);
      s = null;
      return c;
    } catch (FetchException e) {
      throw e;
    } catch (IOException | RuntimeException e) {
      throw classify(uri, e, "connect");
    } finally {
      if (s != null) {
        s.close();
      }
    }
  }

  private static String bareHost(URI uri) {
    String h = uri.getHost();
    return h.startsWith("[") && h.endsWith("]") ? h.substring(1, h.length() - 1) : h;
  }

  static FetchException classify(URI uri, Throwable e, String during) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof SSLException) {
        return new FetchException(FetchException.Kind.TLS, uri.toString(), during + ": " + t.getMessage(), e);
      }
    }
    FetchException.Kind kind = e instanceof UnknownHostException ? FetchException.Kind.DNS
        : e instanceof SocketTimeoutException ? FetchException.Kind.TIMEOUT
        : e instanceof ConnectException ? FetchException.Kind.CONNECT
        : FetchException.Kind.IO;
    return new FetchException(kind, uri.toString(), during + ": " + e.getMessage(), e);
  }

  /** One request/response on {@code c}; returns true if the connection may be reused. */
  private boolean exchange(Exchange ex, ConnectionPool.Pooled c, int port, boolean https, long deadline)
      throws FetchException, StaleConnection, Suspendable {
    URI uri = ex.uri;
    WireTap tap = c.tap;
    int captureCap = (int) Math.min(Integer.MAX_VALUE - 16, maxBodyBytes + maxHeaderBytes + 8192);
    tap.reset(captureCap);
    DefaultFullHttpRequest req = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, target(uri), Unpooled.EMPTY_BUFFER);
    boolean defaultPort = port == (https ? 443 : 80);
    req.headers().set(HttpHeaderNames.HOST, uri.getHost() + (defaultPort ? "" : ":" + port));
    req.headers().set(HttpHeaderNames.USER_AGENT, userAgent);
    req.headers().set(HttpHeaderNames.ACCEPT, "*/*");
    req.headers().set(HttpHeaderNames.ACCEPT_ENCODING, "gzip, deflate");
    req.headers().set(HttpHeaderNames.CONNECTION, "keep-alive");
    long sent = System.nanoTime();
    ByteArrayOutputStream body = new ByteArrayOutputStream(0);
    boolean headSeen = false;
    boolean complete = false;
    boolean keepAlive = false;
    boolean readToClose = false;
    int interim = 0; // 1xx responses before the final one
    boolean inInterim = false;
    String encoding = null;
    try {
      try {
        c.socket.send(req);
      } catch (IOException e) {
        FetchException f = classify(uri, e, "send");
        if (tap.inboundBytes() == 0) {
          throw new StaleConnection(f);
        }
        throw f;
      }
      while (!complete) {
        HttpObject m;
        try {
          m = receive(ex, c, sent, deadline, headSeen);
        } catch (FetchException e) {
          if (!headSeen && tap.inboundBytes() == 0 && e.kind() == FetchException.Kind.IO) {
            throw new StaleConnection(e);
          }
          throw e;
        }
        if (m == null) {
          if (!headSeen) {
            FetchException f = FetchException.of(FetchException.Kind.IO, uri, "connection closed before a response");
            if (tap.inboundBytes() == 0) {
              throw new StaleConnection(f);
            }
            throw f;
          }
          if (readToClose) {
            complete = true;
            keepAlive = false;
            break;
          }
          throw FetchException.of(FetchException.Kind.IO, uri, "connection closed after " + body.size() + " body bytes");
        }
        try {
          if (m.decoderResult().isFailure()) {
            Throwable cause = m.decoderResult().cause();
            throw new FetchException(FetchException.Kind.PROTOCOL, uri.toString(), "invalid HTTP response: " + cause, cause);
          }
          if (m instanceof HttpResponse && isInterim(((HttpResponse) m).status().code())) {
            // RFC 9110 15.2: 100 Continue, 103 Early Hints ... come before the final response; a client skips them.
            if (++interim > MAX_INTERIM_RESPONSES) {
              throw FetchException.of(FetchException.Kind.PROTOCOL, uri,
                  "more than " + MAX_INTERIM_RESPONSES + " interim (1xx) responses before a final one");
            }
            inInterim = true;
            continue;
          }
          if (m instanceof HttpResponse) {
            HttpResponse r = (HttpResponse) m;
            inInterim = false;
            headSeen = true;
            ex.firstByteNanos = System.nanoTime() - sent;
            ex.status = r.status().code();
            List<Map.Entry<String, String>> hs = new ArrayList<>();
            r.headers().forEach(e -> hs.add(new AbstractMap.SimpleImmutableEntry<>(e.getKey(), e.getValue())));
            ex.headers = List.copyOf(hs);
            encoding = r.headers().get(HttpHeaderNames.CONTENT_ENCODING);
            keepAlive = HttpUtil.isKeepAlive(r);
            readToClose = !HttpUtil.isContentLengthSet(r) && !HttpUtil.isTransferEncodingChunked(r);
            long declared = HttpUtil.getContentLength(r, -1L);
            if (declared > maxBodyBytes) {
              throw FetchException.of(FetchException.Kind.BODY_TOO_LARGE, uri,
                  "Content-Length " + declared + " exceeds maxBodyBytes " + maxBodyBytes);
            }
            if (declared > 0 && body.size() == 0) {
              body = new ByteArrayOutputStream((int) Math.min(declared, PRESIZE_LIMIT)); // no growth copies
            }
          }
          if (inInterim) {
            inInterim = !(m instanceof LastHttpContent); // an interim response has no body: this ends it
            continue;
          }
          if (m instanceof HttpContent) {
            ByteBuf content = ((HttpContent) m).content();
            int n = content.readableBytes();
            if (body.size() + (long) n > maxBodyBytes) {
              int room = (int) (maxBodyBytes - body.size());
              content.readBytes(body, room);
              ex.bodyBytes = body.size();
              throw FetchException.of(FetchException.Kind.BODY_TOO_LARGE, uri, "body exceeds maxBodyBytes " + maxBodyBytes);
            }
            content.readBytes(body, n);
            if (m instanceof LastHttpContent) {
              complete = true;
            }
          }
        } catch (IOException e) {
          throw e instanceof FetchException ? (FetchException) e : classify(uri, e, "read");
        } finally {
          io.netty.util.ReferenceCountUtil.release(m);
        }
      }
    } catch (FetchException e) {
      finish(ex, tap, body, interim, e);
      throw e;
    }
    finish(ex, tap, body, interim, null);
    ex.body = ContentDecoding.decode(uri, encoding, ex.body, maxDecompressedBytes);
    return keepAlive && c.socket.isOpen();
  }

  private static void finish(Exchange ex, WireTap tap, ByteArrayOutputStream body, int interim,
      FetchException failure) {
    ex.requestBytes = tap.outbound();
    byte[] in = withoutInterim(tap.inbound(), interim);
    tap.clear();
    ex.responseBytes = in.length == 0 ? null : in;
    ex.responseTruncation = truncation(failure, tap.overflowed());
    ex.body = body.toByteArray();
    ex.bodyBytes = ex.body.length;
  }

  /* 1xx except 101 Switching Protocols (never asked for: a 101 is taken as the final answer, and fails as one). */
  private static boolean isInterim(int code) {
    return code >= 100 && code < 200 && code != 101;
  }

  /*
   * The response's bytes from its final status line on: the WARC record is the final response,
   * as a reader of it expects. Each interim response is a head alone, ending at its blank line;
   * bytes that do not show that many are kept whole.
   */
  static byte[] withoutInterim(byte[] in, int interim) {
    int from = 0;
    for (int k = 0; k < interim; k++) {
      int end = -1;
      for (int i = from; i + 1 < in.length; i++) {
        if (in[i] == '\n' && (in[i + 1] == '\n' || in[i + 1] == '\r' && i + 2 < in.length && in[i + 2] == '\n')) {
          end = in[i + 1] == '\n' ? i + 2 : i + 3;
          break;
        }
      }
      if (end < 0) {
        return in;
      }
      from = end;
    }
    return from == 0 ? in : java.util.Arrays.copyOfRange(in, from, in.length);
  }

  /* Why the recorded bytes stop early: a deadline or the drip guard is time, a cap is length. */
  static Exchange.Truncation truncation(FetchException failure, boolean captureOverflowed) {
    if (failure != null) {
      switch (failure.kind()) {
        case TIMEOUT:
        case SLOW:
          return Exchange.Truncation.TIME;
        case BODY_TOO_LARGE:
          return Exchange.Truncation.LENGTH;
        default:
          return captureOverflowed ? Exchange.Truncation.LENGTH : Exchange.Truncation.UNSPECIFIED;
      }
    }
    return captureOverflowed ? Exchange.Truncation.LENGTH : Exchange.Truncation.NONE;
  }

  private HttpObject receive(Exchange ex, ConnectionPool.Pooled c, long sent, long deadline, boolean headSeen)
      throws FetchException, Suspendable {
    URI uri = ex.uri;
    WireTap tap = c.tap;
    for (;;) {
      long now = System.nanoTime();
      if (now - deadline >= 0) {
        throw FetchException.of(FetchException.Kind.TIMEOUT, uri,
            "totalTimeout " + Duration.ofNanos(totalTimeoutNanos).toMillis() + " ms passed");
      }
      long silent = now - Math.max(sent, tap.lastInboundNanos());
      if (silent >= readTimeoutNanos) {
        throw FetchException.of(FetchException.Kind.TIMEOUT, uri,
            "readTimeout: no bytes for " + Duration.ofNanos(readTimeoutNanos).toMillis() + " ms");
      }
      long elapsed = now - sent;
      if (minBytesPerSecond > 0 && elapsed > slowGraceNanos
          && tap.inboundBytes() * 1_000_000_000.0 / elapsed < minBytesPerSecond) {
        throw FetchException.of(FetchException.Kind.SLOW, uri, tap.inboundBytes() + " bytes in " + elapsed / 1_000_000
            + " ms is below minBytesPerSecond " + minBytesPerSecond);
      }
      long slice = Math.min(SLICE_NANOS, Math.min(deadline - now, readTimeoutNanos - silent));
      c.socket.socket().setReadTimeout(Duration.ofNanos(Math.max(slice, 1_000_000L)));
      try {
        return c.socket.receive();
      } catch (SocketTimeoutException sliceOver) {
        // check the limits again
      } catch (IOException e) {
        throw classify(uri, e, headSeen ? "read body" : "read head");
      }
    }
  }

  private static String target(URI uri) {
    String path = uri.getRawPath();
    if (path == null || path.isEmpty()) {
      path = "/";
    }
    return uri.getRawQuery() == null ? path : path + "?" + uri.getRawQuery();
  }

  /** Closes the idle connections; fetches still running finish on theirs. */
  @Override
  public void close() {
    pool.close();
  }

  /** Configures an {@link HttpFetcher}; not thread-safe. */
  public static final class Builder {
    private DnsResolver resolver;
    private FiberScheduler scheduler;
    private AddressPolicy policy = AddressPolicy.publicOnly();
    private boolean insecure;
    private X509Certificate[] trusted;
    private Duration connectTimeout = DEFAULT_CONNECT_TIMEOUT;
    private Duration readTimeout = DEFAULT_READ_TIMEOUT;
    private Duration totalTimeout = DEFAULT_TOTAL_TIMEOUT;
    private long minBytesPerSecond = DEFAULT_MIN_BYTES_PER_SECOND;
    private Duration slowGrace = DEFAULT_SLOW_GRACE;
    private long maxBodyBytes = DEFAULT_MAX_BODY_BYTES;
    private long maxDecompressedBytes = DEFAULT_MAX_DECOMPRESSED_BYTES;
    private int maxHeaderBytes = DEFAULT_MAX_HEADER_BYTES;
    private int maxRedirects = DEFAULT_MAX_REDIRECTS;
    private int maxIdlePerOrigin = DEFAULT_MAX_IDLE_PER_ORIGIN;
    private Duration idleTimeout = DEFAULT_IDLE_TIMEOUT;
    private String userAgent = DEFAULT_USER_AGENT;

    private Builder() {}

    /** @param r the DNS resolver (default: {@link DnsResolver#system()}) @return this */
    public Builder resolver(DnsResolver r) {
      this.resolver = Objects.requireNonNull(r, "resolver");
      return this;
    }

    /** @param s the event loops connections use (default: netio's) @return this */
    public Builder scheduler(FiberScheduler s) {
      this.scheduler = Objects.requireNonNull(s, "scheduler");
      return this;
    }

    /** @param p which addresses may be crawled @return this */
    public Builder addressPolicy(AddressPolicy p) {
      this.policy = Objects.requireNonNull(p, "addressPolicy");
      return this;
    }

    /** @param on true to skip certificate and hostname verification (unsafe) @return this */
    public Builder insecure(boolean on) {
      this.insecure = on;
      return this;
    }

    /** @param certs trust only these roots instead of the JDK's (a private CA, tests) @return this */
    public Builder trust(X509Certificate... certs) {
      if (certs.length == 0) {
        throw Checks.bad("trust", "0 certificates", "> 0");
      }
      this.trusted = certs.clone();
      return this;
    }

    /** @param d connect timeout @return this */
    public Builder connectTimeout(Duration d) {
      this.connectTimeout = Checks.positive("connectTimeout", d);
      return this;
    }

    /** @param d longest silence @return this */
    public Builder readTimeout(Duration d) {
      this.readTimeout = Checks.positive("readTimeout", d);
      return this;
    }

    /** @param d time for one exchange @return this */
    public Builder totalTimeout(Duration d) {
      this.totalTimeout = Checks.positive("totalTimeout", d);
      return this;
    }

    /** @param rate minimum bytes per second after the grace time, 0 to disable @return this */
    public Builder minBytesPerSecond(long rate) {
      this.minBytesPerSecond = Checks.nonNegative("minBytesPerSecond", rate);
      return this;
    }

    /** @param d time before the drip guard applies @return this */
    public Builder slowGrace(Duration d) {
      this.slowGrace = Checks.nonNegative("slowGrace", d);
      return this;
    }

    /** @param n body cap @return this */
    public Builder maxBodyBytes(long n) {
      this.maxBodyBytes = Checks.positive("maxBodyBytes", n);
      return this;
    }

    /** @param n decompressed body cap @return this */
    public Builder maxDecompressedBytes(long n) {
      this.maxDecompressedBytes = Checks.positive("maxDecompressedBytes", n);
      return this;
    }

    /** @param n response head cap @return this */
    public Builder maxHeaderBytes(int n) {
      this.maxHeaderBytes = Checks.positive("maxHeaderBytes", n);
      return this;
    }

    /** @param n redirect limit @return this */
    public Builder maxRedirects(int n) {
      this.maxRedirects = Checks.nonNegative("maxRedirects", n);
      return this;
    }

    /** @param n idle connections kept per origin @return this */
    public Builder maxIdlePerOrigin(int n) {
      this.maxIdlePerOrigin = Checks.nonNegative("maxIdlePerOrigin", n);
      return this;
    }

    /** @param d how long an idle connection stays reusable @return this */
    public Builder idleTimeout(Duration d) {
      this.idleTimeout = Checks.positive("idleTimeout", d);
      return this;
    }

    /** @param ua the User-Agent header @return this */
    public Builder userAgent(String ua) {
      Objects.requireNonNull(ua, "userAgent");
      if (ua.isBlank() || ua.indexOf('\n') >= 0 || ua.indexOf('\r') >= 0) {
        throw Checks.bad("userAgent", "\"" + ua + "\"", "one non-blank line");
      }
      this.userAgent = ua;
      return this;
    }

    /**
     * @return the fetcher
     * @throws IllegalStateException if the JDK's TLS cannot be set up
     */
    public HttpFetcher build() {
      try {
        return new HttpFetcher(this);
      } catch (SSLException e) {
        throw new IllegalStateException("TLS setup failed: " + e.getMessage(), e);
      }
    }
  }
}
