package io.krill.loadtest.internal;

import io.krill.loadtest.launch.Mains;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * The command line of a server child JVM, {@code KIND [MAX_SECONDS]}, parsed by picocli: which
 * server to run and how long it may live at most. A bad line prints one {@code failed: ...}
 * line, which the harness reads, and exits with status 2.
 */
@Command(name = "server", mixinStandardHelpOptions = true)
public final class ServerArgs {
  /** Default lifetime limit in seconds. */
  public static final long DEFAULT_MAX_SECONDS = 3600;

  @Parameters(index = "0", paramLabel = "KIND", description = "the server to run: ${COMPLETION-CANDIDATES}")
  String kind;

  @Parameters(index = "1", arity = "0..1", paramLabel = "MAX_SECONDS", defaultValue = "" + DEFAULT_MAX_SECONDS,
      description = "halt after this many seconds whatever happens (default: ${DEFAULT-VALUE})")
  long maxSeconds;

  private ServerArgs() {}

  /** @return the server kind, one of the kinds {@link #parse} was given */
  public String kind() {
    return kind;
  }

  /** @return the lifetime limit in seconds, at least 1 */
  public long maxSeconds() {
    return maxSeconds;
  }

  /**
   * Parses a server's command line, or exits: status 0 after {@code --help}, 2 after a bad line.
   *
   * @param kinds the kinds it runs
   * @param args the command line
   * @return the arguments
   */
  public static ServerArgs parse(List<String> kinds, String... args) {
    ServerArgs a = new ServerArgs();
    Mains.parse(a, args);
    if (!kinds.contains(a.kind)) {
      Mains.usageError("KIND: " + a.kind + " (expected: one of " + kinds + ")");
    }
    if (a.maxSeconds < 1) {
      Mains.usageError("MAX_SECONDS: " + a.maxSeconds + " (expected: >= 1)");
    }
    return a;
  }
}
