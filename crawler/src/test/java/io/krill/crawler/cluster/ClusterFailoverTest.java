package io.krill.crawler.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.krill.broker.BrokerProcess;
import io.krill.crawler.CrawlSummary;
import io.krill.crawler.Crawler;
import io.krill.testweb.TestWeb;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Faults of a crawl across machines on a real broker in a child JVM: a node killed with SIGKILL
 * part-way, the broker killed and restarted part-way, and every node stopped and started again.
 * Each time the crawl fetches the whole single-node set, never one host from two nodes at once,
 * and fetches again at most what was in flight. The tests that do not kill the broker share one
 * (each crawls under its own crawl id, so its own topics and group); the one that kills it starts
 * its own.
 */
@Timeout(400)
class ClusterFailoverTest {
  private static final int IN_FLIGHT_CAP = 8;
  private static final Duration SLOW_DELAY = Duration.ofMillis(150);
  /* A broker in a child JVM, restarted part-way in one test: the nodes wait longer for it. */
  private static final Duration BROKER_CONNECT_TIMEOUT = Duration.ofSeconds(30);

  @TempDir Path tmp;
  @TempDir static Path sharedDir;
  private static BrokerProcess shared;

  @BeforeAll
  static void startSharedBroker() throws Exception {
    shared = BrokerProcess.start(sharedDir.resolve("broker"), 0);
  }

  @AfterAll
  static void stopSharedBroker() {
    if (shared != null) {
      shared.close();
    }
  }

  private static TestWeb slowWeb() throws Exception {
    return ClusterWeb.start(16, 16, Duration.ofMillis(20));
  }

  /** The single-node truth: what one plain crawl requests, with how often (a throttled page twice). */
  private Map<String, Integer> single(TestWeb web) throws Exception {
    CrawlSummary s = Crawler.create(ClusterWeb.config(web, tmp.resolve("single")).delay(SLOW_DELAY).build()).run();
    assertThat(s.stoppedBy()).isEqualTo("done");
    Map<String, Integer> r = ClusterWeb.requests(web);
    web.accessLog().clear();
    return r;
  }

  private static int extraFetches(Map<String, Integer> single, Map<String, Integer> cluster) {
    int extra = 0;
    for (Map.Entry<String, Integer> e : cluster.entrySet()) {
      extra += Math.max(0, e.getValue() - single.getOrDefault(e.getKey(), 0));
    }
    return extra;
  }

  private static Map<String, Integer> extras(Map<String, Integer> single, Map<String, Integer> cluster) {
    Map<String, Integer> extra = new java.util.TreeMap<>();
    cluster.forEach((u, n) -> {
      if (n > single.getOrDefault(u, 0)) {
        extra.put(u, n - single.getOrDefault(u, 0));
      }
    });
    return extra;
  }

  private static void assertPolite(TestWeb web) {
    assertThat(web.accessLog().maxInFlightByHost().values()).allSatisfy(n -> assertThat(n).isEqualTo(1));
    assertThat(web.accessLog().minGapByHost()).allSatisfy((host, gap) ->
        assertThat(gap).as(host).isGreaterThanOrEqualTo(SLOW_DELAY));
  }

  /* Starts the nodes as child JVMs and waits until a third of the single-node requests are made: the first node has pages of its own. */
  private List<Process> startNodesPartWay(TestWeb web, BrokerProcess broker, String crawlId, int count, Map<String, Integer> single)
      throws Exception {
    List<Process> nodes = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      nodes.add(ClusterWeb.startNode(web, broker.bootstrap(), crawlId, tmp.resolve("out"), SLOW_DELAY, IN_FLIGHT_CAP,
          tmp.resolve("node" + i + ".log")));
    }
    ClusterWeb.awaitRequests(web, single.size() / 3, Duration.ofSeconds(60));
    return nodes;
  }

  @Test
  void nodeKilledWithSigkill_othersTakeOver_nothingLostFewDuplicates() throws Exception {
    try (TestWeb web = slowWeb()) {
      Map<String, Integer> single = single(web);
      List<Process> nodes = startNodesPartWay(web, shared, "kill", 3, single);
      nodes.get(0).destroyForcibly().waitFor();
      for (int i = 1; i < 3; i++) {
        assertThat(nodes.get(i).waitFor(300, TimeUnit.SECONDS)).as("node " + i + " ended").isTrue();
        assertThat(nodes.get(i).exitValue()).as(Files.readString(tmp.resolve("node" + i + ".log"))).isZero();
      }
      Map<String, Integer> cluster = ClusterWeb.requests(web);
      assertThat(cluster.keySet()).isEqualTo(single.keySet());
      // fetched again: only the victim's pages in flight or not acked yet, which share its in-flight cap
      assertThat(extraFetches(single, cluster)).as(() -> "fetched again: " + extras(single, cluster))
          .isLessThanOrEqualTo(IN_FLIGHT_CAP);
      assertPolite(web);
      String logs = Files.readString(tmp.resolve("node1.log")) + Files.readString(tmp.resolve("node2.log"));
      assertThat(logs).contains("took partitions");
    }
  }

  @Test
  void nodeStoppedWithSigterm_drainsPrintsItsSummaryAndHandsOver() throws Exception {
    try (TestWeb web = slowWeb()) {
      Map<String, Integer> single = single(web);
      List<Process> nodes = startNodesPartWay(web, shared, "term", 2, single);
      try {
        stopOneAndFinish(web, single, nodes);
      } finally {
        nodes.forEach(Process::destroyForcibly); // a failed run leaves no node behind
      }
    }
  }

  private void stopOneAndFinish(TestWeb web, Map<String, Integer> single, List<Process> nodes) throws Exception {
    assertThat(nodes.get(0).isAlive()).as("still crawling when signalled").isTrue();
    Process kill = new ProcessBuilder("kill", "-TERM", Long.toString(nodes.get(0).pid())).inheritIO().start();
    assertThat(kill.waitFor(10, TimeUnit.SECONDS)).isTrue();
    // it drains and leaves the group like a node whose crawl ended, not like one killed
    assertThat(nodes.get(0).waitFor(150, TimeUnit.SECONDS)).as("stopped node ended").isTrue();
    String stopped = Files.readString(tmp.resolve("node0.log"));
    assertThat(stopped).as(stopped).contains("crawl stopped in").contains("handed over partitions");
    assertThat(nodes.get(1).waitFor(300, TimeUnit.SECONDS)).as("other node ended").isTrue();
    assertThat(nodes.get(1).exitValue()).as(Files.readString(tmp.resolve("node1.log"))).isZero();
    Map<String, Integer> cluster = ClusterWeb.requests(web);
    assertThat(cluster.keySet()).isEqualTo(single.keySet());
    assertThat(extraFetches(single, cluster)).as(() -> "fetched again: " + extras(single, cluster))
        .isLessThanOrEqualTo(IN_FLIGHT_CAP);
    assertPolite(web);
  }

  @Test
  void brokerKilledAndRestartedMidCrawl_nodesWaitAndFinish() throws Exception {
    Path brokerDir = tmp.resolve("broker");
    try (TestWeb web = slowWeb()) {
      Map<String, Integer> single = single(web);
      BrokerProcess broker = BrokerProcess.start(brokerDir, 0);
      String bootstrap = broker.bootstrap();
      ExecutorService pool = Executors.newFixedThreadPool(2);
      try {
        ClusterCrawl.Options o = ClusterWeb.options(bootstrap, "restart", PartitionBy.HOST, 6, BROKER_CONNECT_TIMEOUT);
        List<Future<CrawlSummary>> nodes = ClusterWeb.runNodes(pool, 2, o, web, i -> tmp.resolve("node" + i),
            b -> b.delay(SLOW_DELAY), SLOW_DELAY);
        ClusterWeb.awaitRequests(web, single.size() / 3, Duration.ofSeconds(60));
        broker.kill();
        Thread.sleep(2000);
        broker = BrokerProcess.start(brokerDir, 0);
        assertThat(broker.bootstrap()).isEqualTo(bootstrap);
        for (Future<CrawlSummary> f : nodes) {
          assertThat(f.get(300, TimeUnit.SECONDS).stoppedBy()).isEqualTo("done");
        }
        Map<String, Integer> cluster = ClusterWeb.requests(web);
        assertThat(cluster.keySet()).isEqualTo(single.keySet());
        assertPolite(web);
      } finally {
        pool.shutdownNow();
        broker.close();
      }
    }
  }

  @Test
  void allNodesStoppedThenStartedAgain_continueTheCrawlId() throws Exception {
    try (TestWeb web = slowWeb()) {
      Map<String, Integer> single = single(web);
      ClusterCrawl.Options o = ClusterWeb.options(shared.bootstrap(), "again", PartitionBy.HOST, 6, BROKER_CONNECT_TIMEOUT);
      ExecutorService pool = Executors.newFixedThreadPool(2);
      try {
        List<Crawler> crawlers = new ArrayList<>();
        List<Future<CrawlSummary>> first = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
          Path out = tmp.resolve("a" + i);
          ClusterCrawl node = ClusterCrawl.join(o, ClusterWeb.fixed(web.seedUrls()), System.err);
          Crawler c = Crawler.create(ClusterWeb.config(web, node.outputDir(out)).delay(SLOW_DELAY).build());
          crawlers.add(c);
          first.add(pool.submit(() -> node.run(c, SLOW_DELAY)));
        }
        ClusterWeb.awaitRequests(web, single.size() / 3, Duration.ofSeconds(60));
        crawlers.forEach(Crawler::stop);
        for (Future<CrawlSummary> f : first) {
          assertThat(f.get(120, TimeUnit.SECONDS).stoppedBy()).isEqualTo("stopped");
        }
        Set<String> before = ClusterWeb.requested(web);
        assertThat(before).hasSizeLessThan(single.size());
        List<Future<CrawlSummary>> second = ClusterWeb.runNodes(pool, 2, o, web, i -> tmp.resolve("b" + i),
            b -> b.delay(SLOW_DELAY), SLOW_DELAY);
        for (Future<CrawlSummary> f : second) {
          assertThat(f.get(300, TimeUnit.SECONDS).stoppedBy()).isEqualTo("done");
        }
        Map<String, Integer> cluster = ClusterWeb.requests(web);
        assertThat(cluster.keySet()).isEqualTo(single.keySet());
        // a graceful stop hands every outcome to Kafka: nothing is fetched twice
        assertThat(extraFetches(single, cluster)).as(() -> "fetched again: " + extras(single, cluster)).isZero();
        assertPolite(web);
      } finally {
        pool.shutdownNow();
      }
    }
  }
}
