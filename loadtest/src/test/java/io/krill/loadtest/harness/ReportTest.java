package io.krill.loadtest.harness;

import static org.assertj.core.api.Assertions.assertThat;

import io.krill.loadtest.load.LoadResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The report's arithmetic on known cells: ratios within a round, medians, spreads, verdicts, skips. */
class ReportTest {
  @TempDir
  Path results;

  private static Cell cell(String variant, int connections, int round, double rps, long p50Micros) {
    Cell c = new Cell("hello", variant, connections, round);
    LoadResult r = new LoadResult();
    r.requests = Math.round(rps);
    r.measuredNanos = TimeUnit.SECONDS.toNanos(1);
    r.connections = connections;
    for (int i = 0; i < 100; i++) {
      r.latency.recordValue(TimeUnit.MICROSECONDS.toNanos(p50Micros + i));
    }
    c.result = r;
    c.serverCpuPercent = 95;
    return c;
  }

  private RunSettings settings() {
    return settings(results, "krill loadtest --scenario hello");
  }

  /** @return settings of a report written under {@code results}, dated "test" */
  static RunSettings settings(Path results, String command) {
    RunSettings s = new RunSettings();
    s.resultsDir = results;
    s.date = "test";
    s.useJdk(RunEnvironment.pickJdk(null));
    s.command = command;
    return s;
  }

  /* The report's row for one goal; goal names are unique within a report. */
  private static Report.Goal goal(Report report, String name) {
    return report.goals.stream().filter(g -> g.goal().equals(name)).findFirst()
        .orElseThrow(() -> new AssertionError("no goal " + name + " in " + report.goals));
  }

  @Test
  void write_threeRounds_ratiosPerRoundMedianAndSpreadAndVerdicts() throws Exception {
    List<Cell> cells = new ArrayList<>();
    double[] netty = {1000, 2000, 1500};
    double[] fiber = {950, 1000, 1500};
    for (int round = 1; round <= 3; round++) {
      cells.add(cell("netty", 10_000, round, netty[round - 1], 100));
      cells.add(cell("httpd-fiber", 10_000, round, fiber[round - 1], 100));
      cells.add(cell("httpd-platform", 10_000, round, fiber[round - 1] / 2, 300));
      Cell v = new Cell("hello", "httpd-virtual", 10_000, round);
      v.skipped = "skipped (needs JDK 21+; children run on JDK 17)";
      cells.add(v);
    }
    Report report = new Report(settings(), Scenario.HELLO, cells, "before", "after");
    String table = report.write();
    // Round ratios 0.95, 0.5, 1.0: median 0.95, spread 0.5..1.0.
    assertThat(table).contains("| 10,000 | httpd-fiber | 1,000 (950–1,500) | 0.950× (0.500×–1.00×) | 2.00× |");
    assertThat(table).contains("| 10,000 | httpd-virtual | skipped (needs JDK 21+; children run on JDK 17) |");
    assertThat(goal(report, "httpd fiber ÷ raw Netty, requests/s, 10,000 conns").verdict()).isEqualTo("met");
    assertThat(goal(report, "httpd fiber ÷ platform, requests/s, 10,000 conns"))
        .extracting(Report.Goal::target, Report.Goal::verdict).containsExactly("≥ 1.5×", "met");
    assertThat(goal(report, "httpd fiber ÷ virtual, requests/s, 10,000 conns").verdict())
        .startsWith("not measured: httpd-virtual skipped (needs JDK 21+");
    Path dir = results.resolve("test-hello");
    assertThat(Files.readString(dir.resolve("report.md"))).contains("## Goals").contains("![throughput.png](throughput.png)");
    assertThat(Files.readString(dir.resolve("results.json"))).contains("\"skipped\": \"skipped (needs JDK 21+");
    assertThat(Files.size(dir.resolve("throughput.png"))).isPositive();
    assertThat(Files.size(dir.resolve("latency.png"))).isPositive();
  }

  @Test
  void idle_rssPerConnection_judgedAgainstTwoKilobytes() throws Exception {
    List<Cell> cells = new ArrayList<>();
    for (int round = 1; round <= 2; round++) {
      Cell f = cell("httpd-fiber", 19_000, round, 1000, 100);
      f.heapPerConnection = 2741;
      f.rssPerConnection = round == 1 ? 2843 : 1900;
      f.held = 19_000;
      f.activeRpsBefore = 1000;
      f.activeRpsDuring = 900;
      cells.add(f);
    }
    Report report = new Report(settings(), Scenario.IDLE, cells, "before", "after");
    assertThat(goal(report, "heap per idle keep-alive connection, httpd fiber, 19,000 conns"))
        .extracting(Report.Goal::measured, Report.Goal::verdict).containsExactly("2,741 B", "met");
    // The median of 2,843 and 1,900 B: 2,371.5 B, over 2 KB.
    assertThat(goal(report, "RSS per idle keep-alive connection, httpd fiber, 19,000 conns"))
        .extracting(Report.Goal::target, Report.Goal::verdict).containsExactly("≤ 2 KB", "missed");
  }

  @Test
  void static_krillOverNginxPerRound_andFailedCellsCounted() throws Exception {
    List<Cell> cells = new ArrayList<>();
    double[] nginx = {1000, 2000};
    double[] krill = {1100, 1000};
    for (int round = 1; round <= 2; round++) {
      Cell n = new Cell("static", "nginx-12B", 100, round);
      n.wrkRps = nginx[round - 1];
      Cell k = new Cell("static", "krill-12B", 100, round);
      k.wrkRps = krill[round - 1];
      cells.add(n);
      cells.add(k);
      Cell big = new Cell("static", "krill-1MiB", 100, round);
      big.wrkRps = 10;
      if (round == 2) {
        big.error = "wrk: Socket errors: connect 0, read 0, write 0, timeout 3";
      }
      cells.add(big);
    }
    Report report = new Report(settings(), Scenario.STATIC, cells, "before", "after");
    String table = report.table();
    // Round ratios 1.1 and 0.5: median 0.8.
    assertThat(table).contains("| 100 | krill-12B | 1,050 (1,000–1,100) | 0.800× (0.500×–1.10×) |")
        .contains("| 1 of 2 cells failed: wrk: Socket errors: connect 0, read 0, write 0, timeout 3 |");
    assertThat(goal(report, "krill serve ÷ nginx, static 12-byte file, HTTP/1.1 (wrk), requests/s, 100 conns").verdict())
        .isEqualTo("missed");
    assertThat(goal(report, "krill serve ÷ nginx, static 1 MiB file, HTTP/1.1 (wrk), requests/s, 100 conns").verdict())
        .startsWith("not measured");
  }

  /* An h2load-measured cell as H2load.parse and the CPU window leave it; cpu NaN: /proc was not readable. */
  private static Cell h2loadCell(String scenario, String variant, int round, double rps, double cpuPercent) {
    Cell c = new Cell(scenario, variant, 100, round);
    H2load.parse(H2loadTest.CAPTURED, c);
    c.wrkRps = rps;
    c.serverCpuPercent = cpuPercent;
    c.serverCpuMicrosPerRequest = Double.isNaN(cpuPercent) ? Double.NaN : cpuPercent * 1e4 / rps;
    return c;
  }

  /* Written to disk, the report and the console table say "—" or why for what was not measured, never NaN or null. */
  private String written(Report report) throws Exception {
    String table = report.write();
    assertThat(table).doesNotContain("NaN").doesNotContain("null");
    String md = Files.readString(report.dir().resolve("report.md"));
    assertThat(md).doesNotContain("NaN").doesNotContain("null");
    assertThat(Files.readString(report.dir().resolve("results.json"))).doesNotContain("NaN").doesNotContain("null");
    return md;
  }

  @Test
  void static_http2Rows_showH2loadsMeanAndMaxRequestTime_noNaNOrNull() throws Exception {
    List<Cell> cells = new ArrayList<>();
    for (int round = 1; round <= 2; round++) {
      cells.add(h2loadCell("static", "nginx-h2-12B", round, 50_000, 35));
      cells.add(h2loadCell("static", "krill-h2-12B", round, 25_000, Double.NaN));
      Cell wrk = new Cell("static", "krill-12B", 100, round);
      StaticScenario.parseWrk(List.of("  50%   1.00ms", "  99%   2.50ms", "Requests/sec:   1000.00"), wrk);
      cells.add(wrk);
      Cell broken = new Cell("static", "krill-h2-1MiB", 100, round);
      broken.fail(new NullPointerException()); // no message: the row still names what failed
      cells.add(broken);
    }
    String md = written(new Report(settings(), Scenario.STATIC, cells, "before", "after"));
    assertThat(md).contains("| latency µs (wrk: p50; p99 — h2load: mean; max) |")
        .contains("| 100 | krill-h2-12B | 25,000 | 0.500× | mean 2,410; max 12,030 | — | 0 |")
        .contains("| 100 | nginx-h2-12B | 50,000 |  | mean 2,410; max 12,030 | 35.0 | 0 |")
        .contains("| 100 | krill-12B | 1,000 | — | p50 1,000; p99 2,500 | — | 0 |")
        .contains("| 100 | krill-h2-1MiB | failed: java.lang.NullPointerException | | | | |")
        .contains("h2load gives no percentiles");
    assertThat(Files.readString(results.resolve("test-static/results.json"))).contains("\"requestMeanMicros\": 2410.0")
        .contains("\"requestMaxMicros\": 12030.0");
  }

  @Test
  void h2Hello_rowsShowH2loadsRequestTime_andWebsocketRowsWithoutCpu_noNaNOrNull() throws Exception {
    List<Cell> h2 = new ArrayList<>();
    for (String v : Scenario.H2_VARIANTS) {
      h2.add(h2loadCell("h2-hello", v, 1, v.startsWith("netty") ? 20_000 : 10_000, v.endsWith("tls") ? Double.NaN : 50));
    }
    String md = written(new Report(settings(), Scenario.H2_HELLO, h2, "before", "after"));
    assertThat(md).contains("| latency µs (h2load: mean; max) | server CPU % |")
        .contains("| 100 | httpd-h2 | 10,000 | 0.500× |  | mean 2,410; max 12,030 | 50.0 | 50.0 | 0.500× | 0 |")
        .contains("| 100 | httpd-h2-tls | 10,000 | 0.500× |  | mean 2,410; max 12,030 | — | — | — | 0 |")
        .contains("h2load gives no percentiles");

    List<Cell> ws = new ArrayList<>();
    for (String v : Scenario.WEBSOCKET_VARIANTS) {
      Cell c = new Cell("websocket-echo", v, 100, 1);
      Http2WebSocketScenario.parseEcho("sockets 100 messages/s 5000 errors 0", c);
      ws.add(c); // no CPU figures: the server's /proc was not readable
    }
    Cell lost = new Cell("websocket-echo", "fiber", 100, 2);
    lost.fail(new java.io.IOException("generator websocket exited"));
    ws.add(lost);
    md = written(new Report(settings(), Scenario.WEBSOCKET_ECHO, ws, "before", "after"));
    assertThat(md).doesNotContain("latency µs")
        .contains("| 100 | fiber | 5,000 | 1.00× | 1.00× | — | — | — | 1 of 2 cells failed: generator websocket exited |");
  }

  @Test
  void summary_unmeasuredFiguresReadDash_aFailureWithoutMessageNamesItsException() {
    Cell hello = cell("netty", 10, 1, 1000, 100);
    hello.serverCpuPercent = Double.NaN; // /proc not readable
    assertThat(LoadtestRun.summary(hello)).contains(" server cpu —%").doesNotContain("NaN");
    Cell idle = cell("httpd-fiber", 10, 1, 1000, 100);
    idle.held = 10;
    idle.heapPerConnection = 2741;
    assertThat(LoadtestRun.summary(idle)).startsWith("held 10, heap 2,741 B/conn, rss — B/conn, active — -> — rps; ")
        .doesNotContain("NaN");
    Cell h2 = h2loadCell("h2-hello", "httpd-h2", 1, 5000, Double.NaN);
    assertThat(LoadtestRun.summary(h2)).isEqualTo("5000 requests/s request time mean 2,410 us, max 12,030 us"
        + " (h2load: no percentiles) server cpu —% (— us per request)");
    Cell crawl = new Cell("crawl", "fibers", 0, 1);
    crawl.fail(new NullPointerException());
    assertThat(crawl.ok()).isFalse();
    assertThat(LoadtestRun.summary(crawl)).isEqualTo("FAILED java.lang.NullPointerException");
  }

  @Test
  void crawl_consoleTabs_judgedOnWarmAndWholeCrawlAgainstThePlainRowsSpread() {
    List<Cell> cells = new ArrayList<>();
    double[][] fibers = {{2500, 2400}, {2510, 2410}}; // per round: warm, whole crawl
    double[][] console = {{2498, 2300}, {2505, 2310}};
    for (int round = 1; round <= 2; round++) {
      for (String variant : List.of("fibers", CrawlScenario.CONSOLE_VARIANT)) {
        double[] rates = variant.equals("fibers") ? fibers[round - 1] : console[round - 1];
        Cell c = new Cell("crawl", variant, 0, round);
        c.pagesPerSecond = rates[0];
        c.crawlPagesPerSecond = rates[1];
        cells.add(c);
      }
    }
    RunSettings s = settings();
    s.rounds = 2;
    s.consoleTabs = 2;
    Report report = new Report(s, Scenario.CRAWL, cells, "before", "after");
    // warm: ratios 0.9992 and 0.9980 against a plain spread of 10 / 2,505 = 0.4%
    assertThat(goal(report, "crawl with --console and 2 tabs reading ÷ without, pages/s (warm)"))
        .extracting(Report.Goal::measured, Report.Goal::verdict)
        .containsExactly("0.999× (0.998×–0.999×); plain crawl 2,505 (2,500–2,510) pages/s, its round-to-round spread"
            + " (max−min)/median 0.4%", "met");
    // whole crawl: 0.958× against 0.4%
    assertThat(goal(report, "crawl with --console and 2 tabs reading ÷ without, pages/s (whole crawl)").verdict())
        .isEqualTo("missed");
    s.rounds = 1;
    assertThat(goal(new Report(s, Scenario.CRAWL, cells.subList(0, 2), "before", "after"),
        "crawl with --console and 2 tabs reading ÷ without, pages/s (warm)").verdict())
        .isEqualTo("not judged (one round has no spread)");
  }

  @Test
  void write_fiberBelowNetty_goalMissedWithTheNumber() throws Exception {
    List<Cell> cells = List.of(cell("netty", 100, 1, 1000, 100), cell("httpd-fiber", 100, 1, 800, 150));
    Report report = new Report(settings(), Scenario.HELLO, cells, "before", "after");
    report.write();
    assertThat(goal(report, "httpd fiber ÷ raw Netty, requests/s, 100 conns"))
        .extracting(Report.Goal::measured, Report.Goal::verdict).containsExactly("0.800×", "missed");
    // Latency goal: netty p50 / fiber p50 = ~100/150.
    assertThat(goal(report, "raw Netty p50 ÷ httpd fiber p50 (latency), 100 conns").verdict()).isEqualTo("missed");
  }

  @Test
  void skipReason_jdk17Children_virtualRowsSayNeedsJdk21() {
    RunSettings s = settings();
    s.javaFeature = 17;
    LoadtestRun run = new LoadtestRun(s, System.out, results);
    assertThat(run.skipReason("httpd-virtual")).isEqualTo("skipped (needs JDK 21+; children run on JDK 17)");
    assertThat(run.skipReason("virtual")).startsWith("skipped (needs JDK 21+");
    assertThat(run.skipReason("httpd-fiber")).isNull();
  }

  @Test
  void wrkParse_wrkOutput_readsRequestsPerSecondAndPercentiles() {
    Cell c = new Cell("hello", "netty", 100, 1);
    Wrk.parse(List.of("Running 2s test @ http://127.0.0.1:1/hello", "  Latency Distribution",
        "     50%  512.00us", "     99%    3.20ms", "Requests/sec:  81234.56"), c);
    assertThat(c.wrkRps).isEqualTo(81234.56);
    assertThat(c.wrkP50Micros).isEqualTo(512.0);
    assertThat(c.wrkP99Micros).isEqualTo(3200.0);
  }
}
