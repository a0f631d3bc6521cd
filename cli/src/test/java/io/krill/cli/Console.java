package io.krill.cli;

import io.krill.testkit.CapturedRun;
import java.io.PrintStream;
import java.util.function.IntSupplier;

/** Runs launcher code with standard output and error captured. */
final class Console {
  private Console() {}

  /**
   * Runs {@code body} with {@link System#out} and {@link System#err} captured.
   *
   * @param body returns an exit status
   * @return the status, standard output and standard error
   */
  static String[] capture(IntSupplier body) {
    PrintStream out = System.out;
    PrintStream err = System.err;
    CapturedRun r = CapturedRun.of((o, e) -> {
      System.setOut(o);
      System.setErr(e);
      try {
        return body.getAsInt();
      } finally {
        System.setOut(out);
        System.setErr(err);
      }
    });
    return new String[] {Integer.toString(r.code()), r.out(), r.err()};
  }

  /**
   * Runs {@code krill crawl ARGS} as the launcher builds it (the demo web and the console included).
   *
   * @param args the crawl's arguments
   * @return its exit code, stderr and stdout
   */
  static CapturedRun crawl(String... args) {
    return CapturedRun.of((out, err) -> CrawlDemo.commandLine(out, err).execute(args));
  }
}
