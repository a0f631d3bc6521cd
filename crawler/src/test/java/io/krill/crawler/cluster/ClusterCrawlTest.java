package io.krill.crawler.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.krill.crawler.CrawlSummary;
import io.krill.crawler.Crawler;
import io.krill.testweb.TestWeb;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Nodes of a crawl across machines in one JVM, on a real in-process KRaft broker, crawling the
 * synthetic web: they fetch exactly what one node fetches, never one host from two nodes at
 * once, and keep the host delay across hand-overs (nodes joining part-way move partitions).
 */
@Timeout(300)
class ClusterCrawlTest {
  @RegisterExtension static final ClusterBroker BROKER = new ClusterBroker();
  @TempDir Path tmp;

  static ClusterCrawl.Options options(String crawlId, int partitions) {
    return BROKER.options(crawlId, partitions);
  }

  @Test
  void threeNodesJoiningPartWay_fetchTheSingleNodeSet_oneNodePerHostAndTheDelayHolds() throws Exception {
    try (TestWeb web = ClusterWeb.start(12, 8, Duration.ofMillis(5))) {
      CrawlSummary single = Crawler.create(ClusterWeb.config(web, tmp.resolve("single")).build()).run();
      assertThat(single.stoppedBy()).isEqualTo("done");
      assertThat(ClusterWeb.repeated(web)).isEmpty();
      Set<String> expected = ClusterWeb.requested(web);
      assertThat(expected).hasSizeGreaterThan(50);
      web.accessLog().clear();

      ClusterCrawl.Options o = options("three", 6);
      ExecutorService pool = Executors.newFixedThreadPool(3);
      List<Future<CrawlSummary>> nodes = new ArrayList<>();
      ByteArrayOutputStream console = new ByteArrayOutputStream();
      PrintStream con = new PrintStream(console, true);
      for (int i = 0; i < 3; i++) {
        Path out = tmp.resolve("node" + i);
        long startAfter = i * 700L;
        nodes.add(pool.submit(() -> {
          Thread.sleep(startAfter);
          ClusterCrawl node = ClusterCrawl.join(o, ClusterWeb.fixed(web.seedUrls()), con);
          return node.run(ClusterWeb.config(web, node.outputDir(out)).build(), ClusterWeb.DELAY);
        }));
      }
      long fetched = 0;
      for (Future<CrawlSummary> f : nodes) {
        CrawlSummary s = f.get();
        assertThat(s.stoppedBy()).isEqualTo("done");
        fetched += s.pages();
      }
      pool.shutdown();
      assertThat(ClusterWeb.requested(web)).isEqualTo(expected);
      // hand-overs are graceful here: each URL is requested as often as one node requests it
      assertThat(ClusterWeb.repeated(web)).isEmpty();
      assertThat(fetched).isGreaterThanOrEqualTo(expected.size());
      assertThat(web.accessLog().maxInFlightByHost().values()).allSatisfy(n -> assertThat(n).isEqualTo(1));
      assertThat(web.accessLog().minGapByHost()).allSatisfy((host, gap) ->
          assertThat(gap).as(host).isGreaterThanOrEqualTo(ClusterWeb.DELAY));
      assertThat(console.toString()).contains("took partitions").contains("handed over partitions");
      String status = ClusterCrawl.status(o, con);
      assertThat(status).startsWith("crawl three: 0 nodes crawling").contains("(finished)");
    }
  }

  @Test
  void partitionByIp_hostsSharingAnAddressGoToOneNode_perIpPolitenessHoldsAcrossNodes() throws Exception {
    try (TestWeb web = TestWeb.start(io.krill.testweb.TestWebConfig.builder().hosts(12).ips(3).pagesPerHost(6)
        .latency(Duration.ofMillis(30)).crawlDelay(Duration.ZERO).calendarHosts(0).sessionIdHosts(0).deepPathHosts(0)
        .gzipBombHosts(0).redirectLoopHosts(0).slowDripRate(0).dnsTimeoutHosts(0).throttleRate(0).build())) {
      CrawlSummary single = Crawler.create(ClusterWeb.config(web, tmp.resolve("single")).perIp(1).build()).run();
      assertThat(single.stoppedBy()).isEqualTo("done");
      Set<String> expected = ClusterWeb.requested(web);
      web.accessLog().clear();
      ClusterCrawl.Options o = BROKER.options("byip", PartitionBy.IP, 6);
      ExecutorService pool = Executors.newFixedThreadPool(3);
      try {
        List<Future<CrawlSummary>> nodes = ClusterWeb.runNodes(pool, 3, o, web, i -> tmp.resolve("ip" + i),
            b -> b.perIp(1), ClusterWeb.DELAY);
        for (Future<CrawlSummary> f : nodes) {
          assertThat(f.get(240, java.util.concurrent.TimeUnit.SECONDS).stoppedBy()).isEqualTo("done");
        }
      } finally {
        pool.shutdownNow();
      }
      assertThat(ClusterWeb.requested(web)).isEqualTo(expected);
      assertThat(ClusterWeb.repeated(web)).isEmpty();
      // --per-ip 1 is one node's gate: it holds across the cluster only because each address has one owner
      assertThat(web.accessLog().maxInFlightByAddress()).hasSize(3)
          .allSatisfy((ip, n) -> assertThat(n).as(ip.toString()).isEqualTo(1));
    }
  }

  @Test
  void command_statusAfterACrawl_showsTheWholeCrawl() throws Exception {
    try (TestWeb web = ClusterWeb.start(2, 4, Duration.ofMillis(1))) {
      ClusterCrawl.Options o = options("st", 2);
      ClusterCrawl node = ClusterCrawl.join(o, ClusterWeb.fixed(web.seedUrls()), System.err);
      Crawler crawler = Crawler.create(ClusterWeb.config(web, node.outputDir(tmp)).metricsPort(0).build());
      java.util.concurrent.CompletableFuture<String> scraped = java.util.concurrent.CompletableFuture.supplyAsync(() -> scrape(crawler));
      CrawlSummary s = node.run(crawler, ClusterWeb.DELAY);
      assertThat(s.stoppedBy()).isEqualTo("done");
      // the node's endpoint shows the cluster's figures, before the end marker
      assertThat(scraped.get(60, java.util.concurrent.TimeUnit.SECONDS)).contains("krill_crawl_cluster_partitions_owned 2\n")
          .contains("krill_crawl_cluster_nodes ").contains("krill_crawl_pages").endsWith("# EOF\n");
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      ByteArrayOutputStream err = new ByteArrayOutputStream();
      int code = new io.krill.crawler.cli.CrawlCommand().streams(new PrintStream(out, true), new PrintStream(err, true))
          .commandLine().execute("--kafka", BROKER.bootstrap(), "--crawl-id", "st", "--partitions", "2", "--status");
      assertThat(code).as(err.toString()).isZero();
      assertThat(out.toString()).startsWith("crawl st: 0 nodes crawling, partitions owned 0/2, queued 0, in flight 0, fetched "
          + s.pages() + ", errors " + s.errors().values().stream().mapToLong(Long::longValue).sum() + " (finished)")
          .contains(node.node());
    }
  }

  @Test
  void fetchEndsByInternalError_recordsOneErrorOutcome_slotsFreeAndTheCrawlEnds() throws Exception {
    try (TestWeb web = ClusterWeb.start(3, 8, Duration.ofMillis(1))) {
      ClusterCrawl node = ClusterCrawl.join(options("faulty", 3), ClusterWeb.fixed(web.seedUrls()), System.err);
      Set<String> seeds = Set.copyOf(web.seedUrls());
      // more failing pages than --max-in-flight: each one that kept its slot would stall the node for good
      int maxInFlight = 2;
      java.util.concurrent.atomic.AtomicInteger budget = new java.util.concurrent.atomic.AtomicInteger(2 * maxInFlight + 1);
      Set<String> failed = java.util.concurrent.ConcurrentHashMap.newKeySet();
      Crawler crawler = io.krill.crawler.CrawlFaults.failingFetch(
          ClusterWeb.config(web, node.outputDir(tmp)).maxInFlight(maxInFlight).build(),
          url -> !seeds.contains(url) && (failed.contains(url) || budget.getAndDecrement() > 0), failed);
      ExecutorService pool = Executors.newSingleThreadExecutor();
      try {
        Future<CrawlSummary> run = pool.submit(() -> node.run(crawler, ClusterWeb.DELAY));
        CrawlSummary s;
        try {
          s = run.get(120, java.util.concurrent.TimeUnit.SECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
          crawler.stop();
          throw new AssertionError("the node did not end within 120 s with " + failed.size() + " failed fetches", e);
        }
        assertThat(s.stoppedBy()).isEqualTo("done");
        assertThat(failed).hasSize(2 * maxInFlight + 1);
        // exactly one outcome per failed fetch: one JSONL line naming the error, and Kafka has it done
        List<io.krill.crawler.CrawlOutput.Line> lines = io.krill.crawler.CrawlOutput.jsonl(node.outputDir(tmp));
        for (String url : failed) {
          assertThat(lines).as(url).filteredOn(l -> l.url().equals(url)).singleElement()
              .satisfies(l -> assertThat(l.error()).startsWith("internal: ").contains("fault injected"));
        }
        assertThat(s.errors()).containsEntry("internal", (long) failed.size());
        assertThat(ClusterWeb.requested(web)).doesNotContainAnyElementsOf(failed);
      } finally {
        pool.shutdownNow();
      }
      // the outcomes are durable in the changelog: the crawl started again has nothing left and ends at once
      ClusterCrawl again = ClusterCrawl.join(options("faulty", 3), ClusterWeb.fixed(web.seedUrls()), System.err);
      web.accessLog().clear();
      CrawlSummary second = again.run(ClusterWeb.config(web, again.outputDir(tmp)).build(), ClusterWeb.DELAY);
      assertThat(second.stoppedBy()).isEqualTo("done");
      assertThat(second.pages()).isZero();
    }
  }

  /* Scrapes the node's metrics until it owns both partitions (bounded); returns the last answer. */
  private static String scrape(Crawler crawler) {
    java.net.http.HttpClient client = java.net.http.HttpClient.newHttpClient();
    String body = "";
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (System.nanoTime() < deadline && !body.contains("krill_crawl_cluster_partitions_owned 2\n")) {
      try {
        Thread.sleep(50);
        if (crawler.metricsPort() > 0) {
          body = client.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create("http://127.0.0.1:" + crawler.metricsPort()
              + "/metrics")).build(), java.net.http.HttpResponse.BodyHandlers.ofString()).body();
        }
      } catch (java.io.IOException e) {
        // the endpoint closed with the crawl: keep the last answer
        break;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    return body;
  }

  @Test
  void command_kafkaWithoutCrawlId_oneLineExit2() {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code = new io.krill.crawler.cli.CrawlCommand().streams(System.out, new PrintStream(err, true)).commandLine()
        .execute("--kafka", BROKER.bootstrap(), "http://a.test/");
    assertThat(code).isEqualTo(2);
    assertThat(err.toString()).isEqualTo("krill crawl: --kafka needs --crawl-id NAME (the crawl to join) (see krill crawl --help)"
        + System.lineSeparator());
  }

  @Test
  void command_otherSettings_oneLineExit2() throws Exception {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    io.krill.crawler.cli.CrawlCommand first = new io.krill.crawler.cli.CrawlCommand();
    ClusterCrawl.join(options("flags", 12), Map.of("--max-depth", "2", "--scope", "host", "--allow-domain", "",
        "--include", "", "--exclude", "", "URL", "http://a.test/"), System.err);
    int code = first.streams(System.out, new PrintStream(err, true)).commandLine()
        .execute("--kafka", BROKER.bootstrap(), "--crawl-id", "flags", "--max-depth", "3", "--out", tmp.toString(), "http://a.test/");
    assertThat(code).isEqualTo(2);
    assertThat(err.toString()).startsWith("krill crawl: --crawl-id flags was started with other settings: ")
        .contains("--max-depth 2 (here 3)").hasLineCount(1);
  }

  @Test
  void join_otherSettings_oneLineNamingThem() throws Exception {
    ClusterCrawl.Options o = options("mismatch", 2);
    ClusterCrawl.join(o, Map.of("--max-depth", "3", "URL", "http://a.test/"), System.err);
    assertThatThrownBy(() -> ClusterCrawl.join(o, Map.of("--max-depth", "4", "URL", "http://a.test/"), System.err))
        .isInstanceOf(ClusterException.class)
        .hasMessage("--crawl-id mismatch was started with other settings: --max-depth 3 (here 4); use those flags or another --crawl-id")
        .extracting(e -> ((ClusterException) e).kind()).isEqualTo(ClusterException.Kind.MISMATCH);
    ClusterCrawl.Options morePartitions = options("mismatch", 3);
    assertThatThrownBy(() -> ClusterCrawl.join(morePartitions, Map.of("--max-depth", "3", "URL", "http://a.test/"), System.err))
        .hasMessageContaining("has 2 partitions (give --partitions 2)");
  }

  @Test
  void join_missingTopicsWithoutCreation_oneLine() {
    ClusterCrawl.Options created = BROKER.options("absent", 4);
    ClusterCrawl.Options o = new ClusterCrawl.Options(created.bootstrap(), "absent", PartitionBy.HOST, 4, false,
        created.connectTimeout(), created.handoverTimeout());
    assertThatThrownBy(() -> ClusterCrawl.join(o, Map.of(), System.err)).isInstanceOf(ClusterException.class)
        .hasMessageStartingWith("--no-create-topics: topics krill-absent-urls, krill-absent-state, krill-absent-status,"
            + " krill-absent-settings of crawl absent do not exist");
  }

  @Test
  void join_unreachableBroker_retriesWithTheReasonThenGivesUp() throws Exception {
    int dead;
    try (java.net.ServerSocket s = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      dead = s.getLocalPort();
    }
    ClusterCrawl.Options o = ClusterWeb.options("127.0.0.1:" + dead, "nobody", PartitionBy.HOST, 4, Duration.ofSeconds(3));
    ByteArrayOutputStream console = new ByteArrayOutputStream();
    long t0 = System.nanoTime();
    assertThatThrownBy(() -> ClusterCrawl.join(o, Map.of(), new PrintStream(console, true)))
        .isInstanceOf(ClusterException.class).hasMessageStartingWith("cannot reach Kafka at 127.0.0.1:" + dead + " within 3s")
        .extracting(e -> ((ClusterException) e).kind()).isEqualTo(ClusterException.Kind.UNREACHABLE);
    assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(60));
    assertThat(console.toString()).contains("krill crawl: waiting for Kafka at 127.0.0.1:" + dead);
  }
}
