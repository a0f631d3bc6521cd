package io.krill.testweb;

import io.krill.fibers.Fiber;
import io.krill.fibers.Suspendable;
import io.krill.httpd.Handler;
import io.krill.httpd.Request;
import io.krill.httpd.Response;
import io.krill.netio.FiberOutput;
import java.io.IOException;
import java.net.InetAddress;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Serves the model over HTTP on one connection's fiber: picks the host from the Host header,
 * waits the host's latency, then writes the resource at the host's bandwidth, and records the
 * exchange in the access log.
 */
final class WebHandler implements Handler {
  /* Implementation notes
   *
   * Latency and bandwidth are Fiber.sleeps of the connection's fiber: a slow host costs no
   * thread. A body goes out in chunks of a twentieth of a second's worth (at least 1 KiB), each
   * written after the time it takes to "transmit", so the last byte arrives at
   * latency + size / bandwidth.
   *
   * A reset page declares its Content-Length, sends half of the body and returns; httpd then
   * closes the connection because the body is short, so the client sees its connection end in
   * the middle of a response. httpd has no way to send a TCP RST.
   */

  private static final Duration DRIP_TICK = Duration.ofMillis(250);
  private static final int MIN_CHUNK = 1024;
  private static final String HTML = "text/html; charset=utf-8";

  private final SyntheticWeb web;
  private final TestWebConfig config;
  private final AccessLog log;
  private final byte[] bomb;
  private final Map<String, AtomicInteger> throttled = new ConcurrentHashMap<>();

  WebHandler(SyntheticWeb web, AccessLog log, byte[] bomb) {
    this.web = web;
    this.config = web.config();
    this.log = log;
    this.bomb = bomb;
  }

  /**
   * The access-log entry of one exchange. It is added just before the last bytes go out, so
   * that a client that has read a whole response finds it in the log.
   */
  private final class Entry {
    final Instant time = Instant.now();
    final long start = System.nanoTime();
    final Request req;
    final String host;
    final String target;
    boolean logged;

    Entry(Request req, String host, String target) {
      this.req = req;
      this.host = host;
      this.target = target;
    }

    void log(int status, long bytes) {
      if (!logged) {
        logged = true;
        log.add(new AccessLog.Entry(time, start, System.nanoTime(), req.remoteAddress(), req.localAddress().getAddress(), host,
            target, status, bytes));
      }
    }
  }

  @Override
  public void handle(Request req, Response res) throws Exception, Suspendable {
    Entry entry = new Entry(req, hostName(req.header("Host")), originForm(req.uri()));
    try {
      serve(req, res, entry);
    } catch (IOException e) {
      entry.log(res.committed() ? res.status() : 0, 0); // the client went away
    } finally {
      entry.log(0, 0);
    }
  }

  private void serve(Request req, Response res, Entry entry) throws IOException, Suspendable {
    String host = entry.host;
    if (host.isEmpty()) {
      sendError(res, 400, "Bad Request: no Host header", entry);
      return;
    }
    SyntheticWeb.Host h = web.host(host);
    InetAddress local = req.localAddress().getAddress();
    int port = req.localAddress().getPort();
    if (h == null || !h.address.equals(local)) {
      sendError(res, 421, "Misdirected Request: " + host + " is not served at " + local.getHostAddress(), entry);
      return;
    }
    if (!req.method().equals("GET") && !req.method().equals("HEAD")) {
      res.header("Allow", "GET, HEAD");
      sendError(res, 405, "Method Not Allowed", entry);
      return;
    }
    if (!h.latency.isZero()) {
      Fiber.sleep(h.latency);
    }
    answer(req, res, h, web.resolve(h, entry.target), port, entry);
  }

  private void answer(Request req, Response res, SyntheticWeb.Host h, Resource r, int port, Entry entry)
      throws IOException, Suspendable {
    switch (r.kind) {
      case THROTTLED, PAGE -> {
        if (r.kind == Resource.Kind.THROTTLED && throttled(h, r, res, entry)) {
          return;
        }
        sendPage(req, res, h, Pages.html(web, r, port), HTML, entry);
      }
      case ROBOTS -> sendPage(req, res, h, Pages.robots(web, h, port), "text/plain; charset=utf-8", entry);
      case SITEMAP -> sendPage(req, res, h, Pages.sitemap(web, h, port), "application/xml", entry);
      case ROBOTS_ERROR -> sendError(res, 503, "Service Unavailable", entry);
      case NOT_FOUND -> sendError(res, 404, "Not Found", entry);
      case SERVER_ERROR -> sendError(res, 500, "Internal Server Error", entry);
      case REDIRECT -> {
        res.header("Location", r.location.href(port));
        sendError(res, r.status, r.status == 301 ? "Moved Permanently" : "Found", entry);
      }
      case GZIP_BOMB -> {
        res.header("Content-Encoding", "gzip");
        sendPage(req, res, h, bomb, HTML, entry);
      }
      case SLOW_DRIP -> drip(req, res, entry);
      case RESET -> reset(req, res, Pages.html(web, web.resolve(h, "/"), port), entry);
      default -> throw new IllegalStateException("unexpected resource " + r);
    }
  }

  /** Answers 429 to the first {@code throttleCount} requests for a throttled page; @return whether it did */
  private boolean throttled(SyntheticWeb.Host h, Resource r, Response res, Entry entry) throws IOException, Suspendable {
    if (throttled.computeIfAbsent(h.name + r.pathAndQuery, k -> new AtomicInteger()).getAndIncrement() >= config.throttleCount()) {
      return false;
    }
    res.header("Retry-After", Long.toString(config.retryAfter().getSeconds()));
    sendError(res, 429, "Too Many Requests", entry);
    return true;
  }

  private static void sendError(Response res, int status, String reason, Entry entry) throws IOException, Suspendable {
    byte[] body = Pages.error(status, reason);
    res.status(status).header("Content-Type", "text/plain; charset=utf-8");
    entry.log(status, body.length);
    res.send(body);
  }

  private static void sendPage(Request req, Response res, SyntheticWeb.Host h, byte[] body, String type, Entry entry)
      throws IOException, Suspendable {
    res.status(200).header("Content-Type", type);
    if (h.bandwidth == 0 || req.method().equals("HEAD")) {
      entry.log(200, body.length);
      res.send(body);
      return;
    }
    res.header("Content-Length", Integer.toString(body.length));
    FiberOutput out = res.output();
    int chunk = (int) Math.max(MIN_CHUNK, h.bandwidth / 20);
    for (int off = 0; off < body.length; off += chunk) {
      int n = Math.min(chunk, body.length - off);
      Fiber.sleep(Duration.ofNanos(n * 1_000_000_000L / h.bandwidth));
      if (off + n == body.length) {
        entry.log(200, body.length);
      }
      out.write(body, off, n);
      out.flush();
    }
  }

  private void drip(Request req, Response res, Entry entry) throws IOException, Suspendable {
    byte[] head = Pages.dripHead();
    long ticks = config.slowDripDuration().toNanos() / DRIP_TICK.toNanos();
    int perTick = (int) Math.max(1, config.slowDripBandwidth() * DRIP_TICK.toMillis() / 1000);
    res.status(200).header("Content-Type", HTML)
        .header("Content-Length", Long.toString(head.length + ticks * perTick));
    if (req.method().equals("HEAD")) {
      entry.log(200, 0);
      res.send(new byte[0]);
      return;
    }
    FiberOutput out = res.output();
    out.write(head);
    out.flush();
    byte[] fill = new byte[perTick];
    Arrays.fill(fill, Pages.DRIP_FILL);
    long sent = head.length;
    for (long i = 0; i < ticks; i++) {
      Fiber.sleep(DRIP_TICK);
      sent += perTick;
      if (i == ticks - 1) {
        entry.log(200, sent);
      }
      try {
        out.write(fill);
        out.flush();
      } catch (IOException e) {
        entry.log(200, sent - perTick); // the client gave up on the drip
        throw e;
      }
    }
  }

  private static void reset(Request req, Response res, byte[] body, Entry entry) throws IOException, Suspendable {
    res.status(200).header("Content-Type", HTML).header("Content-Length", Integer.toString(body.length));
    FiberOutput out = res.output();
    entry.log(0, req.method().equals("HEAD") ? 0 : body.length / 2);
    if (!req.method().equals("HEAD")) {
      out.write(body, 0, body.length / 2);
      out.flush();
    }
  }

  /** @return the host of a Host header, lower case, without port; empty if none */
  static String hostName(String header) {
    if (header == null) {
      return "";
    }
    String h = header.trim().toLowerCase(Locale.ROOT);
    int colon = h.lastIndexOf(':');
    if (colon >= 0 && h.indexOf(']') < colon) {
      h = h.substring(0, colon);
    }
    return h.endsWith(".") ? h.substring(0, h.length() - 1) : h;
  }

  /** @return the target in origin form: absolute-form targets lose their scheme and authority */
  static String originForm(String uri) {
    if (uri.startsWith("http://") || uri.startsWith("https://")) {
      int slash = uri.indexOf('/', uri.indexOf("//") + 2);
      return slash < 0 ? "/" : uri.substring(slash);
    }
    return uri;
  }
}
