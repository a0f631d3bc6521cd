package io.krill.console;

import io.krill.console.internal.Assets;
import io.krill.console.internal.Pusher;
import io.krill.console.internal.SnapshotJson;
import io.krill.crawler.CrawlView;
import io.krill.crawler.cli.CrawlConsole;
import io.krill.fibers.Checks;
import io.krill.fibers.Suspendable;
import io.krill.httpd.HttpServer;
import io.krill.httpd.Request;
import io.krill.httpd.Response;
import io.krill.httpd.files.StaticFiles;
import io.krill.httpd.websocket.WebSocketRoute;
import io.krill.httpd.websocket.WebSocketSettings;
import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Objects;

/**
 * The web console of one crawl: serves its page and assets, pushes a snapshot of the
 * {@link CrawlView} to every open tab once per {@link Builder#pushInterval(Duration) interval}
 * over a WebSocket, and takes the controls as {@code POST /api/pause}, {@code /api/resume},
 * {@code /api/stop} and {@code /api/seeds} (URLs, one a line) carrying the token in the
 * {@value #TOKEN_HEADER} header; a wrong or missing token gets 403.
 *
 * <pre>{@code
 * Crawler crawler = Crawler.create(config);
 * try (WebConsole console = WebConsole.builder(crawler.view()).port(8090).start()) {
 *   System.err.println("console at " + console.url() + ", token " + console.token());
 *   crawler.run();
 * }
 * }</pre>
 *
 * <p>It binds to loopback by default; another address needs an explicit token. Threading: all
 * methods may be called from any thread.
 */
public final class WebConsole implements CrawlConsole {
  /** The request header carrying the control token. */
  public static final String TOKEN_HEADER = "X-Console-Token";
  /** The path of the snapshot WebSocket. */
  public static final String SOCKET_PATH = "/ws";
  /** The default address: loopback. */
  public static final String DEFAULT_ADDRESS = "127.0.0.1";
  /** The default interval between snapshots. */
  public static final Duration DEFAULT_PUSH_INTERVAL = Duration.ofSeconds(1);
  /** The default number of host rows per snapshot (the busiest hosts). */
  public static final int DEFAULT_MAX_HOSTS = 500;
  /**
   * The default number of snapshots per host-table refresh: the busiest hosts are picked and
   * written every fifth snapshot (every 5 s by default) and on a pause, a resume or the end;
   * the counters are fresh in every snapshot.
   */
  public static final int DEFAULT_HOST_EVERY = 5;
  /** The default bytes a tab may have waiting to be sent; a snapshot that does not fit is dropped. */
  public static final int DEFAULT_SEND_QUEUE_BYTES = 1 << 20;
  /** The largest request body (the seeds of one add-seeds request). */
  public static final long MAX_REQUEST_BYTES = 64 * 1024;

  private final CrawlView view;
  private final String token;
  private final HttpServer server;
  private final Pusher pusher;
  private final Assets assets;
  private final String url;

  private WebConsole(Builder b) throws IOException {
    this.view = b.view;
    this.token = b.token != null ? b.token : randomToken();
    this.assets = b.assetsDir != null ? Assets.in(b.assetsDir) : Assets.extract();
    SnapshotJson snapshots = new SnapshotJson(view, b.maxHosts, b.hostEvery);
    this.pusher = new Pusher(snapshots, b.pushInterval);
    WebSocketSettings ws = WebSocketSettings.builder().sendQueueBytes(b.sendQueueBytes).build();
    HttpServer s = HttpServer.builder().address(b.address).port(b.port).maxBodyBytes(MAX_REQUEST_BYTES)
        .get(SOCKET_PATH, WebSocketRoute.of(ws, pusher::serve))
        .get("/api/snapshot", (req, res) -> res.header("Content-Type", "application/json").send(pusher.current()))
        .post("/api/{action}", this::control)
        .fallback(StaticFiles.handler(assets.root()))
        .build();
    try {
      s.start();
    } catch (IOException | RuntimeException e) {
      assets.close();
      throw e;
    }
    this.server = s;
    String host = b.address.contains(":") ? "[" + b.address + "]" : b.address;
    this.url = "http://" + host + ":" + s.port() + "/";
    pusher.start();
  }

  /**
   * A console as {@code krill crawl --console HOST:PORT [--console-token TOKEN]} starts it, once
   * the command has read the address.
   *
   * @param view the crawl
   * @param host the address to listen on, e.g. {@code 127.0.0.1} or {@code ::1}
   * @param port the port; 0 picks a free one
   * @param token the control token, or null for a random one
   * @return the running console
   * @throws IllegalArgumentException if the address is not loopback and no token is given
   * @throws java.net.BindException if the port is in use
   * @throws IOException if it cannot be served
   */
  public static WebConsole start(CrawlView view, String host, int port, String token) throws IOException {
    Builder b = builder(view).address(host).port(port);
    if (token != null) {
      b.token(token);
    }
    return b.start();
  }

  /**
   * @param view the crawl to show and control
   * @return a builder with the defaults
   */
  public static Builder builder(CrawlView view) {
    return new Builder(view);
  }

  @Override
  public String url() {
    return url;
  }

  @Override
  public String token() {
    return token;
  }

  /** @return the bound port */
  public int port() {
    return server.port();
  }

  /** @return tabs open now */
  public int tabs() {
    return pusher.tabs();
  }

  /** @return snapshots sent to tabs so far */
  public long pushed() {
    return pusher.pushed();
  }

  /** @return snapshots dropped because a tab's send queue was full */
  public long dropped() {
    return pusher.dropped();
  }

  /** Pushes a last snapshot to every tab (the crawl's final numbers), then stops serving. */
  @Override
  public void close() {
    pusher.close();
    server.shutdown(Duration.ofSeconds(2));
    assets.close();
  }

  private void control(Request req, Response res) throws IOException, Suspendable {
    String given = req.header(TOKEN_HEADER);
    if (given == null || !MessageDigest.isEqual(given.getBytes(StandardCharsets.UTF_8),
        token.getBytes(StandardCharsets.UTF_8))) {
      res.status(403).header("Content-Type", "application/json")
          .send("{\"ok\":false,\"message\":\"wrong or missing control token\"}\n");
      return;
    }
    String message;
    switch (req.pathParam("action")) {
      case "pause":
        view.pause();
        message = "paused: no new fetches";
        break;
      case "resume":
        view.resume();
        message = "resumed";
        break;
      case "stop":
        view.stop();
        message = "stopping: fetches in flight finish, then the summary is written";
        break;
      case "seeds":
        List<String> urls = new ArrayList<>();
        for (String line : new String(req.bodyBytes(), StandardCharsets.UTF_8).split("\n")) {
          if (!line.isBlank()) {
            urls.add(line.trim());
          }
        }
        int n = view.addSeeds(urls);
        message = n + " of " + urls.size() + " seed URLs accepted";
        break;
      default:
        res.status(404).header("Content-Type", "application/json")
            .send("{\"ok\":false,\"message\":\"no such control\"}\n");
        return;
    }
    res.header("Content-Type", "application/json").send("{\"ok\":true,\"message\":\"" + message + "\"}\n");
  }

  private static String randomToken() {
    byte[] b = new byte[16];
    new SecureRandom().nextBytes(b);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(b);
  }

  /** Builds a {@link WebConsole}; every limit is checked here. */
  public static final class Builder {
    private final CrawlView view;
    private String address = DEFAULT_ADDRESS;
    private int port;
    private String token;
    private Duration pushInterval = DEFAULT_PUSH_INTERVAL;
    private int maxHosts = DEFAULT_MAX_HOSTS;
    private int hostEvery = DEFAULT_HOST_EVERY;
    private int sendQueueBytes = DEFAULT_SEND_QUEUE_BYTES;
    private Path assetsDir;

    private Builder(CrawlView view) {
      this.view = Objects.requireNonNull(view, "view");
    }

    /** @param address the address to bind, loopback by default @return this */
    public Builder address(String address) {
      this.address = Objects.requireNonNull(address, "address");
      return this;
    }

    /** @param port the port, 0 (the default) for any free one @return this */
    public Builder port(int port) {
      this.port = Checks.port("port", port);
      return this;
    }

    /** @param token the control token (default: a random one) @return this */
    public Builder token(String token) {
      if (token.isBlank()) {
        throw Checks.bad("token", "\"" + token + "\"", "a secret, not blank");
      }
      this.token = token;
      return this;
    }

    /** @param interval time between snapshots @return this */
    public Builder pushInterval(Duration interval) {
      this.pushInterval = Checks.positive("pushInterval", interval);
      return this;
    }

    /** @param hosts host rows per snapshot @return this */
    public Builder maxHosts(int hosts) {
      this.maxHosts = Checks.nonNegative("maxHosts", hosts);
      return this;
    }

    /** @param snapshots rebuild the host table on every this many snapshots (1: each one) @return this */
    public Builder hostEvery(int snapshots) {
      this.hostEvery = Checks.positive("hostEvery", snapshots);
      return this;
    }

    /** @param bytes bytes a tab may have waiting; a snapshot that does not fit is dropped @return this */
    public Builder sendQueueBytes(int bytes) {
      this.sendQueueBytes = Checks.positive("sendQueueBytes", bytes);
      return this;
    }

    /** @param dir serve the page from this directory rather than the jar's copy @return this */
    public Builder assets(Path dir) {
      this.assetsDir = Objects.requireNonNull(dir, "dir");
      return this;
    }

    /**
     * Binds and starts pushing.
     *
     * @return the running console
     * @throws IllegalArgumentException if the address is not loopback and no token was given
     * @throws java.net.BindException if the port is in use
     * @throws IOException if it cannot be served
     */
    public WebConsole start() throws IOException {
      if (token == null && !isLoopback(address)) {
        throw new IllegalArgumentException("a console on the non-loopback address " + address
            + " needs an explicit token (--console-token)");
      }
      return new WebConsole(this);
    }

    private static boolean isLoopback(String address) {
      try {
        return InetAddress.getByName(address).isLoopbackAddress();
      } catch (UnknownHostException e) {
        throw new IllegalArgumentException("unknown host " + address);
      }
    }
  }
}
