package io.krill.loadtest.harness;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/** {@code krill loadtest} run in the test's JVM with its console captured: the scenario tests' one way to start a run. */
final class LoadtestConsole {
  private LoadtestConsole() {}

  /** Runs the command with {@code System.out} appended to {@code out}. @return its exit status */
  static int run(ByteArrayOutputStream out, String... args) {
    PrintStream saved = System.out;
    System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
    try {
      return LoadtestCommand.commandLine().execute(args);
    } finally {
      System.setOut(saved);
    }
  }

  /** Runs the command, echoes its console to stderr and checks it exited 0 with no failed cell. @return the console */
  static String runPassing(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int status = run(out, args);
    String console = out.toString(StandardCharsets.UTF_8);
    System.err.println(console);
    assertThat(status).as(console).isZero();
    assertThat(console).doesNotContain("FAILED");
    return console;
  }
}
