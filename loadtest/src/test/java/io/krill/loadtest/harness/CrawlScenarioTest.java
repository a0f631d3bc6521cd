package io.krill.loadtest.harness;

import static org.assertj.core.api.Assertions.assertThat;

import io.krill.crawler.output.CrawlStats;
import io.krill.crawler.output.ProgressReporter;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How the crawl scenario reads a crawl: its progress lines, its warm window and its GC log. */
class CrawlScenarioTest {
  @Test
  void progress_lineOfTheCrawlersReporter_givesSecondsAndPages() {
    CrawlStats stats = new CrawlStats();
    stats.pages.add(12_345);
    Matcher m = CrawlScenario.PROGRESS.matcher(ProgressReporter.line(stats, 17, "dns 3 lookups"));
    assertThat(m.find()).isTrue();
    assertThat(m.group(1)).isEqualTo("0");
    assertThat(m.group(2)).isEqualTo("12345");
    assertThat(CrawlScenario.PROGRESS.matcher("crawl max-duration in 150.2 s (fibers): 9 pages (1.0/s)").find()).isFalse();
  }

  @Test
  void window_linesBeforeTheWarmUp_areLeftOut() {
    CrawlScenario.Window w = new CrawlScenario.Window(90);
    w.add(1, 100, 1_000_000_000L);
    w.add(89, 50_000, 60_000_000_000L);
    w.add(90, 60_000, 61_000_000_000L); // the window starts here
    w.add(120, 120_000, 91_000_000_000L);
    w.add(150, 180_000, 121_000_000_000L);
    assertThat(w.fromSecond()).isEqualTo(90);
    assertThat(w.measured()).isTrue();
    assertThat(w.pagesPerSecond()).isEqualTo(2_000.0); // 120,000 pages in 60 s
    assertThat(w.cpuMsPerPage()).isEqualTo(0.5); // 60 s of CPU over 120,000 pages
  }

  @Test
  void window_crawlEndedBeforeTheWarmUp_measuredOverItsLastTwoThirds() {
    // a quiet machine fetches the whole web in ~85 s: no line at or after second 90
    CrawlScenario.Window w = new CrawlScenario.Window(90);
    for (int second = 0; second <= 85; second++) {
      w.add(second, second < 10 ? 0 : 2_500L * (second - 10), second * 1_000_000_000L);
    }
    assertThat(w.fromSecond()).isEqualTo(29); // a third of 85 s, rounded up
    assertThat(w.measured()).isTrue();
    assertThat(w.pagesPerSecond()).isEqualTo(2_500.0);
    assertThat(w.cpuMsPerPage()).isEqualTo(0.4); // 1 s of CPU per 2,500 pages

    // one that ends shortly after the warm-up: too short a window from second 90, so a third again
    CrawlScenario.Window late = new CrawlScenario.Window(90);
    late.add(60, 1_000, -1);
    late.add(95, 2_000, -1);
    late.add(100, 3_000, -1);
    assertThat(late.fromSecond()).isEqualTo(34);
    assertThat(late.pagesPerSecond()).isEqualTo(50.0); // 2,000 pages from second 60 to 100
  }

  @Test
  void window_onePointOrNoPages_isNotMeasured() {
    CrawlScenario.Window none = new CrawlScenario.Window(90);
    assertThat(none.measured()).isFalse();
    assertThat(none.pagesPerSecond()).isNaN();
    CrawlScenario.Window once = new CrawlScenario.Window(90);
    once.add(91, 10_000, 1L);
    assertThat(once.measured()).isFalse(); // one point spans no time
    assertThat(once.pagesPerSecond()).isNaN();
    CrawlScenario.Window stuck = new CrawlScenario.Window(90);
    stuck.add(30, 10_000, 1L);
    stuck.add(60, 10_000, 2L);
    assertThat(stuck.measured()).isFalse(); // no page in the window
    assertThat(stuck.cpuMsPerPage()).isNaN();
  }

  @Test
  void window_cpuUnreadable_leavesOnlyCpuOut() {
    CrawlScenario.Window w = new CrawlScenario.Window(0);
    w.add(0, 0, -1);
    w.add(10, 5_000, -1);
    assertThat(w.pagesPerSecond()).isEqualTo(500.0);
    assertThat(w.cpuMsPerPage()).isNaN();
  }

  @Test
  void gcLog_youngPausesAndOneFullGc_liveHeapIsTheFullOnes(@TempDir Path dir) throws IOException {
    Path log = dir.resolve("gc.log");
    Files.write(log, List.of(
        "[0.012s][info][gc] Using G1",
        "[3.101s][info][gc] GC(0) Pause Young (Normal) (G1 Evacuation Pause) 51M->12M(1024M) 4.101ms",
        "[20.5s][info][gc] GC(1) Pause Young (Normal) (G1 Evacuation Pause) 600M->71M(1024M) 9.2ms",
        "[31.0s][info][gc] GC(2) Pause Full (Diagnostic Command) 300M->38M(1024M) 80.5ms",
        "[40.0s][info][gc] GC(3) Pause Young (Normal) (G1 Evacuation Pause) 1G->90M(1024M) 12.0ms"),
        StandardCharsets.UTF_8);
    assertThat(CrawlScenario.heapAfterFullGc(log)).isEqualTo(38.0);
    assertThat(CrawlScenario.peakHeapAfterGc(log)).isEqualTo(90.0);
    Path system = dir.resolve("system.log"); // System.gc() rather than jcmd: the same figure
    Files.write(system, List.of("[9.0s][info][gc] GC(4) Pause Full (System.gc()) 1G->41M(1024M) 70.1ms"), StandardCharsets.UTF_8);
    assertThat(CrawlScenario.heapAfterFullGc(system)).isEqualTo(41.0);
    Path none = dir.resolve("none.log");
    Files.write(none, List.of("[3.101s][info][gc] GC(0) Pause Young (Normal) (G1 Evacuation Pause) 51M->12M(1024M) 4.1ms"),
        StandardCharsets.UTF_8);
    assertThat(CrawlScenario.heapAfterFullGc(none)).isNaN();
  }

  @Test
  void tee_write_reachesBothStreams() throws IOException {
    ByteArrayOutputStream a = new ByteArrayOutputStream();
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    try (CrawlChild.Tee t = new CrawlChild.Tee(a, b)) {
      t.write("[    1s] pages 3 (3.0/s)\n".getBytes(StandardCharsets.UTF_8));
      t.write('x');
    }
    assertThat(a.toString(StandardCharsets.UTF_8)).isEqualTo("[    1s] pages 3 (3.0/s)\nx");
    assertThat(b.toString(StandardCharsets.UTF_8)).isEqualTo(a.toString(StandardCharsets.UTF_8));
  }

  @Test
  void moveThisJvm_toCpuZeroAndBack_jvmSeesOneCpuMeanwhile() {
    // the harness moves itself to CPU 0 beside the web and gives its CPUs back afterwards
    String before = CrawlScenario.allowedCpus();
    assertThat(before).isNotNull().matches("[0-9][0-9,-]*").startsWith("0");
    String taskset = CrawlScenario.pin(0).get(0); // this machine has two CPUs and taskset
    try {
      assertThat(CrawlScenario.moveThisJvm(taskset, "0")).isTrue();
      assertThat(CrawlScenario.allowedCpus()).isEqualTo("0");
      // why the scenario finds taskset before it moves: pin() then finds one CPU and pins nothing
      // the JVM may cache its processor count for a few milliseconds (container support)
      long deadline = System.nanoTime() + 5_000_000_000L;
      while (Runtime.getRuntime().availableProcessors() != 1 && System.nanoTime() < deadline) {
        Thread.onSpinWait();
      }
      assertThat(Runtime.getRuntime().availableProcessors()).isEqualTo(1);
      assertThat(CrawlScenario.pin(1)).isEmpty();
    } finally {
      assertThat(CrawlScenario.moveThisJvm(taskset, before)).isTrue();
    }
    assertThat(CrawlScenario.allowedCpus()).isEqualTo(before);
  }

  @Test
  void withConsole_tabsAsked_consoleVariantRightAfterFibers_noneAsked_unchanged() {
    assertThat(CrawlScenario.withConsole(List.of("threads-32", "fibers", "virtual"), 2))
        .containsExactly("threads-32", "fibers", CrawlScenario.CONSOLE_VARIANT, "virtual");
    assertThat(CrawlScenario.withConsole(List.of("threads-32"), 1))
        .containsExactly("fibers", CrawlScenario.CONSOLE_VARIANT, "threads-32");
    assertThat(CrawlScenario.withConsole(List.of("fibers"), 0)).containsExactly("fibers");
    assertThat(CrawlScenario.flagsOf(CrawlScenario.CONSOLE_VARIANT)).containsSubsequence("--mode", "fibers")
        .containsSubsequence("--console", "127.0.0.1:0");
  }
}
