package io.krill.benchmarks.continuations;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Runs the woven-code benchmarks once, outside JMH, and checks what they computed. Not a
 * measurement: no timing is asserted, only generous timeouts.
 */
@Timeout(120)
class WovenCodeSmokeTest {
  @ParameterizedTest
  @ValueSource(strings = {"tight", "nested"})
  void loops_wovenAndUnwoven_sameSum(String loop) {
    long[] sums = new long[2];
    String[] weavings = {"woven", "unwoven"};
    for (int k = 0; k < 2; k++) {
      TightLoopBenchmark b = new TightLoopBenchmark();
      b.weaving = weavings[k];
      b.loop = loop;
      b.setUp();
      try {
        sums[k] = b.loop(); // the woven batch checks that it suspended and resumed once
      } finally {
        b.tearDown();
      }
    }
    assertThat(sums[0]).isEqualTo(sums[1]).isNotZero();
  }

  @Test
  void loops_unknownLoop_rejectedByName() {
    TightLoopBenchmark b = new TightLoopBenchmark();
    b.weaving = "woven";
    b.loop = "spiral";
    org.assertj.core.api.Assertions.assertThatThrownBy(b::setUp).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("loop: spiral (expected: tight or nested)");
  }

  @ParameterizedTest
  @EnumSource(CompileTime.Paths.class)
  void compileTime_fewRounds_printsALinePerLoop(CompileTime.Paths paths) throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PrintStream out = System.out;
    CompileTime c = new CompileTime();
    c.paths = paths;
    c.rounds = 200; // too few for C2: the cross-check of every resumed round is what runs
    int status;
    System.setOut(new PrintStream(bytes, true, StandardCharsets.UTF_8));
    try {
      status = c.call();
    } finally {
      System.setOut(out);
    }
    assertThat(status).isZero();
    assertThat(bytes.toString(StandardCharsets.UTF_8)).doesNotContain("Exception");
  }

  @Test
  void compileTime_zeroRounds_exitStatus2() throws Exception {
    CompileTime c = new CompileTime();
    c.rounds = 0;
    assertThat(c.call()).isEqualTo(2);
  }
}
