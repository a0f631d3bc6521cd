package io.krill.loadtest.harness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.krill.config.CommandOptions;
import io.krill.config.ConfigException;
import io.krill.config.Settings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** krill loadtest's flags, read through its schema, become the run's settings. */
class LoadtestSettingsTest {
  private static Settings parse(String... args) {
    CommandLine cl = LoadtestCommand.commandLine();
    cl.parseArgs(args);
    return CommandOptions.flags(cl.getCommandSpec(), LoadtestSettings.SCHEMA,
        LoadtestSettings.SCHEMA.loader().environment(Map.of())).load();
  }

  @Test
  void runSettings_noFlags_fullRunDefaults() {
    RunSettings r = LoadtestSettings.runSettings(parse());
    assertThat(r.quick).isFalse();
    assertThat(r.roundsOption).isNull();
    assertThat(r.warmup).isEqualTo(RunSettings.DEFAULT_WARMUP);
    assertThat(r.connections).isNull();
    assertThat(r.variants).isNull();
    assertThat(r.heap).isEqualTo(RunSettings.DEFAULT_HEAP);
    assertThat(r.wrk).isTrue();
    assertThat(r.resultsDir).isEqualTo(RunEnvironment.resultsDir());
    assertThat(LoadtestSettings.scenarios(parse())).containsExactly(Scenario.HELLO);
  }

  @Test
  void runSettings_everyFlag_reachesTheRun() {
    Settings s = parse("--scenario", "idle,echo", "--quick", "--rounds", "2", "--warmup-ms", "300", "--measure-ms",
        "600", "--connections", "5,7", "--variants", "netty", "--heap", "256m", "--results", "/tmp/r", "--date", "d1",
        "--connections-per-generator", "3", "--no-wrk", "--child-jvm-option", "-Da=1,2", "--child-jvm-option", "-Db=2");
    RunSettings r = LoadtestSettings.runSettings(s);
    assertThat(LoadtestSettings.scenarios(s)).containsExactly(Scenario.IDLE, Scenario.ECHO);
    assertThat(r.quick).isTrue();
    assertThat(r.rounds).isEqualTo(2);
    assertThat(r.warmup).isEqualTo(Duration.ofMillis(300));
    assertThat(r.measure).isEqualTo(Duration.ofMillis(600));
    assertThat(r.connections).containsExactly(5, 7);
    assertThat(r.variants).containsExactly("netty");
    assertThat(r.heap).isEqualTo("256m");
    assertThat(r.resultsDir).isEqualTo(Path.of("/tmp/r"));
    assertThat(r.date).isEqualTo("d1");
    assertThat(r.connectionsPerGenerator).isEqualTo(3);
    assertThat(r.wrk).isFalse();
    assertThat(r.childJvmOptions).containsExactly("-Da=1,2", "-Db=2");
  }

  @Test
  void scenarios_all_expandsInOrder() {
    assertThat(LoadtestSettings.scenarios(parse("--scenario", "all"))).isEqualTo(Scenario.ALL);
  }

  @Test
  void badValues_reportedAgainstTheFlagAsTyped() {
    assertThatThrownBy(() -> parse("--connections", "5,0", "--heap", "lots", "--variants", "nope"))
        .isInstanceOfSatisfying(ConfigException.class, e -> assertThat(e.problems().stream().map(CommandOptions::describe))
            .contains("--connections: [\"5\",\"0\"] (expected: whole numbers 1..19500)",
                "--heap: lots (expected: a JVM size such as 512m or 1g)")
            .anyMatch(l -> l.startsWith("--variants: [\"nope\"] (expected: some of [netty, threads,")));
  }
}
