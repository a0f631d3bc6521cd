package io.krill.console.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.krill.crawler.CrawlConfig;
import io.krill.crawler.CrawlView;
import io.krill.crawler.Crawler;
import io.krill.crawler.frontier.Scope;
import io.krill.testweb.TestWeb;
import io.krill.testweb.TestWebConfig;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The host table is rebuilt every n-th snapshot and at once on a pause, a resume or the end. */
@Timeout(300)
class SnapshotJsonTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir
  Path tmp;

  /** The crawl's own view, counting the snapshots that asked for host rows. */
  private static CrawlView counting(CrawlView real, AtomicInteger hostTables) {
    return (CrawlView) Proxy.newProxyInstance(CrawlView.class.getClassLoader(), new Class<?>[] {CrawlView.class},
        (proxy, method, args) -> {
          if (method.getName().equals("snapshot") && (int) args[0] > 0) {
            hostTables.incrementAndGet();
          }
          try {
            return method.invoke(real, args);
          } catch (InvocationTargetException e) {
            throw e.getCause();
          }
        });
  }

  @Test
  void next_hostTableEveryThirdSnapshot_rebuiltAtOnceOnPauseResumeAndEnd() throws Exception {
    try (TestWeb web = TestWeb.start(TestWebConfig.builder().hosts(4).pagesPerHost(40).latency(Duration.ofMillis(2))
        .slowDripRate(0).crawlDelay(Duration.ofMillis(20)).build())) {
      CrawlConfig.Builder b = CrawlConfig.builder().out(tmp.resolve("out")).resolver(web.newResolver()).allowPrivate(true)
          .scope(Scope.Kind.ANY).maxDepth(TestWeb.DEMO_MAX_DEPTH).delay(Duration.ofMillis(50)).perHost(1)
          .progress(CrawlConfig.Progress.OFF).fsync(CrawlConfig.Fsync.NEVER);
      web.seedUrls().forEach(b::seed);
      Crawler crawler = Crawler.create(b.build());
      AtomicInteger hostTables = new AtomicInteger();
      SnapshotJson snapshots = new SnapshotJson(counting(crawler.view(), hostTables), 500, 3);
      crawler.view().pause(); // a paused crawl holds still: the cadence is all that moves the count
      CompletableFuture<?> run = CompletableFuture.runAsync(() -> {
        try {
          crawler.run();
        } catch (java.io.IOException e) {
          throw new java.io.UncheckedIOException(e);
        }
      });
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (crawler.view().snapshot(0).hostCount() == 0 && System.nanoTime() < deadline) {
        Thread.sleep(10); // the crawl has its frontier and seed hosts
      }
      JsonNode first = JSON.readTree(snapshots.next());
      assertThat(hostTables.get()).isEqualTo(1);
      assertThat(first.get("crawl").get("paused").asBoolean()).isTrue();
      assertThat(first.get("crawl").get("hosts")).isNotEmpty();
      for (int i = 2; i <= 7; i++) {
        JsonNode m = JSON.readTree(snapshots.next());
        // built on the 4th and 7th; the others carry the last table
        assertThat(hostTables.get()).as("host tables after snapshot " + i).isEqualTo(1 + (i - 1) / 3);
        assertThat(m.get("crawl").get("hosts")).as("the last table travels in between").isEqualTo(first.get("crawl").get("hosts"));
      }
      crawler.view().resume();
      JsonNode resumed = JSON.readTree(snapshots.next());
      assertThat(hostTables.get()).as("a resume rebuilds the table").isEqualTo(4);
      assertThat(resumed.get("crawl").get("paused").asBoolean()).isFalse();
      crawler.view().stop();
      run.get(120, TimeUnit.SECONDS);
      int before = hostTables.get();
      JsonNode end = JSON.readTree(snapshots.next());
      assertThat(hostTables.get()).as("the end rebuilds the table").isGreaterThan(before);
      assertThat(end.get("crawl").get("hosts")).isNotEmpty();
      assertThat(end.get("crawl").get("stoppedBy").asText()).isEqualTo("stopped");
    }
  }
}
