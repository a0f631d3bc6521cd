package io.krill.crawler;

import static org.assertj.core.api.Assertions.assertThat;

import io.krill.crawler.frontier.Frontier;
import io.krill.crawler.frontier.Scope;
import io.krill.crawler.journal.Journal;
import io.krill.testweb.AccessLog;
import io.krill.testweb.GroundTruth;
import io.krill.testweb.TestWeb;
import io.krill.testweb.TestWebConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * End-to-end: a crawl with {@code --max-depth D} fetches exactly the pages whose shortest link
 * distance from the seed is at most D, on a synthetic web whose slow hosts make the crawl find
 * long paths first. The truth is the web's own ground truth (a breadth-first search of its link
 * graph); the fetched pages are the web's access log.
 */
class ExactDepthCrawlTest {
  static final int HOSTS = 12;
  static final int PAGES = 8;
  static final int SLOW = 4;
  static TestWeb web;

  @TempDir
  Path tmp;

  @BeforeAll
  static void start() throws Exception {
    web = TestWeb.start(TestWebConfig.longPathsFirst(HOSTS, PAGES, SLOW, Duration.ofMillis(250)).build());
  }

  @AfterAll
  static void stop() throws Exception {
    web.close();
  }

  @ParameterizedTest(name = "{0}, delay {1} ms, per-host {2}")
  @CsvSource({"BFS,0,2", "BFS,20,1", "DFS,0,2", "DFS,20,1", "RANDOM,0,2", "RANDOM,20,1"})
  @Timeout(300)
  void run_longPathsFoundFirst_fetchesExactlyTheShortestPathTruth(Frontier.Order order, long delayMillis, int perHost)
      throws Exception {
    int relaxedTotal = 0;
    for (int depth : new int[] {2, 4, 6}) {
      web.accessLog().clear();
      Path out = tmp.resolve(order + "-" + delayMillis + "-" + depth);
      CrawlConfig.Builder b = CrawlConfig.builder().out(out).resolver(web.newResolver()).allowPrivate(true)
          .scope(Scope.Kind.ANY).maxDepth(depth).order(order).delay(Duration.ofMillis(delayMillis)).perHost(perHost).perIp(2 * perHost).progress(CrawlConfig.Progress.OFF)
          .fetch(f -> f.minBytesPerSecond(0)) // the pages are small and fast: a loaded machine must not make one a drip
          .fsync(CrawlConfig.Fsync.NEVER);
      web.seedUrls().forEach(b::seed);
      CrawlSummary s = Crawler.create(b.build()).run();
      assertThat(s.stoppedBy()).isEqualTo("done");
      GroundTruth truth = web.groundTruth(io.krill.testweb.Scope.builder().maxDepth(depth).build());
      AccessLog.Check check = web.accessLog().check(truth); // exactly the truth, each URL requested once
      assertThat(check.exact()).as("depth %d: %s", depth, check.describe()).isTrue();
      assertThat(check.retried()).as("depth %d", depth).isEmpty();
      relaxedTotal += Files.readAllLines(out.resolve(Journal.FILE)).stream().filter(l -> l.startsWith("R\t")).count();
    }
    // the web does what it is for: pages fetched on a long path got a shorter one afterwards
    assertThat(relaxedTotal).as("fetched pages whose depth dropped").isPositive();
  }
}
