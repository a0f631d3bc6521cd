package io.krill.loadtest.harness;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The run's summary gathers every scenario's goals and the newest fiber JMH goals, and counts verdicts. */
class GoalSummaryTest {
  @TempDir
  Path results;

  private RunSettings settings() {
    RunSettings s = new RunSettings();
    s.resultsDir = results;
    s.date = "2026-12-01";
    s.command = "krill loadtest --scenario all";
    return s;
  }

  private static List<GoalSummary.Section> sections(Path results) {
    return List.of(
        new GoalSummary.Section("hello", results.resolve("2026-12-01-hello/report.md"), List.of(
            new Report.Goal("httpd fiber ÷ raw Netty, requests/s, 100 conns", "≥ 0.9×", "1.10× (1.0×–1.2×)", "met"),
            new Report.Goal("httpd fiber ÷ platform, requests/s, 10,000 conns", "≥ 1.5×", "1.20×", "missed"))),
        new GoalSummary.Section("echo", results.resolve("2026-12-01-echo/report.md"), List.of(
            new Report.Goal("netio fiber ÷ raw Netty, echo round trips/s, 1 conns", "≥ 0.9×", "—",
                "not measured: fiber skipped"))));
  }

  @Test
  void write_newestFibersJsonPresent_listsEveryGoalWithItsModuleAndSource() throws Exception {
    Files.writeString(results.resolve("2026-11-21-fibers.json"), "{\"goals\": [\n"
        + "    {\"goal\": \"old\", \"target\": \"x\", \"measured\": \"y\", \"verdict\": \"MET\", \"why\": \"\"}]}");
    Files.writeString(results.resolve("2026-11-22-fibers.json"), "{\"name\": \"2026-11-22-fibers\", \"goals\": [\n"
        + "    {\"goal\": \"CommsTime, ns per cycle\", \"target\": \"≥ 5× faster\", \"measured\": \"1.05× \\\"median\\\"\","
        + " \"verdict\": \"MISSED\", \"why\": \"run queue\"},\n"
        + "    {\"goal\": \"Cross-loop unpark\", \"target\": \"no slower\", \"measured\": \"0.9×\", \"verdict\": \"MET\","
        + " \"why\": \"\"}]}");
    GoalSummary g = new GoalSummary(settings(), sections(results));
    Path file = g.write();
    assertThat(file).isEqualTo(results.resolve("2026-12-01-summary.md"));
    String md = Files.readString(file);
    assertThat(md).contains("Command: `krill loadtest --scenario all`")
        .contains("**2 met, 2 missed, 1 not measured.**")
        .contains("| httpd | hello ([report](2026-12-01-hello/report.md)) | httpd fiber ÷ raw Netty, requests/s, 100 conns | ≥ 0.9× | 1.10× (1.0×–1.2×) | met |")
        .contains("| netio | echo ([report](2026-12-01-echo/report.md)) |")
        .contains("| fibers | JMH, `2026-11-22-fibers.json` | CommsTime, ns per cycle | ≥ 5× faster | 1.05× \"median\" | missed |")
        .contains("| Cross-loop unpark | no slower | 0.9× | met |")
        .contains("dated 2026-11-22")
        .doesNotContain("| old |");
  }

  @Test
  void write_noFibersJson_saysNotMeasuredAndHowToMeasure() throws Exception {
    String md = Files.readString(new GoalSummary(settings(), sections(results)).write());
    assertThat(md).contains("| fibers | JMH | every fiber goal | see docs/fibers.md | — | not measured: no *-fibers.json in")
        .contains("run krill bench fibers")
        .contains("**1 met, 1 missed, 2 not measured.**");
  }

  @Test
  void module_scenarioNames_mapToTheirModules() {
    assertThat(GoalSummary.module("echo")).isEqualTo("netio");
    assertThat(GoalSummary.module("crawl")).isEqualTo("crawler");
    assertThat(GoalSummary.module("idle")).isEqualTo("httpd");
  }
}
