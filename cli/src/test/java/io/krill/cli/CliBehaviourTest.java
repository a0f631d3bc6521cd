package io.krill.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The launcher behaves the same for every subcommand, as a new user meets it. */
class CliBehaviourTest {
  /** Runs {@code krill <args>} (or, with {@code checkOnly}, only parses it); returns status, stdout, stderr. */
  static String[] capture(boolean checkOnly, String... args) {
    return Console.capture(() -> checkOnly ? Krill.check(args) : Krill.run(args));
  }

  @ParameterizedTest
  @ValueSource(strings = {"demo", "weave", "serve", "crawl", "testweb", "loadtest", "bench", "docs"})
  void help_everySubcommand_usageAndStatus0(String command) {
    String[] r = capture(false, command, "--help");
    assertThat(r[0]).isEqualTo("0");
    assertThat(r[1]).contains("Usage: krill " + command);
  }

  @Test
  void help_launcher_listsBenchAndLoadtest() {
    String[] r = capture(false, "--help");
    assertThat(r[0]).isEqualTo("0");
    assertThat(r[1]).contains("  bench ").contains("  loadtest ").contains("  serve ").doesNotContain("  docs ");
  }

  @Test
  void bare_printsUsage_status2() {
    String[] r = capture(false);
    assertThat(r[0]).isEqualTo("2");
    assertThat(r[2]).contains("Usage: krill").contains("bench");
  }

  @ParameterizedTest
  @ValueSource(strings = {"serve", "bench", "loadtest", "demo", "weave", "crawl", "testweb"})
  void unknownFlag_oneLineNamingFlagAsTypedAndSubcommandHelp_status2(String command) {
    String[] r = command.equals("weave") ? capture(false, command, "--bogus-flag", "classes")
        : capture(false, command, "--bogus-flag");
    assertThat(r[0]).isEqualTo("2");
    assertThat(r[2].trim().lines()).hasSize(1);
    assertThat(r[2]).contains("'--bogus-flag'").contains("(see krill " + command + " --help)");
  }

  @Test
  void checkOnly_badFlag_status2WithoutRunning() {
    String[] r = capture(true, "bench", "--bogus");
    assertThat(r[0]).isEqualTo("2");
    assertThat(r[2]).contains("'--bogus'").contains("see krill bench --help");
    assertThat(r[1]).isEmpty();
  }

  @Test
  void checkOnly_goodArguments_status0AndNothingRuns() {
    String[] r = capture(true, "demo", "--count", "1");
    assertThat(r[0]).isEqualTo("0");
    assertThat(r[1]).isEmpty();
  }

  @Test
  void weave_missingDirectory_status2NamingIt(@TempDir Path tmp) {
    String missing = tmp.resolve("nonexistent").toString();
    String[] r = capture(false, "weave", missing);
    assertThat(r[0]).isEqualTo("2");
    assertThat(r[2]).contains(missing).contains("expected: an existing classes directory");
  }

  @Test
  void badUsage_launcherAndEachCommandsOwnChecks_oneUniformLineAndStatus2(@TempDir Path tmp) {
    String missing = tmp.resolve("nonexistent").toString();
    Map<List<String>, String> lines = new LinkedHashMap<>();
    lines.put(List.of("--bogus"), "krill: Unknown option: '--bogus' (see krill --help)");
    lines.put(List.of("weave", missing),
        "krill weave: DIR: " + missing + " (expected: an existing classes directory) (see krill weave --help)");
    lines.put(List.of("fibers", "dump", "0"), "krill fibers dump: PID: 0 (expected: > 0) (see krill fibers dump --help)");
    lines.put(List.of("demo", "--steps", "-1"), "krill demo: --steps: -1 (expected: 0..1000000) (see krill demo --help)");
    lines.put(List.of("loadtest", "--rounds", "0"), "krill loadtest: --rounds: 0 (expected: 1..20) (see krill loadtest --help)");
    String noMatch = ": no benchmark matches (expected: continuations, fibers, all or a regular expression matching a"
        + " benchmark's name, such as Ring or fibers\\.Ring; java -jar benchmarks/target/benchmarks.jar -l lists them)"
        + " (see krill bench --help)";
    lines.put(List.of("bench", "nope"), "krill bench: SUITE: nope" + noMatch);
    lines.put(List.of("bench", "fibers", "--include", "Nope"), "krill bench: --include: Nope" + noMatch);
    lines.put(List.of("bench", "Ring", "--include", "Nope"), "krill bench: SUITE: Ring with --include Nope" + noMatch);
    for (String command : List.of("bench", "loadtest")) {
      lines.put(List.of(command, "--date", "a/b"), "krill " + command + ": --date: a/b (expected: letters, digits, '.', '_'"
          + " or '-') (see krill " + command + " --help)");
    }
    lines.forEach((args, line) -> {
      String[] r = capture(false, args.toArray(new String[0]));
      assertThat(r[0]).as(args.toString()).isEqualTo("2");
      assertThat(r[2].lines()).as(args.toString()).containsExactly(line);
    });
  }

  @Test
  void bench_badPattern_checkedBeforeJmhStarts_status2() {
    String[] r = capture(false, "bench", "[");
    assertThat(r[0]).isEqualTo("2");
    assertThat(r[2].trim()).isEqualTo("krill bench: SUITE: [ (expected: continuations, fibers, all or a regular expression)"
        + " (see krill bench --help)");
  }

  @Test
  void bench_badRounds_status2() {
    String[] r = capture(false, "bench", "--rounds", "0");
    assertThat(r[0]).isEqualTo("2");
    assertThat(r[2]).contains("--rounds: 0 (expected: 1..20)");
  }
}
