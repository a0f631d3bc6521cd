package io.krill.fibers.corpus;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Loops with suspension points: same results in every mode, and reducible for C2. */
class LoopShapesTest {
  @ParameterizedTest
  @EnumSource(Mode.class)
  void everyShape_sameResult(Mode mode) {
    assertThat(mode.call(() -> LoopShapes.counted(6))).isEqualTo(15L);
    assertThat(mode.call(() -> LoopShapes.nested(4))).isEqualTo(46L);
    assertThat(mode.call(() -> LoopShapes.conditionAndBreak(8))).isEqualTo(408);
    assertThat(mode.call(() -> LoopShapes.retryWithCatch(3))).isEqualTo("9,9,ok 3");
    assertThat(mode.call(() -> LoopShapes.insideAnExpression(2, 2))).isEqualTo(2012);
    assertThat(mode.call(LoopShapes::all)).isEqualTo(LoopShapes.ALL);
  }

  /*
   * C2 writes its loop tree into the compilation log (-XX:+LogCompilation), one <loop> element
   * per loop, with irreducible='1' on a loop it found more than one entry into. The corpus
   * methods are kept out of line so that each loop is logged under its own method's task.
   * Each shape is run alternately suspending and not, so C2 sees both entries into a loop:
   * the one from the method's start and the one from a restore.
   */
  @Test
  void wovenLoops_resumedAndEnteredAfresh_c2FindsNoIrreducibleLoop(@TempDir Path dir) throws Exception {
    Path log = dir.resolve("compilation.log");
    List<String> command = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        // -Xbatch: a method that crosses the threshold is compiled before the caller goes on,
        // so every shape is compiled by the end, however busy the machine is.
        "-Xbatch", "-XX:-TieredCompilation",
        "-XX:+UnlockDiagnosticVMOptions", "-XX:+LogCompilation", "-XX:LogFile=" + log,
        "-XX:CompileCommand=quiet", "-XX:CompileCommand=dontinline,io.krill.fibers.corpus.*::*",
        "-cp", System.getProperty("java.class.path"), LoopShapes.class.getName(), "40000"));
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output;
    try (InputStream in = p.getInputStream()) {
      output = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("child JVM finished").isTrue();
    assertThat(p.exitValue()).as("child JVM: %s", output).isZero();
    assertThat(output).startsWith("ok");

    Map<String, Boolean> irreducibleByMethod = loopTrees(Files.readString(log));
    assertThat(irreducibleByMethod.keySet()).as("C2 compiled the control with its loop")
        .anyMatch(m -> m.contains("IrreducibleControl"));
    irreducibleByMethod.forEach((method, irreducible) -> {
      if (method.contains("IrreducibleControl")) {
        assertThat(irreducible).as("the control %s is reported irreducible", method).isTrue();
      } else if (method.startsWith("io.krill.fibers.corpus.")) {
        assertThat(irreducible).as("woven %s has an irreducible loop", method).isFalse();
      }
    });
    for (String shape : List.of("counted", "nested", "conditionAndBreak", "retryWithCatch", "insideAnExpression")) {
      assertThat(irreducibleByMethod.keySet()).as("C2 compiled LoopShapes.%s with its loops", shape)
          .anyMatch(m -> m.startsWith("io.krill.fibers.corpus.LoopShapes " + shape + " "));
    }
  }

  private static final Pattern TASK = Pattern.compile("<task compile_id='\\d+'[^>]*? method='([^']+)'[^>]*>(.*?)</task>", Pattern.DOTALL);

  /** @return per method that C2 logged a loop tree for: whether any of its loops was irreducible */
  static Map<String, Boolean> loopTrees(String log) {
    Map<String, Boolean> out = new LinkedHashMap<>();
    Matcher m = TASK.matcher(log);
    while (m.find()) {
      String body = m.group(2);
      if (!body.contains("<loop_tree>")) {
        continue;
      }
      out.merge(m.group(1), body.contains("irreducible='1'"), Boolean::logicalOr);
    }
    return out;
  }
}
