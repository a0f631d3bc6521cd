package io.krill.loadtest.harness;

import io.krill.crawler.cli.CrawlCommand;
import io.krill.testweb.TestWebCommand;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The crawl scenario's child JVM entry: {@code crawl ARGS} runs {@code krill crawl ARGS},
 * {@code testweb ARGS} runs {@code krill testweb ARGS}, straight from the crawler module, so the
 * scenario needs no launcher on its classpath. Plain code on the main thread.
 */
public final class CrawlChild {
  private CrawlChild() {}

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

  /**
   * Runs the subcommand and exits with its status (2 for an unknown one).
   *
   * @param args {@code crawl|testweb} and that command's arguments
   */
  public static void main(String[] args) {
    String[] rest = args.length == 0 ? args : Arrays.copyOfRange(args, 1, args.length);
    String sub = args.length == 0 ? "" : args[0];
    int status;
    switch (sub) {
      case "crawl":
        // Progress lines go to standard error (the child's log); the scenario also reads them
        // as they come, so standard error is copied to standard output.
        System.setErr(new PrintStream(new Tee(System.err, System.out), true, StandardCharsets.UTF_8));
        status = CrawlCommand.run(rest);
        break;
      case "testweb":
        status = TestWebCommand.commandLine(System.out, System.err).execute(rest);
        break;
      default:
        System.err.println("crawl child: '" + sub + "' (expected: crawl or testweb)");
        status = 2;
    }
    System.out.flush();
    System.exit(status);
  }
}
