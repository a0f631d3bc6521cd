package io.krill.crawler;

import io.krill.testkit.TestHttpServer;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.krill.testkit.TestHttpServer.Response;
import io.krill.fibers.ExecutionMode;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.netpreserve.jwarc.WarcReader;
import org.netpreserve.jwarc.WarcRecord;
import org.netpreserve.jwarc.WarcResponse;
import org.netpreserve.jwarc.WarcTruncationReason;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(120)
class CrawlerTest {
  @TempDir
  Path tmp;

  private static Set<String> fetchedPages(Path out) throws Exception {
    List<CrawlOutput.Line> lines = CrawlOutput.jsonl(out);
    return lines.stream().filter(l -> l.kind().equals("page") && l.status() == 200).map(CrawlOutput.Line::url)
        .collect(Collectors.toCollection(TreeSet::new));
  }

  private static void assertOneLinePerUrl(Path out) throws Exception {
    List<CrawlOutput.Line> lines = CrawlOutput.jsonl(out);
    Set<String> urls = new HashSet<>();
    for (CrawlOutput.Line l : lines) {
      assertThat(urls.add(l.kind() + " " + l.url())).as("one JSONL line per URL: " + l.url()).isTrue();
    }
  }

  @Test
  void run_strandCannotStart_stopsFailedAndResumeFetchesTheRestOnce() throws Exception {
    try (SmallWeb web = new SmallWeb(8, 20)) {
      Path out = tmp.resolve("out");
      Crawler first = Crawler.create(web.config(out).build());
      java.util.concurrent.atomic.AtomicInteger spawned = new java.util.concurrent.atomic.AtomicInteger();
      first.runners = (config, scheduler) -> {
        Runner real = Runner.create(config, scheduler);
        return new Runner((name, task) -> {
          if (spawned.incrementAndGet() > 10) {
            throw new OutOfMemoryError("unable to create native thread: possibly out of memory (test)");
          }
          real.spawn(name, task);
        }, real::close);
      };
      CrawlSummary s = first.run();
      assertThat(s.stoppedBy()).startsWith("failed: cannot start a strand").contains("unable to create native thread");
      assertThat(s.succeeded()).isFalse();
      Set<String> before = fetchedPages(out);
      assertThat(before).isNotEmpty();
      assertThat(web.reachablePages()).containsAll(before).hasSizeGreaterThan(before.size());
      // The refused work item and everything after it are still queued: resume fetches them, once each.
      CrawlSummary resumed = Crawler.create(web.config(out).resume(true).build()).run();
      assertThat(resumed.stoppedBy()).isEqualTo("done");
      assertThat(fetchedPages(out)).isEqualTo(web.reachablePages());
      // Every page once over both runs (robots.txt is fetched again by a resumed crawl).
      List<String> pageLines = CrawlOutput.jsonl(out).stream().filter(l -> l.kind().equals("page"))
          .map(CrawlOutput.Line::url).collect(Collectors.toList());
      assertThat(pageLines).doesNotHaveDuplicates();
    }
  }

  @Test
  void resume_journalCutBeforeTheSeedsCommit_crawlsFromTheSeeds() throws Exception {
    try (SmallWeb web = new SmallWeb(8, 20)) {
      Path out = tmp.resolve("out");
      // what a crawl killed right after creating its journal leaves: an empty journal, no output
      java.nio.file.Files.createDirectories(out);
      java.nio.file.Files.write(out.resolve(io.krill.crawler.journal.Journal.FILE), new byte[0]);
      CrawlSummary s = Crawler.create(web.config(out).resume(true).build()).run();
      assertThat(s.stoppedBy()).isEqualTo("done");
      assertThat(fetchedPages(out)).isEqualTo(web.reachablePages());
      assertOneLinePerUrl(out);
    }
  }

  @Test
  void run_smallWeb_fetchesExactlyTheReachablePagesOncePolitely() throws Exception {
    try (SmallWeb web = new SmallWeb(8, 20)) {
      Path out = tmp.resolve("out");
      CrawlSummary s = Crawler.create(web.config(out).build()).run();
      assertThat(s.stoppedBy()).isEqualTo("done");
      assertThat(fetchedPages(out)).isEqualTo(web.reachablePages());
      assertOneLinePerUrl(out);
      List<TestHttpServer.Hit> hits = web.hits();
      // every page requested once, robots.txt once per host, /private/ never
      Map<String, Long> perUrl = hits.stream().collect(Collectors.groupingBy(h -> h.host() + h.path(), Collectors.counting()));
      assertThat(perUrl.values()).containsOnly(1L);
      assertThat(hits).noneMatch(h -> h.path().startsWith("/private/"));
      assertThat(hits.stream().filter(h -> h.path().equals("/robots.txt")).count()).isEqualTo(3);
      // per-IP cap 1: a.test and b.test share 127.0.0.2 and never overlap
      assertThat(web.ip2.maxConcurrent("ip:127.0.0.2")).isEqualTo(1);
      // per-host delay 40 ms between request starts, seen by the server (10 ms slack for scheduling)
      Map<String, List<Long>> starts = new HashMap<>();
      for (TestHttpServer.Hit h : hits) {
        starts.computeIfAbsent(h.host(), k -> new ArrayList<>()).add(h.startNanos());
      }
      for (List<Long> l : starts.values()) {
        l.sort(null);
        for (int i = 1; i < l.size(); i++) {
          assertThat(l.get(i) - l.get(i - 1)).as("gap between requests to one host").isGreaterThan(30_000_000L);
        }
      }
      // disallowed and unresolvable links are recorded, not fetched
      List<CrawlOutput.Line> lines = CrawlOutput.jsonl(out);
      assertThat(lines).filteredOn(l -> l.url().contains("/private/")).hasSize(3)
          .allMatch(l -> l.error().startsWith("robots: disallowed"));
      assertThat(lines).filteredOn(l -> l.url().contains("broken.test")).singleElement()
          .satisfies(l -> assertThat(l.error()).startsWith("dns: "));
      // WARC: every record valid; a request and response per fetch; DNS answers recorded
      List<String> records = CrawlOutput.validateWarcs(out);
      assertThat(records.stream().filter(r -> r.startsWith("response ")).count()).isEqualTo(3 * 8 + 3);
      assertThat(records.stream().filter(r -> r.startsWith("request ")).count()).isEqualTo(3 * 8 + 3);
      assertThat(records).contains("resource dns:a.test", "resource dns:b.test", "resource dns:c.test");
      assertThat(s.pages()).isEqualTo(3 * 8);
      assertThat(s.requests()).isEqualTo(3 * 8 + 3);
      assertThat(Files.readString(out.resolve("summary.json"))).contains("\"stopped_by\":\"done\"");
    }
  }

  @Test
  void run_resolverThrowsRuntimeException_hostFailedAndCrawlFinishes() throws Exception {
    try (SmallWeb web = new SmallWeb(4, 0)) {
      Path out = tmp.resolve("out");
      // a real crawl whose resolver has a bug for one host: the host must fail, not stay resolving
      CrawlSummary s = Crawler.create(web.config(out).maxDuration(Duration.ofSeconds(60)).build())
          .wrapLookup(real -> uri -> {
            if (uri.getHost().equals("c.test")) {
              throw new IllegalStateException("resolver bug");
            }
            return real.addresses(uri);
          }).run();
      assertThat(s.stoppedBy()).isEqualTo("done");
      List<CrawlOutput.Line> lines = CrawlOutput.jsonl(out);
      assertThat(lines).filteredOn(l -> l.url().contains("c.test")).isNotEmpty()
          .allSatisfy(l -> assertThat(l.error()).startsWith("dns: ").contains("resolver bug"));
      assertThat(web.ip3.hits()).isEmpty();
      Set<String> expected = new TreeSet<>(web.reachablePages());
      expected.removeIf(u -> u.contains("c.test"));
      assertThat(fetchedPages(out)).isEqualTo(expected);
      assertOneLinePerUrl(out);
    }
  }

  @Test
  void run_fetchThrowsRuntimeException_oneErrorOutcomeAndCrawlFinishes() throws Exception {
    try (SmallWeb web = new SmallWeb(4, 0)) {
      Path out = tmp.resolve("out");
      Set<String> failed = java.util.concurrent.ConcurrentHashMap.newKeySet();
      String broken = web.url("b.test", "/p2");
      CrawlSummary s = CrawlFaults.failingFetch(web.config(out).maxDuration(Duration.ofSeconds(60)).build(),
          broken::equals, failed).run();
      assertThat(s.stoppedBy()).isEqualTo("done");
      assertThat(failed).containsExactly(broken);
      // the page's outcome is its error, once; the rest of the web is crawled
      assertThat(CrawlOutput.jsonl(out)).filteredOn(l -> l.url().equals(broken)).singleElement()
          .satisfies(l -> assertThat(l.error()).isEqualTo("internal: java.lang.IllegalStateException: fault injected into the fetch path"));
      assertThat(s.errors()).containsEntry("internal", 1L);
      Set<String> expected = new TreeSet<>(web.reachablePages());
      expected.remove(broken);
      assertThat(fetchedPages(out)).isEqualTo(expected);
      assertOneLinePerUrl(out);
    }
  }

  @Test
  void run_threadsModeAndNaive_sameFetchedSetAsFibers() throws Exception {
    try (SmallWeb web = new SmallWeb(6, 5)) {
      Path threads = tmp.resolve("threads");
      Crawler.create(web.config(threads).mode(ExecutionMode.PLATFORM).threads(4).build()).run();
      Path naive = tmp.resolve("naive");
      Crawler.create(web.config(naive).naive(true).build()).run();
      Path naiveThreads = tmp.resolve("naive-threads");
      Crawler.create(web.config(naiveThreads).mode(ExecutionMode.PLATFORM).naive(true).build()).run();
      assertThat(fetchedPages(threads)).isEqualTo(web.reachablePages());
      assertThat(fetchedPages(naive)).isEqualTo(web.reachablePages());
      assertThat(fetchedPages(naiveThreads)).isEqualTo(web.reachablePages());
    }
  }

  @Test
  void run_virtualMode_crawlsOnJdk21OrRefusesClearlyOn17() throws Exception {
    try (SmallWeb web = new SmallWeb(4, 5)) {
      Path out = tmp.resolve("virtual");
      CrawlConfig c = web.config(out).mode(ExecutionMode.VIRTUAL).build();
      if (Runtime.version().feature() >= 21) {
        Crawler.create(c).run();
        assertThat(fetchedPages(out)).isEqualTo(web.reachablePages());
      } else {
        assertThatThrownBy(() -> Crawler.create(c).run()).isInstanceOf(UnsupportedOperationException.class)
            .hasMessageContaining("needs JDK 21");
      }
    }
  }

  @Test
  void run_429WithRetryAfter_retriedAfterTheWait() throws Exception {
    AtomicInteger busy = new AtomicInteger();
    try (SmallWeb web = new SmallWeb(2, 0, r -> r.uri().equals("/p1") && busy.getAndIncrement() == 0
        ? Response.status(429).header("Retry-After", "1") : null)) {
      Path out = tmp.resolve("out");
      CrawlSummary s = Crawler.create(web.config(out).build()).run();
      assertThat(fetchedPages(out)).isEqualTo(web.reachablePages());
      List<TestHttpServer.Hit> p1 = web.ip2.hits().stream().filter(h -> h.host().startsWith("a.test") && h.path().equals("/p1"))
          .toList();
      assertThat(p1).hasSize(2);
      assertThat(p1.get(1).startNanos() - p1.get(0).startNanos()).isGreaterThanOrEqualTo(950_000_000L);
      assertThat(s.statuses()).doesNotContainKey(429);
      assertOneLinePerUrl(out);
    }
  }

  @Test
  void run_robotsServerError_hostDisallowedThenGivenUp() throws Exception {
    try (SmallWeb web = new SmallWeb(3, 0, r -> r.uri().equals("/robots.txt") && r.headers().get("Host").startsWith("b.test")
        ? Response.status(503) : null)) {
      Path out = tmp.resolve("out");
      Crawler.create(web.config(out).robotsAttempts(2).robotsRetry(Duration.ofMillis(200)).build()).run();
      List<TestHttpServer.Hit> b = web.ip2.hits().stream().filter(h -> h.host().startsWith("b.test")).toList();
      assertThat(b).extracting(TestHttpServer.Hit::path).containsOnly("/robots.txt").hasSize(2);
      List<CrawlOutput.Line> lines = CrawlOutput.jsonl(out);
      assertThat(lines).filteredOn(l -> l.url().contains("b.test") && l.kind().equals("page")).isNotEmpty()
          .allMatch(l -> l.error() != null && l.error().contains("robots.txt unreachable after 2 attempts"));
      assertThat(fetchedPages(out)).contains(web.url("a.test", "/p0"), web.url("a.test", "/p2"));
    }
  }

  @Test
  void run_redirects_sameHostFollowedOtherHostQueued() throws Exception {
    try (SmallWeb web = new SmallWeb(2, 0, r -> {
      if (r.uri().equals("/p1") && r.headers().get("Host").startsWith("a.test")) {
        return Response.redirect(301, "/moved");
      }
      if (r.uri().equals("/moved")) {
        return Response.redirect(302, "http://c.test:" + r.headers().get("Host").replaceFirst(".*:", "") + "/p1");
      }
      return null;
    })) {
      Path out = tmp.resolve("out");
      Crawler.create(web.config(out).build()).run();
      List<CrawlOutput.Line> lines = CrawlOutput.jsonl(out);
      assertThat(lines).filteredOn(l -> l.url().equals(web.url("a.test", "/p1"))).singleElement()
          .satisfies(l -> assertThat(l.status()).isEqualTo(301));
      assertThat(lines).filteredOn(l -> l.url().equals(web.url("a.test", "/moved"))).singleElement()
          .satisfies(l -> assertThat(l.status()).isEqualTo(302));
      assertThat(fetchedPages(out)).contains(web.url("c.test", "/p1"));
      assertOneLinePerUrl(out);
      CrawlOutput.validateWarcs(out);
    }
  }

  @org.junit.jupiter.params.ParameterizedTest
  @org.junit.jupiter.params.provider.EnumSource(io.krill.crawler.frontier.Frontier.Order.class)
  void run_sitemapInRobots_orphanPageFetchedAfterTheSeed(io.krill.crawler.frontier.Frontier.Order order) throws Exception {
    AtomicReference<String> base = new AtomicReference<>();
    try (SmallWeb web = new SmallWeb(2, 0, r -> {
      String host = r.headers().get("Host");
      if (!host.startsWith("a.test")) {
        return null;
      }
      switch (r.uri()) {
        case "/robots.txt":
          return Response.ok("text/plain", "User-agent: *\nDisallow: /private/\nSitemap: http://" + host + "/sitemap.xml\n");
        case "/sitemap.xml":
          return Response.ok("application/xml", "<?xml version=\"1.0\"?><urlset xmlns=\"http://www.sitemaps.org/schemas/"
              + "sitemap/0.9\"><url><loc>http://" + host + "/orphan</loc></url></urlset>");
        case "/orphan":
          return Response.html("<p>only in the sitemap</p>");
        default:
          return null;
      }
    })) {
      Path out = tmp.resolve("out");
      Crawler.create(web.config(out).order(order).build()).run();
      List<CrawlOutput.Line> lines = CrawlOutput.jsonl(out);
      assertThat(lines).anyMatch(l -> l.kind().equals("sitemap") && l.url().endsWith("/sitemap.xml"));
      assertThat(fetchedPages(out)).contains(web.url("a.test", "/orphan"));
      // robots.txt queues the sitemap before the seed is fetched; DFS (newest first) must not let it overtake the seed
      assertThat(web.hits().stream().filter(h -> h.host().startsWith("a.test") && !h.path().equals("/robots.txt"))
          .findFirst().orElseThrow().path()).isEqualTo("/p0");
    }
  }

  @Test
  void run_tinySeenBudget_switchesToBloomAndStillCrawlsEverything() throws Exception {
    try (SmallWeb web = new SmallWeb(10, 0)) {
      Path out = tmp.resolve("out");
      CrawlSummary s = Crawler.create(web.config(out).seenMemory(500).bloomExpected(10_000).bloomFpp(0.0001).build()).run();
      assertThat(s.seenSet()).startsWith("bloom").contains("fpp 1.0E-4");
      assertThat(fetchedPages(out)).isEqualTo(web.reachablePages());
    }
  }

  @Test
  void run_smallWarcMaxSize_rotatesIntoValidFiles() throws Exception {
    try (SmallWeb web = new SmallWeb(6, 0)) {
      Path out = tmp.resolve("out");
      CrawlSummary s = Crawler.create(web.config(out).warcMaxSize(4096).build()).run();
      assertThat(s.warcFiles()).isGreaterThan(3);
      List<String> records = CrawlOutput.validateWarcs(out);
      assertThat(records.stream().filter(r -> r.startsWith("response ")).count()).isEqualTo(s.requests());
    }
  }

  @Test
  void run_responseCutByDeadlineOrCap_warcTruncatedTimeOrLength() throws Exception {
    try (SmallWeb web = new SmallWeb(3, 0, r -> {
      if (!r.headers().get("Host").startsWith("a.test")) {
        return null;
      }
      if (r.uri().equals("/p1")) {
        return Response.html("x".repeat(400)).drip(1, 50);
      }
      return r.uri().equals("/p2") ? Response.ok("text/html", new byte[50_000]) : null;
    })) {
      Path out = tmp.resolve("out");
      Crawler.create(web.config(out)
          .fetch(f -> f.minBytesPerSecond(0).totalTimeout(Duration.ofMillis(800)).maxBodyBytes(10_000)).build()).run();
      Map<String, Optional<WarcTruncationReason>> truncated = new HashMap<>();
      try (java.util.stream.Stream<Path> files = Files.list(out)) {
        for (Path f : files.filter(p -> p.getFileName().toString().contains(".warc")).toList()) {
          try (WarcReader r = new WarcReader(f)) {
            for (WarcRecord rec : r) {
              if (rec instanceof WarcResponse) {
                truncated.put(((WarcResponse) rec).target(), rec.truncated() == WarcTruncationReason.NOT_TRUNCATED
                    ? Optional.empty() : Optional.of(rec.truncated()));
              }
            }
          }
        }
      }
      assertThat(truncated.get(web.url("a.test", "/p1"))).as("deadline").contains(WarcTruncationReason.TIME);
      assertThat(truncated.get(web.url("a.test", "/p2"))).as("body cap").contains(WarcTruncationReason.LENGTH);
      assertThat(truncated.get(web.url("a.test", "/p0"))).as("whole").isEmpty();
    }
  }

  @Test
  void run_resumed_summaryCountsTheWholeCrawlWithThisRunsShare() throws Exception {
    try (SmallWeb web = new SmallWeb(8, 0)) {
      Path out = tmp.resolve("out");
      CrawlSummary first = Crawler.create(web.config(out).maxPages(5).build()).run();
      assertThat(first.earlier()).isNull();
      assertThat(Files.readString(out.resolve("summary.json"))).doesNotContain("this_run");
      CrawlSummary second = Crawler.create(web.config(out).resume(true).build()).run();
      assertThat(second.stoppedBy()).isEqualTo("done");
      // the pages answered over both runs, as their JSONL lines say
      long pageLines = CrawlOutput.jsonl(out).stream().filter(l -> !l.kind().equals("robots") && l.status() > 0).count();
      assertThat(second.whole().pages()).isEqualTo(pageLines).isEqualTo(first.pages() + second.pages());
      assertThat(second.earlier().pages()).isEqualTo(first.pages());
      assertThat(second.whole().statuses()).isEqualTo(Map.of(200, pageLines));
      Map<String, Long> errors = new java.util.TreeMap<>(first.errors());
      second.errors().forEach((k, v) -> errors.merge(k, v, Long::sum));
      assertThat(second.whole().errors()).isEqualTo(errors);
      assertThat(second.whole().robotsDisallowed()).isEqualTo(first.robotsDisallowed() + second.robotsDisallowed());
      com.fasterxml.jackson.databind.JsonNode json = new com.fasterxml.jackson.databind.ObjectMapper()
          .readTree(out.resolve("summary.json").toFile());
      assertThat(json.path("pages").asLong()).isEqualTo(pageLines);
      assertThat(json.path("this_run").path("pages").asLong()).isEqualTo(second.pages());
      assertThat(json.path("statuses").path("200").asLong()).isEqualTo(pageLines);
      assertThat(second.toText()).contains(pageLines + " pages in all, this run " + second.pages());
    }
  }

  @Test
  void run_maxPages_stopsDispatching() throws Exception {
    try (SmallWeb web = new SmallWeb(8, 0)) {
      Path out = tmp.resolve("out");
      CrawlSummary s = Crawler.create(web.config(out).maxPages(5).build()).run();
      assertThat(s.stoppedBy()).isEqualTo("max-pages");
      assertThat(s.pages()).isEqualTo(5);
      assertThat(web.hits().stream().filter(h -> h.path().startsWith("/p")).count()).isEqualTo(5);
    }
  }

  @Test
  void run_httpsSite_verifiedAgainstTrustedRootTlsErrorOtherwise() throws Exception {
    io.netty.pkitesting.X509Bundle root = new io.netty.pkitesting.CertificateBuilder().subject("CN=crawl test root")
        .setIsCertificateAuthority(true).buildSelfSigned();
    io.netty.pkitesting.X509Bundle leaf = new io.netty.pkitesting.CertificateBuilder().subject("CN=secure.test")
        .addSanDnsName("secure.test").addExtendedKeyUsageServerAuth().buildIssuedBy(root);
    try (SmallWeb web = new SmallWeb(1, 0);
        TestHttpServer tls = TestHttpServer.startTls("127.0.0.1", io.netty.handler.ssl.SslContextBuilder
            .forServer(leaf.getKeyPair().getPrivate(), leaf.getCertificatePath()).build(),
            r -> r.uri().equals("/robots.txt") ? Response.status(404) : Response.html("<a href='/next'>n</a>"))) {
      web.dns.answer("secure.test", "127.0.0.1");
      String seed = "https://secure.test:" + tls.port() + "/";
      Path trusted = tmp.resolve("trusted");
      Crawler.create(CrawlConfig.builder().seed(seed).out(trusted).resolver(web.resolver).allowPrivate(true)
          .fetch(f -> f.trust(root.getCertificate())).delay(Duration.ZERO).progress(CrawlConfig.Progress.OFF).build()).run();
      assertThat(fetchedPages(trusted)).containsExactly(seed, seed + "next");
      Path untrusted = tmp.resolve("untrusted");
      Crawler.create(CrawlConfig.builder().seed(seed).out(untrusted).resolver(web.resolver).allowPrivate(true)
          .delay(Duration.ZERO).progress(CrawlConfig.Progress.OFF).robotsAttempts(1).build()).run();
      assertThat(CrawlOutput.jsonl(untrusted)).filteredOn(l -> l.kind().equals("robots")).singleElement()
          .satisfies(l -> assertThat(l.error()).startsWith("tls: "));
      assertThat(fetchedPages(untrusted)).isEmpty();
    }
  }

  @Test
  void run_privateAddressWithoutAllowPrivate_refusedAndRecorded() throws Exception {
    try (SmallWeb web = new SmallWeb(1, 0)) {
      Path out = tmp.resolve("out");
      CrawlSummary s = Crawler.create(web.config(out).allowPrivate(false).build()).run();
      assertThat(web.hits()).isEmpty();
      assertThat(s.errors()).containsEntry("blocked", 1L);
      assertThat(CrawlOutput.jsonl(out)).singleElement()
          .satisfies(l -> assertThat(l.error()).startsWith("blocked: 127.0.0.2 is a loopback address"));
      // no seed could be fetched at all: the crawl failed, and says why and what to do
      assertThat(s.succeeded()).isFalse();
      assertThat(s.stoppedBy()).startsWith("failed: no seed could be fetched: " + web.url("a.test", "/p0")
          + ": blocked: 127.0.0.2 is a loopback address").contains("--allow-private");
    }
  }

  @Test
  void run_existingCrawlWithoutResume_refused() throws Exception {
    try (SmallWeb web = new SmallWeb(1, 0)) {
      Path out = tmp.resolve("out");
      Crawler.create(web.config(out).build()).run();
      assertThatThrownBy(() -> Crawler.create(web.config(out).build()).run()).isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("holds a crawl already");
    }
  }

  @Test
  void metrics_duringCrawl_openMetricsWithPerHostQueues() throws Exception {
    try (SmallWeb web = new SmallWeb(6, 0)) {
      Path out = tmp.resolve("out");
      Crawler c = Crawler.create(web.config(out).delay(Duration.ofMillis(300)).metricsPort(0).build());
      AtomicReference<Throwable> failed = new AtomicReference<>();
      Thread t = new Thread(() -> {
        try {
          c.run();
        } catch (Throwable e) {
          failed.set(e);
        }
      });
      t.start();
      while (c.metricsPort() < 0 && t.isAlive()) {
        Thread.sleep(10);
      }
      Thread.sleep(800);
      HttpClient http = HttpClient.newHttpClient();
      HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + c.metricsPort() + "/metrics"))
          .build(), HttpResponse.BodyHandlers.ofString());
      c.stop();
      t.join(30_000);
      assertThat(failed.get()).isNull();
      assertThat(r.statusCode()).isEqualTo(200);
      assertThat(r.headers().firstValue("Content-Type")).hasValueSatisfying(v -> assertThat(v).startsWith("application/openmetrics-text"));
      assertThat(r.body()).contains("# TYPE krill_crawl_pages counter", "krill_crawl_pages_total ",
          "krill_crawl_host_queued{host=\"http://a.test:" + web.port() + "\"", "krill_crawl_in_flight ").endsWith("# EOF\n");
    }
  }
}
