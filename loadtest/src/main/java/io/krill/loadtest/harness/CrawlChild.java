package io.krill.loadtest.harness;

import io.krill.console.WebConsole;
import io.krill.crawler.cli.CrawlCommand;
import io.krill.testweb.TestWebCommand;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * The crawl scenario's child JVM entry: {@code crawl ARGS} runs {@code krill crawl ARGS},
 * {@code testweb ARGS} runs {@code krill testweb ARGS}, straight from the crawler module, so the
 * scenario needs no launcher on its classpath. Plain code on the main thread.
 */
@Command(name = "CrawlChild", mixinStandardHelpOptions = true,
    description = "The crawl scenario's child JVM: krill crawl or krill testweb without the launcher.")
public final class CrawlChild implements Runnable {
  private CrawlChild() {}

  @Override
  public void run() {
    throw new CommandLine.ParameterException(new CommandLine(this), "a subcommand is missing");
  }

  /** Writes every byte to both streams, each write whole under one lock so lines do not interleave. */
  static final class Tee extends OutputStream {
    private final OutputStream a;
    private final OutputStream b;

    Tee(OutputStream a, OutputStream b) {
      this.a = a;
      this.b = b;
    }

    @Override
    public synchronized void write(int x) throws IOException {
      a.write(x);
      b.write(x);
    }

    @Override
    public synchronized void write(byte[] buf, int off, int len) throws IOException {
      a.write(buf, off, len);
      b.write(buf, off, len);
    }

    @Override
    public synchronized void flush() throws IOException {
      a.flush();
      b.flush();
    }
  }

  /** {@code crawl ARGS}: runs {@code krill crawl ARGS} (with the web console), its progress copied to standard output. */
  @Command(name = "crawl", description = "krill crawl, with its arguments")
  int crawl(@Parameters(arity = "0..*", paramLabel = "ARGS") String[] args) {
    // Progress lines go to standard error (the child's log); the scenario also reads them
    // as they come, so standard error is copied to standard output.
    System.setErr(new PrintStream(new Tee(System.err, System.out), true, StandardCharsets.UTF_8));
    return new CrawlCommand().console(WebConsole::start).commandLine().execute(args == null ? new String[0] : args);
  }

  /** {@code testweb ARGS}: runs {@code krill testweb ARGS}. */
  @Command(name = "testweb", description = "krill testweb, with its arguments")
  int testweb(@Parameters(arity = "0..*", paramLabel = "ARGS") String[] args) {
    return TestWebCommand.commandLine(System.out, System.err).execute(args == null ? new String[0] : args);
  }

  /**
   * Runs the subcommand and exits with its status (2 for an unknown one).
   *
   * @param args {@code crawl|testweb} and that command's arguments
   */
  public static void main(String[] args) {
    CommandLine cl = new CommandLine(new CrawlChild()).setUnmatchedOptionsArePositionalParams(true);
    cl.setParameterExceptionHandler((e, a) -> {
      System.err.println("crawl child: " + e.getMessage() + " (expected: crawl or testweb and its arguments)");
      return 2;
    });
    int status = cl.execute(args);
    System.out.flush();
    System.exit(status);
  }
}
