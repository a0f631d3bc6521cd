package io.krill.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class KrillTest {
  private static String[] capture(String... args) {
    return Console.capture(() -> Krill.run(args));
  }

  @Test
  void demo_smallCount_runsEveryContinuationToTheEnd() {
    String[] r = capture("demo", "--count", "1000", "--steps", "3");
    assertThat(r[0]).isEqualTo("0");
    assertThat(r[1]).contains("1,000 continuations, 4,000 runs round-robin")
        .contains("generator of squares: 1 4 9 16 25 36 49 64 81 100");
  }

  @Test
  void demo_badCount_oneLineAndStatus2() {
    String[] r = capture("demo", "--count", "0");
    assertThat(r[0]).isEqualTo("2");
    assertThat(r[2].trim()).isEqualTo("krill demo: --count: 0 (expected: 1..10000000) (see krill demo --help)");
  }

  @Test
  void unknownOption_oneLineAndStatus2() {
    String[] r = capture("demo", "--bogus");
    assertThat(r[0]).isEqualTo("2");
    assertThat(r[2].trim().lines().count()).isEqualTo(1);
    assertThat(r[2]).contains("--bogus");
  }

  @Test
  void loadtest_unknownScenario_oneLineAndStatus2() {
    String[] r = capture("loadtest", "--scenario", "nope");
    assertThat(r[0]).isEqualTo("2");
    assertThat(r[2].trim()).startsWith("krill loadtest: --scenario: [\"nope\"] (expected: some of [hello, hello-wrk, pipelined,")
        .endsWith("or all) (see krill loadtest --help)");
  }
}
