package io.krill.fibers.serial;

import static org.assertj.core.api.Assertions.assertThat;

import io.krill.fibers.Continuation;
import java.io.File;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RuntimeVerificationTest {
  private static final Map<String, String> SOURCES = Map.of(
      "verifytest.Outer", String.join("\n",
          "package verifytest;",
          "public class Outer implements io.krill.fibers.SuspendableRunnable {",
          "  public void run() throws io.krill.fibers.Suspendable {",
          "    int x = Middle.call(3);",
          "    System.out.println(x);",
          "  }",
          "}"),
      "verifytest.Middle", String.join("\n",
          "package verifytest;",
          "public class Middle {",
          "  public static int call(int v) throws io.krill.fibers.Suspendable {",
          "    int twice = v * 2;",
          "    io.krill.fibers.Continuation.suspend();",
          "    return twice;",
          "  }",
          "}"));

  /** Writes Outer woven and Middle as javac left it, and runs Outer in a child JVM. */
  private static String runWithUnwovenMiddle(Path dir, boolean verify) throws Exception {
    Map<String, byte[]> plain = TestCompiler.compile(SOURCES);
    Map<String, byte[]> woven = TestCompiler.weave(plain);
    Map<String, byte[]> mixed = new HashMap<>(woven);
    mixed.put("verifytest.Middle", plain.get("verifytest.Middle"));
    for (Map.Entry<String, byte[]> e : mixed.entrySet()) {
      Path file = dir.resolve(e.getKey().replace('.', '/') + ".class");
      Files.createDirectories(file.getParent());
      Files.write(file, e.getValue());
    }
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    String cp = String.join(File.pathSeparator, dir.toString(),
        TestCompiler.locationOf(Continuation.class).toString(),
        TestCompiler.locationOf(VerifyMain.class).toString(),
        TestCompiler.locationOf(io.netty.util.concurrent.FastThreadLocalThread.class).toString());
    Process p = new ProcessBuilder(List.of(java, "-Dkrill.verify=" + verify, "-cp", cp, VerifyMain.class.getName(), "verifytest.Outer"))
        .redirectErrorStream(true).start();
    String output;
    try (InputStream in = p.getInputStream()) {
      output = new String(in.readAllBytes(), StandardCharsets.UTF_8).trim();
    }
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("child JVM finished").isTrue();
    return output;
  }

  @Test
  void suspend_throughUnwovenFrameWithVerifyOn_namesTheFrame(@TempDir Path dir) throws Exception {
    String output = runWithUnwovenMiddle(dir, true);
    assertThat(output).startsWith("refused: krill.verify: suspension passes through frame(s) that were not woven: ")
        .contains("verifytest.Middle.call(I)I (Middle.java:5)")
        .doesNotContain("verifytest.Outer");
  }

  @Test
  void suspend_throughUnwovenFrameWithVerifyOff_isNotChecked(@TempDir Path dir) throws Exception {
    assertThat(runWithUnwovenMiddle(dir, false)).isEqualTo("suspended=true");
  }
}
