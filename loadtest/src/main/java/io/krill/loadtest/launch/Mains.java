package io.krill.loadtest.launch;

import picocli.CommandLine;

/**
 * The command line of a child-JVM main (servers, generators, the benchmarks' harness mains),
 * parsed by picocli into an annotated object: {@code --help} prints the usage and exits 0, a bad
 * line prints one {@code failed: ...} line and exits 2.
 */
public final class Mains {
  private Mains() {}

  /**
   * Parses {@code args} into {@code command}'s {@code @Option} and {@code @Parameters} fields, or exits.
   *
   * @param command an object of a class annotated with picocli's {@code @Command}
   * @param args the command line
   * @param <T> its type
   * @return {@code command}, filled in
   */
  public static <T> T parse(T command, String... args) {
    try {
      return parseOrThrow(command, args);
    } catch (IllegalArgumentException e) {
      usageError(e.getMessage() + " (see " + new CommandLine(command).getCommandName() + " --help)");
      return command;
    }
  }

  /**
   * Parses {@code args} into {@code command}'s fields; {@code --help} prints the usage and exits 0.
   *
   * @param command an object of a class annotated with picocli's {@code @Command}
   * @param args the command line
   * @param <T> its type
   * @return {@code command}, filled in
   * @throws IllegalArgumentException with picocli's message, which quotes the argument as typed
   */
  public static <T> T parseOrThrow(T command, String... args) {
    CommandLine cl = new CommandLine(command);
    try {
      cl.parseArgs(args);
    } catch (CommandLine.ParameterException e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    }
    if (cl.isUsageHelpRequested()) {
      cl.usage(System.out);
      System.exit(0);
    }
    return command;
  }

  /**
   * Fails like a bad command line: one {@code failed: ...} line, status 2.
   *
   * @param message what is wrong, e.g. {@code MAX: 0 (expected: > 0)}
   */
  public static void usageError(String message) {
    System.out.println("failed: " + message);
    System.out.flush();
    System.exit(2);
  }
}
