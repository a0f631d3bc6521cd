package io.krill.fibers.serial;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RuntimeVerificationTest {
  /*
   * Middle's method is virtual (and Middle not final): a woven call to it goes to the method
   * as javac wrote it, so only the check at the suspension can see that it was not woven.
   */
  private static final Map<String, String> SOURCES = sources("new Middle().call(3)", "public int call(int v)");

  /* A static method has a stack entry once woven, which a woven caller calls. */
  private static final Map<String, String> STATIC_SOURCES = sources("Middle.call(3)", "public static int call(int v)");

  private static Map<String, String> sources(String call, String declaration) {
    return Map.of(
      "verifytest.Outer", String.join("\n",
          "package verifytest;",
          "public class Outer implements io.krill.fibers.SuspendableRunnable {",
          "  public void run() throws io.krill.fibers.Suspendable {",
          "    int x = " + call + ";",
          "    System.out.println(x);",
          "  }",
          "}"),
      "verifytest.Middle", String.join("\n",
          "package verifytest;",
          "public class Middle {",
          "  " + declaration + " throws io.krill.fibers.Suspendable {",
          "    int twice = v * 2;",
          "    io.krill.fibers.Continuation.suspend();",
          "    return twice;",
          "  }",
          "}"));
  }

  /** Writes Outer woven and Middle as javac left it, and runs Outer in a child JVM. */
  private static String runWithUnwovenMiddle(Path dir, boolean verify) throws Exception {
    return runWithUnwovenMiddle(dir, verify, SOURCES);
  }

  private static String runWithUnwovenMiddle(Path dir, boolean verify, Map<String, String> sources) throws Exception {
    Map<String, byte[]> plain = ChildJvm.compile(sources);
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

  /*
   * A woven call to a statically bound suspendable method calls its stack entry, which an
   * unwoven class lacks: the call fails at once, verify or not, before any state is lost.
   */
  @Test
  void call_toStackEntryOfUnwovenClass_failsNamingTheEntry(@TempDir Path dir) throws Exception {
    for (boolean verify : new boolean[] {false, true}) {
      assertThat(runWithUnwovenMiddle(dir.resolve("v" + verify), verify, STATIC_SOURCES))
          .contains("java.lang.NoSuchMethodError", "verifytest.Middle.call(int, io.krill.fibers.Stack, byte)")
          .doesNotContain("suspended=");
    }
  }

  @Test
  void suspend_throughUnwovenFrameWithVerifyOff_isNotChecked(@TempDir Path dir) throws Exception {
    assertThat(runWithUnwovenMiddle(dir, false)).isEqualTo("suspended=true");
  }
}
