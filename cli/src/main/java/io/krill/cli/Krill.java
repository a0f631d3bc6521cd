package io.krill.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code krill} launcher. Bad arguments print one line and exit with status 2.
 */
@Command(name = "krill", mixinStandardHelpOptions = true, version = "krill 0.1.0-SNAPSHOT",
    description = "Massively concurrent network programs on the JVM.",
    subcommands = {DemoCommand.class, WeaveCommand.class, ServeCommand.class,
        io.krill.loadtest.harness.LoadtestCommand.class})
public final class Krill implements Callable<Integer> {
  @Override
  public Integer call() {
    CommandLine.usage(this, System.out);
    return 0;
  }

  /**
   * Runs the launcher.
   *
   * @param args the command line
   */
  public static void main(String[] args) {
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

  /** The configured command line: one-line usage errors with status 2, the serve settings table in its help. */
  static CommandLine commandLine() {
    CommandLine cl = new CommandLine(new Krill());
    cl.addSubcommand("crawl", CrawlDemo.commandLine(System.out, System.err));
    cl.addSubcommand("testweb", io.krill.testweb.TestWebCommand.commandLine(System.out, System.err));
    cl.setParameterExceptionHandler((e, a) -> {
      System.err.println("krill: " + e.getMessage() + " (see krill --help)");
      return 2;
    });
    ServeCommand.installHelp(cl.getSubcommands().get("serve"));
    return cl;
  }
}
