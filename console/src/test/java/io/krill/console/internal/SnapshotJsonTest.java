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
  void full_crawlObject_hasEveryFieldOfTheSnapshot(@TempDir Path out) {
    Crawler crawler = Crawler.create(CrawlConfig.builder().out(out).seed("http://127.0.0.1:9/").build());
    SnapshotJson snapshots = new SnapshotJson(crawler.view(), 500, 5);
    JsonNode crawl;
    try {
      crawl = JSON.readTree(snapshots.next().full()).get("crawl");
    } catch (java.io.IOException e) {
      throw new AssertionError(e);
    }
    java.util.Set<String> keys = new java.util.TreeSet<>();
    crawl.fieldNames().forEachRemaining(keys::add);
    java.util.Set<String> components = new java.util.TreeSet<>();
    for (java.lang.reflect.RecordComponent c : CrawlView.Snapshot.class.getRecordComponents()) {
      components.add(c.getName());
    }
    assertThat(keys).isEqualTo(components);
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
      SnapshotJson.Tick t1 = snapshots.next();
      JsonNode first = JSON.readTree(t1.full());
      assertThat(hostTables.get()).isEqualTo(1);
      assertThat(first.get("full").asBoolean()).isTrue();
      assertThat(first.get("crawl").get("paused").asBoolean()).isTrue();
      assertThat(first.get("crawl").get("hosts")).isNotEmpty();
      assertThat(JSON.readTree(t1.delta()).get("crawl").get("hosts")).as("the first table is news").isEqualTo(first.get("crawl").get("hosts"));
      JsonNode prev = first;
      for (int i = 2; i <= 7; i++) {
        SnapshotJson.Tick t = snapshots.next();
        assertThat(t.seq()).isEqualTo(i);
        JsonNode m = JSON.readTree(t.full());
        JsonNode d = JSON.readTree(t.delta());
        // built on the 4th and 7th; the others carry the last table
        assertThat(hostTables.get()).as("host tables after snapshot " + i).isEqualTo(1 + (i - 1) / 3);
        if (i % 3 != 1) {
          assertThat(m.get("crawl").get("hosts")).as("the last table travels in between").isEqualTo(prev.get("crawl").get("hosts"));
        }
        // a delta carries the table only when it changed
        boolean changed = !m.get("crawl").get("hosts").equals(prev.get("crawl").get("hosts"));
        assertThat(d.get("crawl").has("hosts")).as("table in delta " + i).isEqualTo(changed);
        assertThat(d.get("full").asBoolean()).isFalse();
        assertThat(d.get("crawl").get("requests")).isEqualTo(m.get("crawl").get("requests"));
        prev = m;
      }
      crawler.view().resume();
      SnapshotJson.Tick r = snapshots.next();
      JsonNode resumed = JSON.readTree(r.full());
      assertThat(hostTables.get()).as("a resume rebuilds the table").isEqualTo(4);
      assertThat(resumed.get("crawl").get("paused").asBoolean()).isFalse();
      assertThat(JSON.readTree(r.delta()).get("crawl").has("hosts")).as("the table in the resume's delta")
          .isEqualTo(!resumed.get("crawl").get("hosts").equals(prev.get("crawl").get("hosts")));
      crawler.view().stop();
      run.get(120, TimeUnit.SECONDS);
      int before = hostTables.get();
      JsonNode end = JSON.readTree(snapshots.next().full());
      assertThat(hostTables.get()).as("the end rebuilds the table").isGreaterThan(before);
      assertThat(end.get("crawl").get("hosts")).isNotEmpty();
      assertThat(end.get("crawl").get("stoppedBy").asText()).isEqualTo("stopped");
    }
  }
}
