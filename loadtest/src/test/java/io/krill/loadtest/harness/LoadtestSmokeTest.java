package io.krill.loadtest.harness;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A tiny {@code krill loadtest --quick}: real server and generator JVMs, a few connections,
 * sub-second phases. Checks that every scenario writes its report, JSON and charts, that the
 * rows that cannot run say why, and that no child leaked a Netty buffer. Never checks a speed.
 */
class LoadtestSmokeTest {
  private static final byte[] PNG = {(byte) 0x89, 'P', 'N', 'G'};

  @TempDir
  Path results;

  private static int run(ByteArrayOutputStream out, String... args) {
    return LoadtestConsole.run(out, args);
  }

  @Test
  @Timeout(value = 10, unit = TimeUnit.MINUTES)
  void loadtest_tinyQuickRun_writesReportJsonAndChartsPerScenario() throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    List<String> common = List.of("--quick", "--connections", "5", "--connections-per-generator", "3",
        "--warmup-ms", "300", "--measure-ms", "600", "--results", results.toString(), "--date", "smoke", "--no-wrk",
        "--child-jvm-option", "-Dio.netty.leakDetectionLevel=paranoid", "--heap", "256m");
    List<String> helloArgs = new java.util.ArrayList<>(List.of("--scenario", "hello", "--variants", "netty,threads,httpd-fiber"));
    helloArgs.addAll(common);
    int status = run(out, helloArgs.toArray(new String[0]));
    List<String> others = new java.util.ArrayList<>(List.of("--scenario", "idle,echo", "--variants", "netty"));
    others.addAll(common);
    status = Math.max(status, run(out, others.toArray(new String[0])));
    List<String> crawlArgs = new java.util.ArrayList<>(List.of("--scenario", "crawl", "--variants", "fibers,threads-32",
        "--console-tabs", "2"));
    crawlArgs.addAll(common);
    status = Math.max(status, run(out, crawlArgs.toArray(new String[0])));
    String console = out.toString(StandardCharsets.UTF_8);
    System.err.println(console);
    assertThat(status).as(console).isZero();
    for (String scenario : List.of("hello", "idle", "echo")) {
      Path dir = results.resolve("smoke-" + scenario);
      String md = Files.readString(dir.resolve("report.md"));
      assertThat(md).as(scenario).contains("Command: `krill loadtest --scenario ").contains(" --quick --connections 5")
          .contains("| 5 | netty |").contains("JDKs: servers and generators on");
      String json = Files.readString(dir.resolve("results.json"));
      assertThat(json).contains("\"scenario\": \"" + scenario + "\"").contains("\"variant\": \"netty\"")
          .doesNotContain("\"error\"");
      assertPng(dir.resolve("throughput.png"));
      assertPng(dir.resolve("latency.png"));
      assertThat(console).contains("report: " + dir.resolve("report.md"));
      try (Stream<Path> logs = Files.list(dir.resolve("logs"))) {
        for (Path log : (Iterable<Path>) logs::iterator) {
          assertThat(Files.readString(log)).as(log.toString()).doesNotContain("LEAK:");
        }
      }
    }
    String hello = Files.readString(results.resolve("smoke-hello/report.md"));
    assertThat(hello).contains("| 5 | threads |").contains("| 5 | httpd-fiber |")
        .contains("| httpd fiber ÷ raw Netty, requests/s, 5 conns | ≥ 0.9× |");
    // 5 connections over at most 3 per generator: two generator processes whose results merged.
    assertThat(Files.readString(results.resolve("smoke-hello/results.json"))).contains("\"connectionsOpen\": 5");
    String idle = Files.readString(results.resolve("smoke-idle/report.md"));
    assertThat(idle).contains("| 5 | netty | 5 |").contains(" B |");
    assertPng(results.resolve("smoke-idle/memory.png"));
    String crawl = Files.readString(results.resolve("smoke-crawl/report.md"));
    // The quick crawl runs for real: a small testweb JVM, one crawler JVM per mode, then the in-flight check.
    assertThat(crawl).contains("| fibers | ").contains("| threads-32 | ").contains("| fibers-in-flight | ")
        .contains("| crawler fibers ÷ 32-thread pool, pages/s | ≥ 3× |").doesNotContain("not yet available");
    // --console-tabs: the crawl with the console and two reading tabs, beside plain fibers
    assertThat(crawl).contains("| fibers-console | ")
        .contains("| crawl with --console and 2 tabs reading ÷ without, pages/s | 1× within the round-to-round spread |");
    assertThat(console).containsPattern("crawl round 1 fibers-console: 2 console tabs read [1-9][0-9]* snapshots");
    String crawlJson = Files.readString(results.resolve("smoke-crawl/results.json"));
    assertThat(crawlJson).contains("\"variant\": \"fibers\"").contains("\"cpuMsPerPage\"").contains("\"peakInFlight\"")
        .doesNotContain("\"error\"");
    assertPng(results.resolve("smoke-crawl/throughput.png"));
    // A measured crawl leaves only its summary beside the logs (its WARC and JSONL are deleted).
    try (Stream<Path> left = Files.walk(results.resolve("smoke-crawl/logs"))) {
      assertThat(left.filter(Files::isRegularFile).map(f -> f.getFileName().toString()))
          .contains("summary.json").noneMatch(n -> n.endsWith(".warc.gz") || n.endsWith(".jsonl"));
    }
    // A run of several scenarios also writes the summary of every goal, and prints it.
    String summary = Files.readString(results.resolve("smoke-summary.md"));
    assertThat(summary).contains("| httpd | idle ([report](smoke-idle/report.md)) |")
        .contains("| netio | echo ([report](smoke-echo/report.md)) | netio fiber ÷ raw Netty")
        .contains("| fibers |");
    assertThat(console).contains("loadtest: estimated wall time about ").contains("summary: " + results.resolve("smoke-summary.md"));
  }

  @Test
  void loadtest_badOptions_oneLineAndStatus2() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    assertThat(run(out, "--scenario", "nope", "--results", results.toString())).isEqualTo(2);
    assertThat(run(out, "--connections", "0", "--results", results.toString())).isEqualTo(2);
    assertThat(run(out, "--heap", "lots", "--results", results.toString())).isEqualTo(2);
    assertThat(run(out, "--console-tabs", "17", "--results", results.toString())).isEqualTo(2);
  }

  @Test
  void loadtest_resultsDirectoryItCannotWrite_oneLineAndStatus2BeforeAnyCell() throws IOException {
    Path file = Files.writeString(results.resolve("plain.txt"), "x");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    java.io.PrintStream before = System.err;
    System.setErr(new java.io.PrintStream(err, true, java.nio.charset.StandardCharsets.UTF_8));
    int status;
    try {
      status = run(out, "--scenario", "hello", "--quick", "--results", file.resolve("r").toString());
    } finally {
      System.setErr(before);
    }
    assertThat(status).isEqualTo(2);
    assertThat(err.toString(java.nio.charset.StandardCharsets.UTF_8)).isEqualTo("krill loadtest: --results: "
        + file.resolve("r") + " (expected: a directory krill can write; " + file.resolve("r") + ": Not a directory)"
        + " (see krill loadtest --help)" + System.lineSeparator());
    assertThat(out.toString(java.nio.charset.StandardCharsets.UTF_8)).doesNotContain("estimated wall time");
  }

  private static void assertPng(Path p) throws IOException {
    byte[] b = Files.readAllBytes(p);
    assertThat(b.length).as(p.toString()).isGreaterThan(1000);
    assertThat(java.util.Arrays.copyOf(b, 4)).as(p.toString()).isEqualTo(PNG);
  }
}
