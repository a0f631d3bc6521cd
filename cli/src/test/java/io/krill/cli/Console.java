package io.krill.cli;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
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
    ByteArrayOutputStream o = new ByteArrayOutputStream();
    ByteArrayOutputStream e = new ByteArrayOutputStream();
    System.setOut(new PrintStream(o, true, StandardCharsets.UTF_8));
    System.setErr(new PrintStream(e, true, StandardCharsets.UTF_8));
    int status;
    try {
      status = body.getAsInt();
    } finally {
      System.setOut(out);
      System.setErr(err);
    }
    return new String[] {Integer.toString(status), o.toString(StandardCharsets.UTF_8), e.toString(StandardCharsets.UTF_8)};
  }
}
