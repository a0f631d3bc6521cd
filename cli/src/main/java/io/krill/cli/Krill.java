package io.krill.cli;

import io.krill.config.CommandOptions;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code krill} launcher. Every subcommand answers {@code --help}; a usage error prints one
 * line naming the flag as typed and the subcommand's help, and exits with status 2; bare
 * {@code krill} prints the usage and exits with status 2.
 */
@Command(name = "krill", mixinStandardHelpOptions = true, version = "krill 0.1.0-SNAPSHOT",
    description = "Massively concurrent network programs on the JVM.",
    subcommands = {DemoCommand.class, WeaveCommand.class, ServeCommand.class,
        io.krill.cli.bench.BenchCommand.class, DocsCommand.class, FibersCommand.class})
public final class Krill implements Callable<Integer> {
  /** The exit status of a usage error. */
  static final int USAGE = CommandOptions.USAGE;
  /**
   * A system property: when set, the launcher only parses the command line and exits with 0 or
   * {@link #USAGE}; bin/krill checks the arguments this way before it rebuilds a stale jar.
   */
  static final String CHECK_ONLY = "krill.checkOnly";

  @Override
  public Integer call() {
    CommandLine.usage(this, System.err);
    return USAGE;
  }

  /**
   * Runs the launcher.
   *
   * @param args the command line
   */
  public static void main(String[] args) {
    if (Boolean.getBoolean(CHECK_ONLY)) {
      System.exit(check(args));
    }
    installDumpSignal();
    System.exit(run(args));
  }

  /*
   * kill -USR1 <pid> prints every parked fiber, like jstack does for threads. Not USR2: HotSpot
   * on Linux suspends threads with SIGUSR2 (JFR's sampler, for one), and a handler there
   * turned every JFR sample into a fiber dump.
   */
  private static void installDumpSignal() {
    try {
      sun.misc.Signal.handle(new sun.misc.Signal("USR1"), sig -> System.err.print(io.krill.fibers.Fibers.dumpAll()));
    } catch (IllegalArgumentException | UnsupportedOperationException e) {
      // no such signal on this platform: dumps stay reachable through Fibers.dumpAll()
    }
  }

  /**
   * Runs the launcher without exiting.
   *
   * @param args the command line
   * @return the exit status: 0 success, 1 failure, 2 bad usage
   */
  static int run(String... args) {
    return commandLine().execute(args);
  }

  /**
   * Parses the command line without running anything.
   *
   * @param args the command line
   * @return 0 when it parses, {@link #USAGE} (after the one-line error) when it does not
   */
  static int check(String... args) {
    CommandLine cl = commandLine();
    try {
      cl.parseArgs(args);
      return 0;
    } catch (CommandLine.ParameterException e) {
      return CommandOptions.usageError(System.err, e);
    }
  }

  /** The configured command line: one-line usage errors with status 2, the serve settings table in its help. */
  static CommandLine commandLine() {
    CommandLine cl = new CommandLine(new Krill());
    cl.addSubcommand("crawl", CrawlDemo.commandLine(System.out, System.err));
    cl.addSubcommand("broker", io.krill.broker.BrokerCommand.commandLine(System.out, System.err));
    cl.addSubcommand("testweb", io.krill.testweb.TestWebCommand.commandLine(System.out, System.err));
    cl.addSubcommand("loadtest", io.krill.loadtest.harness.LoadtestCommand.commandLine());
    cl.setParameterExceptionHandler((e, a) -> CommandOptions.usageError(System.err, e));
    ServeCommand.install(cl.getSubcommands().get("serve"));
    return cl;
  }
}
