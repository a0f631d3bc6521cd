package io.krill.console;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.krill.crawler.CrawlSummary;
import io.krill.crawler.Crawler;
import io.krill.testweb.TestWeb;
import java.io.DataInputStream;
import java.io.IOException;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A tab gets the whole snapshot first and deltas after it; one that opens late or misses
 * snapshots still shows the whole crawl.
 */
@Timeout(300)
class ConsoleDeltaTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration WAIT = Duration.ofSeconds(120);

  @TempDir
  Path tmp;

  @Test
  void lateTab_firstMessageIsWhole_equalsWhatAnEarlyTabMergedFromDeltas() throws Exception {
    try (TestWeb web = TestWeb.start(WebConsoleTest.smallWeb().pagesPerHost(40).build())) {
      Crawler crawler = Crawler.create(WebConsoleTest.crawlOf(web, tmp.resolve("out"), Duration.ofMillis(5)).build());
      // the host table is rebuilt at the start and on a pause only, so the late tab's tick carries none in its delta
      try (WebConsole console = WebConsole.builder(crawler.view()).pushInterval(Duration.ofMillis(20))
          .hostEvery(1_000_000).start();
          Tab early = new Tab(console.port())) {
        CompletableFuture<CrawlSummary> run = WebConsoleTest.runInBackground(crawler);
        early.await(c -> c.get("pages").asLong() >= 20);
        crawler.view().pause();
        early.await(c -> c.get("paused").asBoolean() && c.get("inFlight").asInt() == 0);
        for (int i = 0; i < 5; i++) {
          early.next();
        }
        try (Tab late = new Tab(console.port())) {
          JsonNode first = late.next();
          assertThat(first.get("full").asBoolean()).isTrue();
          JsonNode same;
          try {
            same = early.atSeq(first.get("seq").asLong());
          } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + "; dropped " + console.dropped(), e);
          }
          assertThat(same.get("full").asBoolean()).as("the early tab got this tick as a delta").isFalse();
          assertThat(without(first, "full")).isEqualTo(without(same, "full"));
          JsonNode hosts = first.get("crawl").get("hosts");
          assertThat(hosts.size()).as("every host (fewer than the table's 500)")
              .isEqualTo(first.get("crawl").get("hostCount").asInt()).isPositive();
          assertThat(first.get("recent").size()).as("the page's recent lines").isBetween(1, 50);
        }
        crawler.view().stop();
        assertThat(run.join().stoppedBy()).isEqualTo("stopped");
      }
    }
  }

  @Test
  void tabThatMissedSnapshots_getsTheNextWhole_endsShowingTheWholeCrawl() throws Exception {
    try (TestWeb web = TestWeb.start(WebConsoleTest.smallWeb().pagesPerHost(40).build())) {
      Path out = tmp.resolve("out");
      Crawler crawler = Crawler.create(WebConsoleTest.crawlOf(web, out, Duration.ofMillis(5)).build());
      try (WebConsole console = WebConsole.builder(crawler.view()).pushInterval(Duration.ofMillis(2))
          .sendQueueBytes(4096).start();
          Socket stuck = WebConsoleTest.neverReading(console.port())) {
        crawler.view().pause();
        CompletableFuture<CrawlSummary> run = WebConsoleTest.runInBackground(crawler);
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (console.dropped() == 0 && System.nanoTime() < deadline) {
          Thread.sleep(10);
        }
        assertThat(console.dropped()).as("snapshots the stuck tab missed").isPositive();
        crawler.view().resume();
        // the crawl goes on while the tab does not read: it misses lines and host tables
        while (crawler.view().snapshot(0).pages() < 30 && System.nanoTime() < deadline) {
          Thread.sleep(5);
        }
        RawTab tab = new RawTab(stuck);
        CrawlSummary s = run.join();
        JsonNode end = tab.await(m -> !m.get("crawl").get("stoppedBy").isNull());
        assertThat(tab.gaps.get()).as("ticks the tab missed").isPositive();
        assertThat(tab.catchUps.get()).as("whole messages after a gap").isPositive();

        JsonNode c = end.get("crawl");
        assertThat(c.get("pages").asLong()).isEqualTo(s.pages());
        List<String> lines = Files.readAllLines(out.resolve("crawl.jsonl"));
        Set<String> written = new TreeSet<>();
        List<String> errorLines = new ArrayList<>();
        for (String line : lines) {
          URI u = URI.create(JSON.readTree(line).get("url").asText());
          written.add(u.getScheme() + "://" + u.getHost() + ":" + u.getPort());
          errorLines.add(line.contains("\"error\":\"") ? line : null);
        }
        Set<String> listed = new TreeSet<>();
        c.get("hosts").forEach(h -> listed.add(h.get("host").asText()));
        assertThat(listed).isEqualTo(written);
        // the recent lines are the file's last 50, each once, in order
        JsonNode recent = end.get("recent");
        assertThat(recent.size()).isEqualTo(Math.min(50, lines.size()));
        for (int i = 0; i < recent.size(); i++) {
          int n = lines.size() - recent.size() + i + 1;
          assertThat(recent.get(i).get("line").asInt()).isEqualTo(n);
          assertThat(recent.get(i).get("record")).isEqualTo(JSON.readTree(lines.get(n - 1)));
        }
        List<Integer> errorNumbers = new ArrayList<>();
        for (int i = 0; i < errorLines.size(); i++) {
          if (errorLines.get(i) != null) {
            errorNumbers.add(i + 1);
          }
        }
        List<Integer> shown = new ArrayList<>();
        end.get("errors").forEach(e -> shown.add(e.get("line").asInt()));
        assertThat(shown).isEqualTo(errorNumbers.subList(Math.max(0, errorNumbers.size() - 50), errorNumbers.size()));
      }
    }
  }

  private static JsonNode without(JsonNode msg, String field) {
    ObjectNode o = msg.deepCopy();
    o.remove(field);
    return o;
  }

  /**
   * A tab on a raw socket (so it can hold still with a tiny receive buffer): once made, reads the
   * server's frames on a thread of its own and merges each message as the page does.
   */
  private static final class RawTab {
    final LinkedBlockingQueue<JsonNode> messages = new LinkedBlockingQueue<>();
    final AtomicInteger gaps = new AtomicInteger();
    final AtomicInteger catchUps = new AtomicInteger();
    private final Tab.Merged merged = new Tab.Merged();

    RawTab(Socket socket) throws IOException {
      DataInputStream in = new DataInputStream(socket.getInputStream());
      Thread t = new Thread(() -> {
        long seq = -1;
        try {
          for (;;) {
            int b0 = in.readUnsignedByte();
            int b1 = in.readUnsignedByte();
            long len = b1 & 0x7f;
            if (len == 126) {
              len = in.readUnsignedShort();
            } else if (len == 127) {
              len = in.readLong();
            }
            byte[] payload = in.readNBytes((int) len);
            int opcode = b0 & 0x0f;
            if (opcode == 8) {
              return; // close
            }
            if (opcode != 1 || (b0 & 0x80) == 0) {
              continue; // the console sends whole text messages; nothing else matters here
            }
            JsonNode m = JSON.readTree(new String(payload, StandardCharsets.UTF_8));
            long s = m.get("seq").asLong();
            boolean full = m.get("full").asBoolean();
            if (seq >= 0 && s != seq + 1) {
              gaps.incrementAndGet();
              assertThat(full).as("the first message after a gap is whole").isTrue();
              catchUps.incrementAndGet();
            }
            seq = s;
            messages.add(merged.add(m));
          }
        } catch (IOException | AssertionError e) {
          messages.add(JSON.createObjectNode().put("failure", e.toString()));
        }
      }, "raw-tab");
      t.setDaemon(true);
      t.start();
    }

    JsonNode await(java.util.function.Predicate<JsonNode> p) throws InterruptedException {
      for (;;) {
        JsonNode m = messages.poll(WAIT.toNanos(), TimeUnit.NANOSECONDS);
        assertThat(m).as("a message within " + WAIT).isNotNull();
        assertThat(m.has("failure")).as(String.valueOf(m.get("failure"))).isFalse();
        if (p.test(m)) {
          return m;
        }
      }
    }
  }
}
