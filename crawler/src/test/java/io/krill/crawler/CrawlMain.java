package io.krill.crawler;

import io.krill.crawler.cli.CrawlCommand;

/** {@code krill crawl} in a child JVM, for the crash/resume tests (they kill it with SIGKILL). */
public final class CrawlMain {
  private CrawlMain() {}

  public static void main(String[] args) {
    System.exit(CrawlCommand.run(args));
  }
}
