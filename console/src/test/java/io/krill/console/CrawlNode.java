package io.krill.console;

import io.krill.crawler.cli.CrawlCommand;

/** {@code krill crawl ARGS} with the web console, in a JVM of its own (a test may kill it with SIGKILL). */
public final class CrawlNode {
  private CrawlNode() {}

  /** @param args the crawl's arguments */
  public static void main(String[] args) {
    System.exit(new CrawlCommand().console(WebConsole::start).commandLine().execute(args));
  }
}
