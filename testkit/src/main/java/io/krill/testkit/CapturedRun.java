package io.krill.testkit;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * The exit code and the two output streams of one command run in-process, for tests of
 * command lines.
 *
 * @param code the exit code
 * @param err what the command wrote to its error stream
 * @param out what the command wrote to its output stream
 */
public record CapturedRun(int code, String err, String out) {
  /** A command that writes to the streams it is given and returns its exit code. */
  @FunctionalInterface
  public interface Command {
    /**
     * @param out the output stream
     * @param err the error stream
     * @return the exit code
     */
    int run(PrintStream out, PrintStream err);
  }

  /**
   * Runs {@code command} with UTF-8 streams that it writes into memory.
   *
   * @param command the command
   * @return its exit code and output
   */
  public static CapturedRun of(Command command) {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int code = command.run(new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
    return new CapturedRun(code, err.toString(StandardCharsets.UTF_8), out.toString(StandardCharsets.UTF_8));
  }
}
