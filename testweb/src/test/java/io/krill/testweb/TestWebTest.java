package io.krill.testweb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.Socket;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.List;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(120)
class TestWebTest {
  /** A small, fast web: no latency, unlimited bandwidth. */
  static TestWebConfig.Builder fast() {
    return TestWebConfig.builder().hosts(8).ips(3).pagesPerHost(10).latency(Duration.ZERO).bandwidth(0)
        .slowDripDuration(Duration.ofSeconds(1)).gzipBombBytes(4L << 20);
  }

  private static int pageOf(SyntheticWeb web, int host, SyntheticWeb.PageKind kind) {
    for (int k = 1; k < web.linkable(); k++) {
      if (web.kind(host, k) == kind) {
        return k;
      }
    }
    return -1;
  }

  @Test
  void start_servesEveryHostOnItsOwnAddressAndOnePort() throws Exception {
    try (TestWeb tw = TestWeb.start(fast().build()); TestHttpClient http = new TestHttpClient(tw.newResolver(), Duration.ofSeconds(10))) {
      assertThat(tw.httpAddresses()).extracting(a -> a.getAddress().getHostAddress())
          .containsExactly("127.0.1.1", "127.0.1.2", "127.0.1.3");
      assertThat(tw.httpAddresses()).allMatch(a -> a.getPort() == tw.port());
      for (String host : tw.web().hosts()) {
        TestHttpClient.Reply r = http.get("http://" + host + ":" + tw.port() + "/");
        assertThat(r.status()).isEqualTo(200);
        assertThat(r.address()).isEqualTo(tw.web().addressOf(host));
        assertThat(r.header("content-type")).startsWith("text/html");
        assertThat(r.text()).contains("<title>" + host + " /</title>");
      }
      assertThat(tw.seedUrls()).containsExactly("http://h0.krill.test:" + tw.port() + "/");
    }
  }

  @Test
  void request_hostOnAnotherAddress_isMisdirected() throws Exception {
    try (TestWeb tw = TestWeb.start(fast().build())) {
      // h1 lives on 127.0.1.2; ask 127.0.1.1 for it with a raw socket.
      try (Socket s = new Socket(InetAddress.getByName("127.0.1.1"), tw.port())) {
        s.setSoTimeout(10_000);
        s.getOutputStream().write(("GET / HTTP/1.1\r\nHost: h1.krill-1.test:" + tw.port() + "\r\nConnection: close\r\n\r\n")
            .getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        String answer = new String(s.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.US_ASCII);
        assertThat(answer).startsWith("HTTP/1.1 421 ").contains("h1.krill-1.test is not served at 127.0.1.1");
      }
      AccessLog.Entry e = tw.accessLog().entries().get(0);
      assertThat(e.status()).isEqualTo(421);
      assertThat(e.server().getHostAddress()).isEqualTo("127.0.1.1");
      assertThat(e.host()).isEqualTo("h1.krill-1.test");
    }
  }

  @Test
  void robots_servedAsModelledPerHost() throws Exception {
    TestWebConfig c = fast().hosts(30).robotsMissingRate(0.3).robotsErrorRate(0.3).calendarHosts(0).sessionIdHosts(0)
        .deepPathHosts(0).redirectLoopHosts(0).gzipBombHosts(0).build();
    try (TestWeb tw = TestWeb.start(c); TestHttpClient http = new TestHttpClient(tw.newResolver(), Duration.ofSeconds(10))) {
      List<String> missing = tw.web().hostsWithoutRobots();
      List<String> error = tw.web().hostsWithRobotsError();
      assertThat(missing).isNotEmpty();
      assertThat(error).isNotEmpty();
      for (String host : tw.web().hosts()) {
        String base = "http://" + host + ":" + tw.port();
        TestHttpClient.Reply robots = http.get(base + "/robots.txt");
        TestHttpClient.Reply sitemap = http.get(base + "/sitemap.xml");
        if (missing.contains(host)) {
          assertThat(robots.status()).isEqualTo(404);
          assertThat(sitemap.status()).isEqualTo(404);
        } else if (error.contains(host)) {
          assertThat(robots.status()).isEqualTo(503);
          assertThat(sitemap.status()).isEqualTo(404);
        } else {
          assertThat(robots.status()).isEqualTo(200);
          assertThat(robots.text()).contains("Disallow: /private/", "Crawl-delay: 0.3", "Sitemap: " + base + "/sitemap.xml");
          assertThat(sitemap.status()).isEqualTo(200);
          assertThat(sitemap.header("content-type")).isEqualTo("application/xml");
          assertThat(sitemap.text()).contains("<loc>" + base + "/</loc>");
        }
      }
    }
  }

  @Test
  void throttledPage_answers429WithRetryAfterThenThePage() throws Exception {
    TestWebConfig c = fast().hosts(1).pagesPerHost(60).throttleRate(0.3).throttleCount(2).retryAfter(Duration.ofSeconds(7)).build();
    try (TestWeb tw = TestWeb.start(c); TestHttpClient http = new TestHttpClient(tw.newResolver(), Duration.ofSeconds(10))) {
      int k = pageOf(tw.web(), 0, SyntheticWeb.PageKind.THROTTLED);
      String url = "http://h0.krill.test:" + tw.port() + tw.web().pagePath(0, k);

      TestHttpClient.Reply first = http.get(url);
      TestHttpClient.Reply second = http.get(url);
      TestHttpClient.Reply third = http.get(url);

      assertThat(first.status()).isEqualTo(429);
      assertThat(first.header("retry-after")).isEqualTo("7");
      assertThat(second.status()).isEqualTo(429);
      assertThat(third.status()).isEqualTo(200);
      assertThat(third.text()).contains("<a href=");
      assertThat(tw.accessLog().entries()).extracting(AccessLog.Entry::status).containsExactly(429, 429, 200);
    }
  }

  @Test
  void errorPages_answerTheirStatusEveryTime() throws Exception {
    TestWebConfig c = fast().hosts(1).pagesPerHost(80).serverErrorRate(0.2).redirectRate(0.2).build();
    try (TestWeb tw = TestWeb.start(c); TestHttpClient http = new TestHttpClient(tw.newResolver(), Duration.ofSeconds(10))) {
      String base = "http://h0.krill.test:" + tw.port();
      int error = pageOf(tw.web(), 0, SyntheticWeb.PageKind.SERVER_ERROR);
      int redirect = pageOf(tw.web(), 0, SyntheticWeb.PageKind.REDIRECT);
      for (int i = 0; i < 2; i++) {
        assertThat(http.get(base + tw.web().pagePath(0, error)).status()).isEqualTo(500);
        TestHttpClient.Reply r = http.get(base + tw.web().pagePath(0, redirect));
        assertThat(r.status()).isEqualTo(301);
        assertThat(r.header("location")).startsWith("http://").contains(":" + tw.port() + "/");
      }
      assertThat(http.get(base + "/missing/1-2.html").status()).isEqualTo(404);
      assertThat(http.get(base + "/page/1.html?x=1").status()).isEqualTo(404);
      assertThat(http.request("POST", base + "/").status()).isEqualTo(405);
    }
  }

  @Test
  void resetPage_dropsTheConnectionInTheMiddleOfTheBody() throws Exception {
    TestWebConfig c = fast().hosts(1).pagesPerHost(80).resetRate(0.2).build();
    try (TestWeb tw = TestWeb.start(c); TestHttpClient http = new TestHttpClient(tw.newResolver(), Duration.ofSeconds(10))) {
      int k = pageOf(tw.web(), 0, SyntheticWeb.PageKind.RESET);
      String url = "http://h0.krill.test:" + tw.port() + tw.web().pagePath(0, k);

      assertThatThrownBy(() -> http.get(url)).isInstanceOf(IOException.class);
      assertThat(tw.accessLog().entries()).singleElement().satisfies(e -> {
        assertThat(e.status()).isZero();
        assertThat(e.bytes()).isPositive();
      });
    }
  }

  @Test
  void resetPages_manyCut_oneWarnForTheServerAndTheRestAtDebug() throws Exception {
    ch.qos.logback.classic.Logger log = (ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory.getLogger(
        io.krill.httpd.HttpServer.class);
    ch.qos.logback.core.read.ListAppender<ch.qos.logback.classic.spi.ILoggingEvent> lines = new ch.qos.logback.core.read.ListAppender<>();
    lines.start();
    log.addAppender(lines);
    log.setLevel(ch.qos.logback.classic.Level.DEBUG);
    log.setAdditive(false); // the lines go to this test only
    int cut = 0;
    TestWebConfig c = fast().hosts(1).pagesPerHost(80).resetRate(0.2).build();
    try (TestWeb tw = TestWeb.start(c); TestHttpClient http = new TestHttpClient(tw.newResolver(), Duration.ofSeconds(10))) {
      for (int k = 1; k < tw.web().linkable() && cut < 6; k++) {
        if (tw.web().kind(0, k) == SyntheticWeb.PageKind.RESET) {
          String url = "http://h0.krill.test:" + tw.port() + tw.web().pagePath(0, k);
          assertThatThrownBy(() -> http.get(url)).isInstanceOf(IOException.class);
          cut++;
        }
      }
    } finally {
      log.detachAppender(lines);
      log.setLevel(null);
      log.setAdditive(true);
    }
    // the trap is intended: its pages must not fill a benchmark's or a demo's output with warnings
    assertThat(cut).isEqualTo(6);
    List<ch.qos.logback.classic.spi.ILoggingEvent> shortBodies = lines.list.stream()
        .filter(e -> e.getFormattedMessage().contains("declared Content-Length")).toList();
    assertThat(shortBodies).hasSize(cut);
    assertThat(shortBodies).filteredOn(e -> e.getLevel() == ch.qos.logback.classic.Level.WARN).singleElement()
        .satisfies(e -> assertThat(e.getFormattedMessage()).contains("later such responses of this server are logged at DEBUG"));
    assertThat(shortBodies.get(cut - 1).getFormattedMessage()).endsWith("(" + cut + " so far)");
  }

  @Test
  void slowDrip_dripsItsBodyForTheConfiguredTimeThenEnds() throws Exception {
    TestWebConfig c = fast().hosts(1).pagesPerHost(80).slowDripRate(0.2).slowDripBandwidth(8).slowDripDuration(Duration.ofSeconds(2))
        .build();
    try (TestWeb tw = TestWeb.start(c); TestHttpClient http = new TestHttpClient(tw.newResolver(), Duration.ofSeconds(10))) {
      int k = pageOf(tw.web(), 0, SyntheticWeb.PageKind.SLOW_DRIP);
      String url = "http://h0.krill.test:" + tw.port() + tw.web().pagePath(0, k);

      TestHttpClient.Reply r = http.get(url);

      assertThat(r.status()).isEqualTo(200);
      // 8 ticks of 250 ms, 2 bytes each: bounded, and it took at least the drip time.
      assertThat(r.body()).hasSize(Pages.dripHead().length + 8 * 2);
      assertThat(Duration.ofNanos(r.nanos())).isGreaterThanOrEqualTo(Duration.ofMillis(1900));
    }
  }

  @Test
  void slowDrip_clientGivesUp_serverEndsTheResponse() throws Exception {
    TestWebConfig c = fast().hosts(1).pagesPerHost(80).slowDripRate(0.2).slowDripDuration(Duration.ofMinutes(10)).build();
    try (TestWeb tw = TestWeb.start(c); TestHttpClient http = new TestHttpClient(tw.newResolver(), Duration.ofMillis(600))) {
      int k = pageOf(tw.web(), 0, SyntheticWeb.PageKind.SLOW_DRIP);
      String url = "http://h0.krill.test:" + tw.port() + tw.web().pagePath(0, k);

      // 16 bytes/s in 4-byte ticks: more than 600 ms without a byte never happens, so give up on the total instead.
      assertThatThrownBy(() -> http.get(url)).isInstanceOf(IOException.class);
    }
  }

  @Test
  void latencyAndBandwidth_delayTheAnswerAtLeastThatLong() throws Exception {
    TestWebConfig c = fast().hosts(1).pagesPerHost(4).pageBytes(64 << 10).latency(Duration.ofMillis(300)).latencyJitter(0)
        .bandwidth(128 << 10).build();
    try (TestWeb tw = TestWeb.start(c); TestHttpClient http = new TestHttpClient(tw.newResolver(), Duration.ofSeconds(10))) {
      TestHttpClient.Reply robots = http.get("http://h0.krill.test:" + tw.port() + "/robots.txt");
      TestHttpClient.Reply page = http.get("http://h0.krill.test:" + tw.port() + "/");

      assertThat(Duration.ofNanos(robots.nanos())).isGreaterThanOrEqualTo(Duration.ofMillis(300));
      long seconds = page.body().length * 1_000_000_000L / (128 << 10);
      assertThat(page.body().length).isGreaterThan(32 << 10);
      assertThat(page.nanos()).isGreaterThanOrEqualTo(Duration.ofMillis(300).toNanos() + seconds * 9 / 10);
      assertThat(tw.accessLog().entries(("h0.krill.test"))).allSatisfy(
          e -> assertThat(e.duration()).isGreaterThanOrEqualTo(Duration.ofMillis(300)));
    }
  }

  @Test
  void gzipBomb_isARealGzipStreamThatInflatesFarBeyondItsSize() throws Exception {
    TestWebConfig c = fast().hosts(1).gzipBombHosts(1).gzipBombBytes(32L << 20).build();
    try (TestWeb tw = TestWeb.start(c); TestHttpClient http = new TestHttpClient(tw.newResolver(), Duration.ofSeconds(10))) {
      TestHttpClient.Reply r = http.get("http://h0.krill.test:" + tw.port() + "/bomb.html");

      assertThat(r.status()).isEqualTo(200);
      assertThat(r.header("content-encoding")).isEqualTo("gzip");
      assertThat(r.body().length).isLessThan((32 << 20) / 500);
      long inflated = 0;
      try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(r.body()))) {
        byte[] buf = new byte[1 << 16];
        for (int n; (n = in.read(buf)) > 0;) {
          inflated += n;
        }
      }
      assertThat(inflated).isEqualTo(32L << 20);
    }
  }

  @Test
  void traps_servedEndlessly_eachAnswerBounded() throws Exception {
    TestWebConfig c = fast().hosts(1).calendarHosts(1).sessionIdHosts(1).deepPathHosts(1).redirectLoopHosts(1).build();
    try (TestWeb tw = TestWeb.start(c); TestHttpClient http = new TestHttpClient(tw.newResolver(), Duration.ofSeconds(10))) {
      String base = "http://h0.krill.test:" + tw.port();
      String url = base + "/calendar/2026/01.html";
      for (int i = 0; i < 30; i++) {
        TestHttpClient.Reply r = http.get(url);
        assertThat(r.status()).isEqualTo(200);
        assertThat(r.body().length).isLessThan(1024);
        org.jsoup.nodes.Document doc = org.jsoup.Jsoup.parse(r.text(), url);
        url = doc.select("a[href]").get(1).absUrl("href");
      }
      assertThat(url).isEqualTo(base + "/calendar/2028/07.html");

      url = base + "/deep/1/";
      for (int i = 0; i < 30; i++) {
        TestHttpClient.Reply r = http.get(url);
        assertThat(r.status()).isEqualTo(200);
        assertThat(r.body().length).isLessThan(1024);
        url = org.jsoup.Jsoup.parse(r.text(), url).select("a[href]").get(0).absUrl("href");
      }
      assertThat(url).endsWith("/29/30/31/");

      url = base + "/loop/0";
      for (int i = 0; i < 7; i++) {
        TestHttpClient.Reply r = http.get(url);
        assertThat(r.status()).isEqualTo(302);
        url = java.net.URI.create(url).resolve(r.header("location")).toString();
      }
      assertThat(url).isEqualTo(base + "/loop/1");
    }
  }

  @Test
  void accessLog_recordsEveryRequestWithItsAddressesHostPathAndStatus() throws Exception {
    TestWebConfig c = fast().build();
    try (TestWeb tw = TestWeb.start(c); TestHttpClient http = new TestHttpClient(tw.newResolver(), Duration.ofSeconds(10))) {
      http.get("http://h2.krill.test:" + tw.port() + "/");
      http.get("http://h2.krill.test:" + tw.port() + "/missing/x.html");

      List<AccessLog.Entry> entries = tw.accessLog().entries("h2.krill.test");
      assertThat(entries).hasSize(2);
      assertThat(entries).extracting(AccessLog.Entry::target).containsExactly("/", "/missing/x.html");
      assertThat(entries).extracting(AccessLog.Entry::status).containsExactly(200, 404);
      assertThat(entries).allSatisfy(e -> {
        assertThat(e.server()).isEqualTo(tw.web().addressOf("h2.krill.test"));
        assertThat(e.client().getAddress().isLoopbackAddress()).isTrue();
        assertThat(e.endNanos()).isGreaterThanOrEqualTo(e.startNanos());
      });
      assertThat(tw.accessLog().urls()).containsExactly("http://h2.krill.test:" + tw.port() + "/",
          "http://h2.krill.test:" + tw.port() + "/missing/x.html");
      assertThat(tw.accessLog().maxInFlightByAddress()).containsEntry(tw.web().addressOf("h2.krill.test"), 1);
      assertThat(tw.accessLog().minGapByHost()).containsKey("h2.krill.test");
      assertThat(tw.accessLog().total()).isEqualTo(2);
    }
  }

  @Test
  void accessLog_full_countsWhatItDoesNotKeep() throws Exception {
    try (TestWeb tw = TestWeb.start(fast().accessLogLimit(2).build());
        TestHttpClient http = new TestHttpClient(tw.newResolver(), Duration.ofSeconds(10))) {
      for (int i = 0; i < 5; i++) {
        http.get("http://h0.krill.test:" + tw.port() + "/");
      }
      assertThat(tw.accessLog().entries()).hasSize(2);
      assertThat(tw.accessLog().total()).isEqualTo(5);
      assertThat(tw.accessLog().dropped()).isEqualTo(3);
    }
  }

  @Test
  void close_freesThePortsAndTheDnsServer() throws Exception {
    TestWeb tw = TestWeb.start(fast().build());
    int port = tw.port();
    java.net.InetSocketAddress dns = tw.dnsServer();
    tw.close();

    for (java.net.InetSocketAddress a : tw.httpAddresses()) {
      assertThatThrownBy(() -> new Socket(a.getAddress(), port).close()).isInstanceOf(ConnectException.class);
    }
    assertThatThrownBy(() -> new Socket(dns.getAddress(), dns.getPort()).close()).isInstanceOf(ConnectException.class);
    // The same port can be served again at once.
    try (TestWeb again = TestWeb.start(fast().port(port).build())) {
      assertThat(again.port()).isEqualTo(port);
    }
  }

  @Test
  void start_twoWebsAtOnce_getTheirOwnPorts() throws Exception {
    try (TestWeb a = TestWeb.start(fast().build()); TestWeb b = TestWeb.start(fast().seed(7).build());
        TestHttpClient http = new TestHttpClient(b.newResolver(), Duration.ofSeconds(10))) {
      assertThat(a.port()).isNotEqualTo(b.port());
      assertThat(http.get(b.seedUrls().get(0)).status()).isEqualTo(200);
      assertThat(a.accessLog().total()).isZero();
    }
  }

  @Test
  void start_portTakenOnOneAddress_failsNamingIt() throws Exception {
    try (java.net.ServerSocket taken = new java.net.ServerSocket(0, 1, InetAddress.getByName("127.0.1.2"))) {
      assertThatThrownBy(() -> TestWeb.start(fast().port(taken.getLocalPort()).build()))
          .isInstanceOf(java.net.BindException.class).hasMessageContaining("127.0.1.2").hasMessageContaining("" + taken.getLocalPort());
    }
  }

  @Test
  void dns_unknownAndDeadNames_doNotResolve() throws Exception {
    try (TestWeb tw = TestWeb.start(fast().build()); TestHttpClient http = new TestHttpClient(tw.newResolver(), Duration.ofSeconds(10))) {
      assertThatThrownBy(() -> http.resolve("nx0-1-2.krill.test")).isInstanceOf(UnknownHostException.class).hasMessageContaining("NXDOMAIN");
      assertThatThrownBy(() -> http.resolve("example.com")).isInstanceOf(UnknownHostException.class).hasMessageContaining("NXDOMAIN");
      assertThat(http.resolve("h5.krill-1.test")).isEqualTo(tw.web().addressOf("h5.krill-1.test"));
    }
  }

  @Test
  void start_benchmarkSize_servesFiveThousandHostsWithTheirLatency() throws Exception {
    TestWebConfig c = TestWebConfig.builder().hosts(5000).ips(16).latency(Duration.ofMillis(50)).latencyJitter(0).bandwidth(0)
        .gzipBombBytes(1L << 20).build();
    try (TestWeb tw = TestWeb.start(c); TestHttpClient http = new TestHttpClient(tw.newResolver(), Duration.ofSeconds(10))) {
      assertThat(tw.web().hosts()).hasSize(5000);
      assertThat(tw.httpAddresses()).hasSize(16);
      for (int i = 0; i < 5000; i += 499) {
        String host = tw.web().hosts().get(i);
        TestHttpClient.Reply r = http.get("http://" + host + ":" + tw.port() + "/");
        assertThat(r.status()).isEqualTo(200);
        assertThat(r.address()).isEqualTo(tw.web().addressOf(host));
        assertThat(Duration.ofNanos(r.nanos())).isGreaterThanOrEqualTo(Duration.ofMillis(50));
      }
      GroundTruth truth = tw.groundTruth(Scope.builder().maxDepth(3).build());
      assertThat(truth.hostsContacted()).hasSizeGreaterThan(3);
      assertThat(truth.maxDepth()).isEqualTo(3);
    }
  }
}
