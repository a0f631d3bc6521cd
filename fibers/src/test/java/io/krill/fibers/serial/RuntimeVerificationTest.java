package io.krill.fibers.serial;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
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
    Map<String, byte[]> plain = ChildJvm.compile(SOURCES);
    Map<String, byte[]> mixed = new HashMap<>(ChildJvm.weave(plain));
    mixed.put("verifytest/Middle", plain.get("verifytest/Middle"));
    return ChildJvm.run(dir, mixed, List.of("-Dkrill.verify=" + verify), VerifyMain.class, "verifytest.Outer").output();
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
