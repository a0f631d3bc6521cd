package io.krill.crawler;

import static org.assertj.core.api.Assertions.assertThat;

import io.krill.crawler.frontier.Scope;
import io.krill.testweb.AccessLog;
import io.krill.testweb.GroundTruth;
import io.krill.testweb.TestWeb;
import io.krill.testweb.TestWebConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * End-to-end: crawls the synthetic web (testweb: virtual hosts on 127.0.1.x, its own DNS
 * server, traps, errors, robots.txt and sitemaps) and checks the crawl against the web's
 * ground truth and its access log.
 */
class TestWebCrawlTest {
  private static final Duration DELAY = Duration.ofMillis(50);
  private static final int PER_IP = 2;

  @TempDir
  Path tmp;

  @Test
  @Timeout(180)
  void run_syntheticWeb_exactlyTheGroundTruthOncePolitelyWithValidWarc() throws Exception {
    TestWebConfig config = TestWebConfig.builder().hosts(10).pagesPerHost(12).latency(Duration.ofMillis(5))
        .crawlDelay(Duration.ofMillis(100)).slowDripDuration(Duration.ofSeconds(20)).build();
    try (TestWeb web = TestWeb.start(config)) {
      Path out = tmp.resolve("out");
      CrawlConfig.Builder b = CrawlConfig.builder().out(out).resolver(web.newResolver()).allowPrivate(true)
          .scope(Scope.Kind.ANY).maxDepth(TestWeb.DEMO_MAX_DEPTH).delay(DELAY).perHost(1).perIp(PER_IP)
          .robotsRetry(Duration.ofMillis(300)).robotsAttempts(2).fetch(f -> f.slowGrace(Duration.ofSeconds(1)).minBytesPerSecond(1024))
          .progress(CrawlConfig.Progress.OFF).fsync(CrawlConfig.Fsync.NEVER);
      web.seedUrls().forEach(b::seed);
      CrawlSummary s = Crawler.create(b.build()).run();
      assertThat(s.stoppedBy()).isEqualTo("done");

      GroundTruth truth = web.groundTruth(io.krill.testweb.Scope.builder().maxDepth(TestWeb.DEMO_MAX_DEPTH).build());
      AccessLog log = web.accessLog();
      AccessLog.Check check = log.check(truth);
      // The reachable in-scope URLs, each answered once (a throttled page retried: 429, then 200).
      // The ground truth gives every URL its smallest depth; the crawler keeps the depth at which
      // it first met a URL, so inside a trap with several paths (the calendar links both ways) the
      // depth limit may cut a URL the ground truth still reaches. Everything else is exact.
      assertThat(check.outside()).isEmpty();
      assertThat(check.answeredTwice()).isEmpty();
      assertThat(check.missing()).allSatisfy(u -> assertThat(truth.fetches().get(u).trap()).as(u)
          .isIn(io.krill.testweb.Trap.CALENDAR, io.krill.testweb.Trap.SESSION_IDS,
              io.krill.testweb.Trap.DEEP_PATH));
      Set<String> requested = new TreeSet<>(truth.urls());
      check.missing().forEach(requested::remove);
      Set<String> throttled = new TreeSet<>(truth.urls(GroundTruth.Outcome.THROTTLED));
      throttled.retainAll(requested);
      assertThat(check.retried()).containsExactlyInAnyOrderElementsOf(throttled);
      // disallowed paths never requested
      assertThat(log.urls()).doesNotContainAnyElementsOf(truth.disallowed());
      // politeness from the server's side
      assertThat(log.maxInFlightByAddress().values()).allSatisfy(n -> assertThat(n).isLessThanOrEqualTo(PER_IP));
      assertThat(log.maxInFlightByHost().values()).allSatisfy(n -> assertThat(n).isEqualTo(1));
      assertThat(log.minGapByHost()).allSatisfy((host, gap) -> assertThat(gap).as(host).isGreaterThanOrEqualTo(DELAY));
      // traps stayed bounded by the depth limit; the bomb and the drips ended as recorded errors
      assertThat(s.errors()).containsKeys("dns", "robots");
      assertThat(s.errors().getOrDefault("bomb", 0L)).isEqualTo(truth.urls(GroundTruth.Outcome.GZIP_BOMB).size());
      assertThat(s.errors().getOrDefault("slow", 0L)).isEqualTo(truth.urls(GroundTruth.Outcome.SLOW_DRIP).size());
      // one JSONL line per URL; the WARC passes the jwarc checks
      List<CrawlOutput.Line> lines = CrawlOutput.jsonl(out);
      Set<String> seen = new java.util.HashSet<>();
      for (CrawlOutput.Line l : lines) {
        if (!l.kind().equals("robots")) {
          assertThat(seen.add(l.url())).as("one line for " + l.url()).isTrue();
        }
      }
      assertThat(seen).containsAll(requested).containsAll(truth.disallowed()).containsAll(truth.unresolvable());
      CrawlOutput.validateWarcs(out);
    }
  }
}
