package io.krill.loadtest.harness;

import io.krill.crawler.CrawlConfig;
import io.krill.crawler.CrawlSummary;
import io.krill.crawler.Crawler;
import io.krill.crawler.frontier.Frontier;
import io.krill.crawler.frontier.Scope;
import io.krill.testweb.AccessLog;
import io.krill.testweb.TestWeb;
import io.krill.testweb.TestWebConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;

/**
 * The single-node frontier's recall of the shortest-path truth: crawls a synthetic web whose
 * slow hosts make long paths arrive first, at depth limits 2, 4 and 6, in every crawl order and
 * two politeness settings, and prints a Markdown table of the URLs fetched against the web's
 * ground truth (a breadth-first search of its link graph), with how many fetched pages had their
 * depth lowered afterwards (the journal's R lines). A benchmark, not a test: it asserts nothing.
 *
 * <pre>{@code
 * java -cp "$(cat loadtest/target/classpath.txt):loadtest/target/classes" io.krill.loadtest.harness.FrontierRecall [OUT_DIR]
 * }</pre>
 */
public final class FrontierRecall {
  /** Hosts of the web, of them slow, pages per host, the slow hosts' latency. */
  static final int HOSTS = 30;
  static final int SLOW_HOSTS = 8;
  static final int PAGES = 15;
  static final Duration SLOW_LATENCY = Duration.ofMillis(300);

  private FrontierRecall() {}

  /**
   * Runs the matrix and prints the table.
   *
   * @param args an optional directory for the crawls' output (default: a temporary one)
   * @throws Exception if the web or a crawl cannot run
   */
  public static void main(String[] args) throws Exception {
    Path dir = args.length > 0 ? Path.of(args[0]) : Files.createTempDirectory("frontier-recall");
    long[][] politeness = {{0, 2}, {20, 1}}; // delay ms, per-host
    System.out.println("| order | delay, per-host | max depth | truth | fetched | recall | outside truth | pages relaxed |");
    System.out.println("|---|---|---|---|---|---|---|---|");
    try (TestWeb web = TestWeb.start(TestWebConfig.longPathsFirst(HOSTS, PAGES, SLOW_HOSTS, SLOW_LATENCY).build())) {
      for (Frontier.Order order : Frontier.Order.values()) {
        for (long[] p : politeness) {
          for (int depth : new int[] {2, 4, 6}) {
            web.accessLog().clear();
            Path out = dir.resolve(order + "-" + p[0] + "-" + p[1] + "-" + depth);
            CrawlConfig.Builder b = CrawlConfig.builder().out(out).resolver(web.newResolver()).allowPrivate(true)
                .scope(Scope.Kind.ANY).maxDepth(depth).order(order).delay(Duration.ofMillis(p[0])).perHost((int) p[1])
                .perIp(2 * (int) p[1]).progress(CrawlConfig.Progress.OFF).fsync(CrawlConfig.Fsync.NEVER);
            web.seedUrls().forEach(b::seed);
            CrawlSummary s = Crawler.create(b.build()).run();
            Set<String> truth = web.groundTruth(io.krill.testweb.Scope.builder().maxDepth(depth).build()).urls();
            Set<String> fetched = new HashSet<>();
            for (AccessLog.Entry e : web.accessLog().entries()) {
              if (!e.target().equals("/robots.txt")) {
                fetched.add("http://" + e.host() + ":" + web.port() + e.target());
              }
            }
            long hit = fetched.stream().filter(truth::contains).count();
            System.out.printf(Locale.ROOT, "| %s | %d ms, %d | %d | %d | %d | %.1f%% | %d | %d |%n", order.name().toLowerCase(Locale.ROOT),
                p[0], p[1], depth, truth.size(), fetched.size(), 100.0 * hit / truth.size(), fetched.size() - hit,
                relaxed(out));
            if (!s.stoppedBy().equals("done")) {
              System.out.println("  (stopped by " + s.stoppedBy() + ")");
            }
          }
        }
      }
    }
  }

  private static long relaxed(Path out) throws IOException {
    try (var lines = Files.lines(out.resolve("frontier.journal"))) {
      return lines.filter(l -> l.startsWith("R\t")).count();
    }
  }

}
