package io.krill.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class KrillTest {
  private static String[] capture(String... args) {
    PrintStream out = System.out;
    PrintStream err = System.err;
    ByteArrayOutputStream o = new ByteArrayOutputStream();
    ByteArrayOutputStream e = new ByteArrayOutputStream();
    System.setOut(new PrintStream(o, true, StandardCharsets.UTF_8));
    System.setErr(new PrintStream(e, true, StandardCharsets.UTF_8));
    int status;
    try {
      status = Krill.run(args);
    } finally {
      System.setOut(out);
      System.setErr(err);
    }
    return new String[] {Integer.toString(status), o.toString(StandardCharsets.UTF_8), e.toString(StandardCharsets.UTF_8)};
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
    assertThat(r[2].trim()).isEqualTo("krill demo: --count: 0 (expected: 1..10000000)");
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
    assertThat(r[2].trim()).startsWith("krill loadtest: scenario: nope (expected: one of");
  }
}
