package io.krill.transform;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the shaded agent jar in a child JVM. The jar is built in the package phase, so this
 * runs under maven-failsafe in integration-test, after it exists.
 */
class WeavingAgentIT {
  private static final String WORK = String.join("\n",
      "package app;",
      "import io.krill.fibers.Suspendable;",
      "public class Work {",
      "  static void park() throws Suspendable {}",
      "  public static long run(int n) throws Suspendable {",
      "    long total = 0;",
      "    for (int i = 1; i <= n; i++) { park(); total += i; }",
      "    return total;",
      "  }",
      "}");
  private static final String BAD = String.join("\n",
      "package app;",
      "public class Bad {",
      "  Bad() throws Exception {",
      "    Work.park();",
      "  }",
      "}");
  private static final String MAIN = String.join("\n",
      "package app;",
      "public class Main {",
      "  public static void main(String[] args) throws Exception {",
      "    Class<?> work = Class.forName(\"app.Work\");",
      "    System.out.println(\"work woven: \" + woven(work));",
      "    System.out.println(\"work result: \" + work.getMethod(\"run\", int.class).invoke(null, 20));",
      "    System.out.println(\"bad woven: \" + woven(Class.forName(\"app.Bad\")));",
      "  }",
      "  static boolean woven(Class<?> c) {",
      "    try { c.getDeclaredField(\"$krill$woven\"); return true; } catch (NoSuchFieldException e) { return false; }",
      "  }",
      "}");

  @TempDir
  Path tmp;

  @Test
  void javaagent_childJvm_weavesSuspendableClassesAndReportsBrokenOnes() throws Exception {
    Path agentJar = Paths.get(System.getProperty("krill.agent.jar",
        "target/krill-transform-0.1.0-SNAPSHOT-agent.jar")).toAbsolutePath();
    assertThat(agentJar).as("the shaded agent jar; run 'mvn verify', which builds it before this test").exists();
    Path classes = Files.createDirectories(tmp.resolve("classes"));
    TestCompiler.compile(WORK, BAD, MAIN).writeTo(classes);

    Process p = new ProcessBuilder(javaBinary(), "-javaagent:" + agentJar, "-cp", classes.toString(), "app.Main")
        .redirectErrorStream(false)
        .start();
    p.getOutputStream().close();
    boolean exited = p.waitFor(60, TimeUnit.SECONDS);
    if (!exited) {
      p.destroyForcibly();
    }
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);

    assertThat(exited).as("child JVM exits").isTrue();
    assertThat(p.exitValue()).as("exit status; stderr:\n%s", err).isZero();
    assertThat(out.lines()).containsExactly("work woven: true", "work result: 210", "bad woven: false");
    assertThat(err.lines()).containsExactly("krill agent: app.Bad.<init>()V (line 4): calls suspendable app.Work.park()V"
        + " in a constructor, which cannot suspend; move the call into a method or static factory that runs after"
        + " construction");
  }

  @Test
  void javaagent_haltPolicy_childJvmStopsWithStatus70AtTheBrokenClass() throws Exception {
    Path agentJar = Paths.get(System.getProperty("krill.agent.jar",
        "target/krill-transform-0.1.0-SNAPSHOT-agent.jar")).toAbsolutePath();
    assertThat(agentJar).as("the shaded agent jar; run 'mvn verify', which builds it before this test").exists();
    Path classes = Files.createDirectories(tmp.resolve("classes"));
    TestCompiler.compile(WORK, BAD, MAIN).writeTo(classes);

    Process p = new ProcessBuilder(javaBinary(), "-javaagent:" + agentJar + "=onError=halt", "-cp", classes.toString(),
        "app.Main").start();
    p.getOutputStream().close();
    boolean exited = p.waitFor(60, TimeUnit.SECONDS);
    if (!exited) {
      p.destroyForcibly();
    }
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);

    assertThat(exited).as("child JVM exits").isTrue();
    assertThat(p.exitValue()).as("exit status; stderr:\n%s", err).isEqualTo(WeavingAgent.HALT_STATUS);
    assertThat(out.lines()).containsExactly("work woven: true", "work result: 210");
    assertThat(err.lines()).hasSize(2).last().isEqualTo("krill agent: halting (krill.agent.onError=halt)");
  }

  private static String javaBinary() throws IOException {
    Path java = Paths.get(System.getProperty("java.home"), "bin", isWindows() ? "java.exe" : "java");
    if (Files.isExecutable(java)) {
      return java.toString();
    }
    return ProcessHandle.current().info().command()
        .orElseThrow(() -> new IOException("no java binary under " + System.getProperty("java.home")));
  }

  private static boolean isWindows() {
    return System.getProperty("os.name", "").toLowerCase(java.util.Locale.ROOT).startsWith("windows");
  }
}
