package io.krill.loadtest.harness;

import io.krill.crawler.cli.CrawlCommand;
import io.krill.crawler.testweb.TestWebCommand;
import java.util.Arrays;

/**
 * The crawl scenario's child JVM entry: {@code crawl ARGS} runs {@code krill crawl ARGS},
 * {@code testweb ARGS} runs {@code krill testweb ARGS}, straight from the crawler module, so the
 * scenario needs no launcher on its classpath. Plain code on the main thread.
 */
public final class CrawlChild {
  private CrawlChild() {}

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
