package io.krill.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.krill.crawler.CrawlConfig;
import io.krill.crawler.CrawlSummary;
import io.krill.crawler.Crawler;
import io.krill.crawler.frontier.Scope;
import io.krill.testweb.TestWeb;
import io.krill.testweb.TestWebConfig;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The console on real sockets: a testweb crawl, the JDK's WebSocket and HTTP clients. */
@Timeout(300)
class WebConsoleTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  @TempDir
  Path tmp;

  static TestWebConfig.Builder smallWeb() {
    return TestWebConfig.builder().hosts(6).pagesPerHost(15).latency(Duration.ofMillis(2)).slowDripRate(0)
        .crawlDelay(Duration.ofMillis(20));
  }

  static CrawlConfig.Builder crawlOf(TestWeb web, Path out, Duration delay) {
    CrawlConfig.Builder b = CrawlConfig.builder().out(out).resolver(web.newResolver()).allowPrivate(true)
        .scope(Scope.Kind.ANY).maxDepth(TestWeb.DEMO_MAX_DEPTH).delay(delay).perHost(1)
        .robotsRetry(Duration.ofMillis(300)).robotsAttempts(2).progress(CrawlConfig.Progress.OFF)
        .fsync(CrawlConfig.Fsync.NEVER);
    web.seedUrls().forEach(b::seed);
    return b;
  }

  @Test
  void snapshot_afterTestwebCrawl_equalsSummaryJsonAndListsEveryHost() throws Exception {
    try (TestWeb web = TestWeb.start(smallWeb().build())) {
      Path out = tmp.resolve("out");
      Crawler crawler = Crawler.create(crawlOf(web, out, Duration.ofMillis(5)).build());
      try (WebConsole console = WebConsole.builder(crawler.view()).pushInterval(Duration.ofMillis(50)).start();
          Tab tab = new Tab(console.port())) {
        CrawlSummary s = crawler.run();
        JsonNode last = tab.await(c -> !c.get("stoppedBy").isNull());
        JsonNode c = last.get("crawl");
        JsonNode summary = JSON.readTree(Files.readString(out.resolve("summary.json")));
        assertThat(c.get("stoppedBy").asText()).isEqualTo(summary.get("stopped_by").asText()).isEqualTo("done");
        assertThat(c.get("pages").asLong()).isEqualTo(summary.get("pages").asLong()).isEqualTo(s.pages()).isPositive();
        assertThat(c.get("requests").asLong()).isEqualTo(summary.get("requests").asLong());
        assertThat(c.get("bytes").asLong()).isEqualTo(summary.get("bytes").asLong());
        assertThat(c.get("robotsDisallowed").asLong()).isEqualTo(summary.get("robots_disallowed").asLong());
        assertThat(map(c.get("statuses"))).isEqualTo(map(summary.get("statuses")));
        assertThat(map(c.get("errors"))).isEqualTo(map(summary.get("errors")));
        assertThat(c.get("inFlight").asInt()).isZero();

        // every host the crawl wrote a line for is in the host table, with a reason
        Set<String> written = new TreeSet<>();
        for (String line : Files.readAllLines(out.resolve("crawl.jsonl"))) {
          URI u = URI.create(JSON.readTree(line).get("url").asText());
          written.add(u.getScheme() + "://" + u.getHost() + ":" + u.getPort());
        }
        Set<String> listed = new TreeSet<>();
        for (JsonNode h : c.get("hosts")) {
          listed.add(h.get("host").asText());
          assertThat(h.get("why").asText()).isNotEmpty();
        }
        assertThat(listed).isEqualTo(written).hasSizeGreaterThanOrEqualTo(web.web().hosts().size());

        // the recent lines are the file's lines, at their numbers
        java.util.List<String> lines = Files.readAllLines(out.resolve("crawl.jsonl"));
        JsonNode recent = last.get("recent");
        assertThat(recent.size()).isPositive();
        for (JsonNode r : recent) {
          assertThat(JSON.readTree(lines.get(r.get("line").asInt() - 1))).isEqualTo(r.get("record"));
        }
        JsonNode withWarc = null;
        for (JsonNode r : recent) {
          if (!r.get("warcFile").isNull()) {
            withWarc = r;
          }
        }
        assertThat(withWarc).isNotNull();
        assertThat(warcRecordAt(out.resolve(withWarc.get("warcFile").asText()), withWarc.get("warcOffset").asLong()))
            .contains("WARC-Target-URI: " + withWarc.get("record").get("url").asText());
      }
    }
  }

  @Test
  void pause_stopsNewFetches_resumeContinues_stopEndsWithSummary() throws Exception {
    try (TestWeb web = TestWeb.start(smallWeb().pagesPerHost(60).build())) {
      Path out = tmp.resolve("out");
      Crawler crawler = Crawler.create(crawlOf(web, out, Duration.ofMillis(30)).build());
      try (WebConsole console = WebConsole.builder(crawler.view()).pushInterval(Duration.ofMillis(20)).start();
          Tab tab = new Tab(console.port())) {
        CompletableFuture<CrawlSummary> run = WebConsoleTest.runInBackground(crawler);
        tab.await(c -> c.get("pages").asLong() >= 10);
        assertThat(post(console, "pause", console.token(), "").statusCode()).isEqualTo(200);
        JsonNode quiet = tab.await(c -> c.get("paused").asBoolean() && c.get("inFlight").asInt() == 0);
        long requests = quiet.get("crawl").get("requests").asLong();
        for (int i = 0; i < 10; i++) {
          JsonNode c = tab.next().get("crawl");
          assertThat(c.get("requests").asLong()).as("requests while paused").isEqualTo(requests);
          assertThat(c.get("inFlight").asInt()).isZero();
        }
        assertThat(run).isNotDone();

        assertThat(post(console, "resume", console.token(), "").statusCode()).isEqualTo(200);
        tab.await(c -> !c.get("paused").asBoolean() && c.get("requests").asLong() > requests);

        assertThat(post(console, "stop", console.token(), "").statusCode()).isEqualTo(200);
        CrawlSummary s = run.join();
        assertThat(s.stoppedBy()).isEqualTo("stopped");
        JsonNode end = tab.await(c -> !c.get("stoppedBy").isNull()).get("crawl");
        assertThat(end.get("stoppedBy").asText()).isEqualTo("stopped");
        assertThat(end.get("pages").asLong()).isEqualTo(s.pages());
        assertThat(JSON.readTree(Files.readString(out.resolve("summary.json"))).get("stopped_by").asText())
            .isEqualTo("stopped");
      }
    }
  }

  @Test
  void addSeeds_duringCrawl_fetchesTheNewHost() throws Exception {
    try (TestWeb web = TestWeb.start(smallWeb().build())) {
      Path out = tmp.resolve("out");
      String first = web.seedUrls().get(0);
      // one seed only, host scope: the other host comes only through the console
      CrawlConfig.Builder one = CrawlConfig.builder().out(out).resolver(web.newResolver()).allowPrivate(true)
          .scope(Scope.Kind.HOST).maxDepth(1).delay(Duration.ofMillis(5)).progress(CrawlConfig.Progress.OFF)
          .fsync(CrawlConfig.Fsync.NEVER).seed(first);
      Crawler crawler = Crawler.create(one.build());
      try (WebConsole console = WebConsole.builder(crawler.view()).start()) {
        crawler.view().pause();
        CompletableFuture<CrawlSummary> run = WebConsoleTest.runInBackground(crawler);
        String firstHost = URI.create(first).getHost();
        String other = web.web().hosts().stream().filter(h -> !h.equals(firstHost)).findFirst()
            .map(h -> "http://" + h + ":" + web.port() + "/").orElseThrow();
        HttpResponse<String> r = post(console, "seeds", console.token(), other + "\nnot a url\n");
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.body()).contains("1 of 2 seed URLs accepted");
        crawler.view().resume();
        run.join();
        Set<String> hosts = new TreeSet<>();
        for (String line : Files.readAllLines(out.resolve("crawl.jsonl"))) {
          hosts.add(URI.create(JSON.readTree(line).get("url").asText()).getHost());
        }
        assertThat(hosts).contains(URI.create(first).getHost(), URI.create(other).getHost());
      }
    }
  }

  @Test
  void controls_wrongOrMissingToken_refusedWith403() throws Exception {
    Crawler crawler = Crawler.create(CrawlConfig.builder().out(tmp.resolve("out")).seed("http://127.0.0.1:9/").build());
    try (WebConsole console = WebConsole.builder(crawler.view()).token("right").start()) {
      HttpResponse<String> wrong = post(console, "pause", "stale", "");
      assertThat(wrong.statusCode()).isEqualTo(403);
      assertThat(wrong.body()).contains("wrong or missing control token");
      assertThat(post(console, "pause", null, "").statusCode()).isEqualTo(403);
      assertThat(crawler.view().snapshot(0).paused()).isFalse();
      assertThat(post(console, "pause", "right", "").statusCode()).isEqualTo(200);
      assertThat(crawler.view().snapshot(0).paused()).isTrue();
      assertThat(post(console, "nonsense", "right", "").statusCode()).isEqualTo(404);
    }
  }

  @Test
  void start_nonLoopbackWithoutToken_refused_usedPort_bindException() throws Exception {
    Crawler crawler = Crawler.create(CrawlConfig.builder().out(tmp.resolve("out")).seed("http://127.0.0.1:9/").build());
    assertThatThrownBy(() -> WebConsole.start(crawler.view(), "0.0.0.0", 0, null))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("needs an explicit token");
    try (WebConsole first = WebConsole.start(crawler.view(), "127.0.0.1", 0, null)) {
      assertThat(first.token()).hasSizeGreaterThanOrEqualTo(16);
      assertThatThrownBy(() -> WebConsole.start(crawler.view(), "127.0.0.1", first.port(), null))
          .isInstanceOf(BindException.class);
    }
  }

  @Test
  void neverReadingTab_dropsSnapshots_crawlAndOtherTabsCarryOn() throws Exception {
    try (TestWeb web = TestWeb.start(smallWeb().build())) {
      Path out = tmp.resolve("out");
      Crawler crawler = Crawler.create(crawlOf(web, out, Duration.ofMillis(5)).build());
      try (WebConsole console = WebConsole.builder(crawler.view()).pushInterval(Duration.ofMillis(2))
          .sendQueueBytes(4096).start();
          Socket stuck = neverReading(console.port());
          Tab tab = new Tab(console.port())) {
        // the stuck tab's queue is full before the crawl starts: every snapshot from now on is dropped for it
        long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        while (console.dropped() == 0 && System.nanoTime() < deadline) {
          Thread.sleep(10);
        }
        assertThat(console.dropped()).isPositive();
        assertThat(console.tabs()).isEqualTo(2);
        CrawlSummary s = crawler.run();
        assertThat(s.stoppedBy()).isEqualTo("done");
        JsonNode end = tab.await(c -> !c.get("stoppedBy").isNull()).get("crawl");
        assertThat(end.get("pages").asLong()).isEqualTo(s.pages()).isPositive();
        assertThat(Files.readAllLines(out.resolve("crawl.jsonl"))).hasSize((int) lines(out));
      }
    }
  }

  /*
   * The crawl on a thread of its own, not the common fork-join pool: the DNS client completes its
   * lookups there, and a crawl blocking its only thread (on two cores) starves them.
   */
  static CompletableFuture<CrawlSummary> runInBackground(Crawler crawler) {
    CompletableFuture<CrawlSummary> f = new CompletableFuture<>();
    Thread t = new Thread(() -> {
      try {
        f.complete(crawler.run());
      } catch (Throwable e) {
        f.completeExceptionally(e);
      }
    }, "test-crawl");
    t.setDaemon(true);
    t.start();
    return f;
  }

  private static long lines(Path out) throws java.io.IOException {
    try (java.util.stream.Stream<String> s = Files.lines(out.resolve("crawl.jsonl"))) {
      return s.count();
    }
  }

  /* A tab that opens the WebSocket and never reads a byte after the handshake. */
  static Socket neverReading(int port) throws Exception {
    Socket s = new Socket();
    s.setReceiveBufferSize(1024);
    s.connect(new InetSocketAddress("127.0.0.1", port));
    OutputStream o = s.getOutputStream();
    o.write(("GET " + WebConsole.SOCKET_PATH + " HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
        + "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
        .getBytes(StandardCharsets.US_ASCII));
    o.flush();
    InputStream in = s.getInputStream();
    StringBuilder head = new StringBuilder();
    while (!head.toString().endsWith("\r\n\r\n")) {
      int b = in.read();
      if (b < 0) {
        throw new AssertionError("closed during the handshake: " + head);
      }
      head.append((char) b);
    }
    assertThat(head.toString()).startsWith("HTTP/1.1 101");
    return s;
  }

  /** @return the body of a GET of {@code path} on the console */
  static String get(WebConsole console, String path) throws Exception {
    return HTTP.send(HttpRequest.newBuilder(URI.create(console.url() + path)).build(), HttpResponse.BodyHandlers.ofString())
        .body();
  }

  private static HttpResponse<String> post(WebConsole console, String action, String token, String body)
      throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(console.url() + "api/" + action))
        .POST(HttpRequest.BodyPublishers.ofString(body));
    if (token != null) {
      b.header(WebConsole.TOKEN_HEADER, token);
    }
    return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  private static Map<String, Long> map(JsonNode o) {
    Map<String, Long> m = new TreeMap<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = o.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      m.put(e.getKey(), e.getValue().asLong());
    }
    return m;
  }

  /* The headers of the WARC record at offset: gunzips one member if the file is gzipped. */
  private static String warcRecordAt(Path file, long offset) throws java.io.IOException {
    try (InputStream raw = Files.newInputStream(file)) {
      raw.skipNBytes(offset);
      InputStream in = file.toString().endsWith(".gz") ? new java.util.zip.GZIPInputStream(raw) : raw;
      byte[] head = in.readNBytes(2048);
      return new String(head, StandardCharsets.ISO_8859_1);
    }
  }
}
