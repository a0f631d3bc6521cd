package io.krill.crawler.cli;

import io.krill.crawler.CrawlConfig;
import io.krill.crawler.CrawlSummary;
import io.krill.crawler.Crawler;
import io.krill.crawler.cluster.ClusterCrawl;
import io.krill.crawler.cluster.ClusterException;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The story of {@code krill crawl --demo --nodes N}: N nodes of one crawl id in this process; the
 * first leaves part-way (as a node that is stopped does), the console shows the others taking
 * its partitions over, and each node's share is printed at the end.
 */
final class ClusterDemo {
  /** Pages the leaving node fetches before it leaves. */
  static final int LEAVE_AFTER_PAGES = 40;

  /** Builds a node's configuration for its output directory. */
  @FunctionalInterface
  interface Configs {
    CrawlConfig build(Path nodeOut) throws IOException;
  }

  private final ClusterCrawl.Options options;
  private final PrintStream out;
  private final PrintStream err;

  ClusterDemo(ClusterCrawl.Options options, PrintStream out, PrintStream err) {
    this.options = options;
    this.out = out;
    this.err = err;
  }

  int run(int nodes, Map<String, String> fixed, Configs configs, Path dir, Duration delay)
      throws IOException, ClusterException {
    List<ClusterCrawl> joined = new ArrayList<>();
    List<Crawler> crawlers = new ArrayList<>();
    for (int i = 0; i < nodes; i++) {
      ClusterCrawl node = ClusterCrawl.join(options, fixed, err);
      joined.add(node);
      crawlers.add(Crawler.create(configs.build(node.outputDir(dir))));
    }
    ExecutorService pool = Executors.newFixedThreadPool(nodes);
    try {
      List<Future<CrawlSummary>> runs = new ArrayList<>();
      for (int i = 0; i < nodes; i++) {
        ClusterCrawl node = joined.get(i);
        Crawler crawler = crawlers.get(i);
        runs.add(pool.submit(() -> node.run(crawler, delay)));
      }
      if (nodes > 1) {
        leavePartWay(joined.get(0), crawlers.get(0), runs.get(0));
      }
      int code = 0;
      long total = 0;
      for (int i = 0; i < nodes; i++) {
        CrawlSummary s = get(runs.get(i));
        total += s.pages();
        out.printf(Locale.ROOT, "node %s: %d pages, %s, output in %s%n", joined.get(i).node(), s.pages(), s.stoppedBy(),
            joined.get(i).outputDir(dir));
        code |= s.succeeded() ? 0 : 1;
      }
      out.printf(Locale.ROOT, "cluster: %d nodes fetched %d pages in total%n", nodes, total);
      return code;
    } finally {
      pool.shutdownNow();
    }
  }

  private void leavePartWay(ClusterCrawl node, Crawler crawler, Future<CrawlSummary> run) {
    long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
    while (crawler.stats().pages.sum() < LEAVE_AFTER_PAGES && !run.isDone() && System.nanoTime() < deadline) {
      try {
        Thread.sleep(50);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
    err.println("krill crawl --demo: node " + node.node() + " leaves part-way, after " + crawler.stats().pages.sum()
        + " pages; the other nodes take its partitions over");
    crawler.stop();
  }

  private static CrawlSummary get(Future<CrawlSummary> f) throws IOException, ClusterException {
    try {
      return f.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof IOException io) {
        throw io;
      }
      if (e.getCause() instanceof ClusterException c) {
        throw c;
      }
      throw new IllegalStateException(e.getCause());
    }
  }
}
