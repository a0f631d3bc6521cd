package io.krill.crawler.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.krill.crawler.CrawlConfig;
import io.krill.crawler.CrawlSummary;
import io.krill.crawler.Crawler;
import io.krill.crawler.frontier.Scope;
import io.krill.crawler.frontier.UrlNormalizer;
import io.krill.testweb.GroundTruth;
import io.krill.testweb.TestWeb;
import io.krill.testweb.TestWebConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A crawl across machines with {@code --max-depth D} fetches exactly the pages within D links of
 * a seed, on the synthetic web whose slow hosts make the long paths arrive first: a page fetched
 * on a long path by one node and reached later on a shorter path (found by any node) passes the
 * lower depth on to its links, also after its partition moved to another node. The truth is the
 * web's breadth-first search; what was fetched is the web's access log.
 */
@Timeout(300)
class ClusterExactDepthTest {
  private static final int DEPTH = 4;
  private static final int PARTITIONS = 6;
  @RegisterExtension static final ClusterBroker BROKER = new ClusterBroker();
  private static TestWeb web;
  @TempDir Path tmp;

  @BeforeAll
  static void start() throws Exception {
    web = TestWeb.start(TestWebConfig.longPathsFirst(12, 8, 4, Duration.ofMillis(250)).build());
  }

  @AfterAll
  static void stop() throws Exception {
    web.close();
  }

  private static CrawlConfig.Builder config(Path out) {
    CrawlConfig.Builder b = CrawlConfig.builder().out(out).resolver(web.newResolver()).allowPrivate(true)
        .scope(Scope.Kind.ANY).maxDepth(DEPTH).delay(Duration.ofMillis(20)).perHost(1).perIp(2)
        .progress(CrawlConfig.Progress.OFF).fetch(f -> f.minBytesPerSecond(0)).fsync(CrawlConfig.Fsync.NEVER);
    web.seedUrls().forEach(b::seed);
    return b;
  }

  private static Set<String> truth() {
    return new TreeSet<>(web.groundTruth(io.krill.testweb.Scope.builder().maxDepth(DEPTH).build()).urls());
  }

  /* Every page fetched once, the set equal to the truth. */
  private static void assertExact(Set<String> truth) {
    Map<String, Integer> requests = ClusterWeb.requests(web);
    assertThat(new TreeSet<>(requests.keySet())).as("depth %d", DEPTH).isEqualTo(truth);
  }

  /* The paths cross partitions: the truth's hosts are keyed to more than one partition. */
  private static void assertCrossesPartitions(Set<String> truth) {
    Set<Integer> partitions = truth.stream().map(UrlNormalizer::hostKey)
        .map(h -> PartitionBy.HOST.partition(h, PARTITIONS)).collect(Collectors.toSet());
    assertThat(partitions).hasSizeGreaterThan(1);
  }

  @Test
  void threeNodes_longPathsFoundFirst_fetchExactlyTheShortestPathTruth() throws Exception {
    web.accessLog().clear();
    Set<String> truth = truth();
    assertCrossesPartitions(truth);
    ClusterCrawl.Options o = BROKER.options("exact", PARTITIONS);
    ExecutorService pool = Executors.newFixedThreadPool(3);
    try {
      List<Future<CrawlSummary>> nodes = new ArrayList<>();
      for (int i = 0; i < 3; i++) {
        Path out = tmp.resolve("n" + i);
        nodes.add(pool.submit(() -> {
          ClusterCrawl node = ClusterCrawl.join(o, Map.of("--max-depth", String.valueOf(DEPTH)), System.err);
          return node.run(config(node.outputDir(out)).build(), Duration.ofMillis(20));
        }));
      }
      for (Future<CrawlSummary> f : nodes) {
        assertThat(f.get(240, TimeUnit.SECONDS).stoppedBy()).isEqualTo("done");
      }
    } finally {
      pool.shutdownNow();
    }
    assertExact(truth);
  }

  @Test
  void aNodeLeavesMidCrawl_theNewOwnersKeepTheDepthGraph_exactTruth() throws Exception {
    web.accessLog().clear();
    Set<String> truth = truth();
    ClusterCrawl.Options o = BROKER.options("leave", PARTITIONS);
    ExecutorService pool = Executors.newFixedThreadPool(3);
    try {
      List<Future<CrawlSummary>> nodes = new ArrayList<>();
      List<Crawler> crawlers = new ArrayList<>();
      for (int i = 0; i < 3; i++) {
        ClusterCrawl node = ClusterCrawl.join(o, Map.of("--max-depth", String.valueOf(DEPTH)), System.err);
        Crawler c = Crawler.create(config(node.outputDir(tmp.resolve("n" + i))).build());
        c.view().pause(); // held until all three own partitions: a slow join must not leave the crawl to two
        crawlers.add(c);
        nodes.add(pool.submit(() -> node.run(c, Duration.ofMillis(20))));
      }
      Crawler leaver = crawlers.get(0);
      String joined = ClusterCrawl.status(o, System.err);
      for (long settle = System.nanoTime() + TimeUnit.SECONDS.toNanos(120); !(joined.startsWith(
          "crawl leave: 3 nodes crawling, partitions owned 6/6") && !joined.contains("crawling  []"))
          && System.nanoTime() < settle; ) {
        Thread.sleep(200);
        joined = ClusterCrawl.status(o, System.err);
      }
      assertThat(joined).as("three nodes, each owning partitions").startsWith("crawl leave: 3 nodes crawling, partitions owned 6/6")
          .doesNotContain("crawling  []");
      crawlers.forEach(c -> c.view().resume());
      ClusterWeb.awaitRequests(web, truth.size() / 3, Duration.ofSeconds(60));
      assertThat(web.accessLog().total()).as("requests before the node left").isLessThan(truth.size());
      // --status of a running crawl: every node, every partition owned, the counts
      // (a rebalance may still be settling when the first requests arrive: wait for it, bounded)
      String running = ClusterCrawl.status(o, System.err);
      for (long settle = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
          !running.contains("partitions owned 6/6") && System.nanoTime() < settle; ) {
        Thread.sleep(200);
        running = ClusterCrawl.status(o, System.err);
      }
      assertThat(running).startsWith("crawl leave: 3 nodes crawling, partitions owned 6/6, queued ")
          .containsPattern("in flight \\d+, fetched [1-9]\\d*, errors \\d+\\n").doesNotContain("(finished)");
      assertThat(running.lines().filter(l -> l.contains(" crawling ")).count()).isEqualTo(3);
      leaver.stop(); // leaves the group: its partitions, with their pages' links, move to the others
      assertThat(nodes.get(0).get(120, TimeUnit.SECONDS).stoppedBy()).isEqualTo("stopped");
      for (Future<CrawlSummary> f : nodes.subList(1, 3)) {
        assertThat(f.get(240, TimeUnit.SECONDS).stoppedBy()).isEqualTo("done");
      }
      String finished = ClusterCrawl.status(o, System.err);
      assertThat(finished).startsWith("crawl leave: 0 nodes crawling").contains("(finished)").contains(" left ");
    } finally {
      pool.shutdownNow();
    }
    assertExact(truth);
  }
}
