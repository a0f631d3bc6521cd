package io.krill.loadtest.harness;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The full run's defaults keep every scenario and connection count of the goals and fit the time budget. */
class RunPlanTest {
  @Test
  void estimate_fullRunAtDefaults_everyScenarioWithinBudget() {
    RunSettings s = new RunSettings();
    Map<String, Duration> plan = RunPlan.estimate(s, Scenario.ALL);
    assertThat(plan.keySet()).containsExactly("hello", "hello-wrk", "pipelined", "slow-handler", "idle", "echo", "h2-hello",
        "websocket-echo", "static", "crawl");
    Duration total = plan.values().stream().reduce(Duration.ZERO, Duration::plus);
    // With wrk installed the hello cells add a few seconds each; the budget holds either way
    // (about 102 minutes: the 8 s warm-up that lets C2 finish on 2 shared cores, 150 s crawls
    // whose warm window starts at second 90, the static files against nginx, HTTP/2 and WebSocket,
    // hello with wrk on open connections).
    assertThat(total).isLessThanOrEqualTo(Duration.ofMinutes(105)).isGreaterThan(Duration.ofMinutes(20));
    // The crawl: the web and the in-flight check once, then two rounds of six crawls.
    assertThat(plan.get("crawl")).isEqualTo(RunPlan.CRAWL_FIXED.plus(RunPlan.CRAWL_ROUND.multipliedBy(2)));
    assertThat(RunPlan.describe(plan)).startsWith("about ").contains("hello ").contains("crawl 37.0");
  }

  @Test
  void forScenario_defaults_longCellsTwoRoundsOthersThree() {
    RunSettings s = new RunSettings();
    assertThat(s.forScenario(Scenario.HELLO).rounds).isEqualTo(3);
    assertThat(s.warmup).isEqualTo(RunSettings.DEFAULT_WARMUP);
    assertThat(s.measure).isEqualTo(RunSettings.DEFAULT_MEASURE);
    assertThat(s.forScenario(Scenario.IDLE).rounds).isEqualTo(2);
    assertThat(s.forScenario(Scenario.SLOW).rounds).isEqualTo(2);
    assertThat(s.forScenario(Scenario.ECHO).rounds).isEqualTo(3);
    assertThat(s.forScenario(Scenario.CRAWL).rounds).isEqualTo(2);
    assertThat(s.wrkTime()).isEqualTo(RunSettings.DEFAULT_WRK);
  }

  @Test
  void forScenario_optionsGiven_overrideEveryScenariosDefaults() {
    RunSettings s = new RunSettings();
    s.roundsOption = 5;
    s.warmupOption = Duration.ofMillis(700);
    s.measureOption = Duration.ofSeconds(2);
    s.forScenario(Scenario.IDLE);
    assertThat(s.rounds).isEqualTo(5);
    assertThat(s.warmup).isEqualTo(Duration.ofMillis(700));
    assertThat(s.measure).isEqualTo(Duration.ofSeconds(2));
    assertThat(s.wrkTime()).isEqualTo(Duration.ofSeconds(2));
  }

  @Test
  void estimate_hello_crossChecksWithWrkUpToAThousandConnectionsOnly() {
    RunSettings s = new RunSettings().forScenario(Scenario.HELLO);
    assertThat(Wrk.crossChecks(1_000)).isTrue();
    assertThat(Wrk.crossChecks(10_000)).isFalse();
    Duration withWrk = RunPlan.estimate(s, Scenario.HELLO);
    s.wrk = false;
    Duration without = RunPlan.estimate(s, Scenario.HELLO);
    // wrk's seconds for 100 and 1,000 connections, each variant, each round; none for 10,000.
    assertThat(withWrk.minus(without)).isEqualTo(Wrk.available()
        ? s.wrkTime().multipliedBy(2L * Scenario.HELLO.variants.size() * s.rounds) : Duration.ZERO);
  }

  @Test
  void estimate_quickHello_underTwoMinutes() {
    RunSettings s = new RunSettings();
    s.quick();
    Duration hello = RunPlan.estimate(s, List.of(Scenario.HELLO)).get("hello");
    assertThat(hello).isLessThan(Duration.ofMinutes(2)).isGreaterThan(Duration.ofSeconds(30));
  }

  @Test
  void scenarios_fullRun_keepEveryConnectionCountOfTheGoals() {
    assertThat(Scenario.HELLO.connections).containsExactly(100, 1_000, 10_000);
    assertThat(Scenario.ECHO.connections).containsExactly(1, 100, 10_000);
    assertThat(Scenario.SLOW.connections).containsExactly(10_000);
    assertThat(Scenario.IDLE.connections).containsExactly(19_000);
    assertThat(Scenario.PIPELINED.pipeline).isEqualTo(16);
  }
}
