package io.krill.crawler.cluster;

import io.krill.crawler.CrawlConfig;
import io.krill.crawler.CrawlSummary;
import io.krill.crawler.frontier.Scope;
import io.krill.testweb.AccessLog;
import io.krill.testweb.TestWeb;
import io.krill.testweb.TestWebConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.function.IntFunction;
import java.util.function.UnaryOperator;

/** The synthetic web the cluster tests crawl, and what they read from its access log. */
final class ClusterWeb {
  static final Duration DELAY = Duration.ofMillis(60);
  /* Deep enough that every reachable page is in reach whatever path a node meets it on. */
  static final int MAX_DEPTH = 60;
  /** How long a node waits for a partition's previous owner to hand it over. */
  static final int HANDOVER_SECONDS = 30;

  private ClusterWeb() {}

  static TestWeb start(int hosts, int pagesPerHost, Duration latency) throws java.io.IOException {
    return TestWeb.start(TestWebConfig.builder().hosts(hosts).pagesPerHost(pagesPerHost).latency(latency)
        .crawlDelay(Duration.ZERO).calendarHosts(0).sessionIdHosts(0).deepPathHosts(0).gzipBombHosts(0)
        .redirectLoopHosts(0).slowDripRate(0).dnsTimeoutHosts(0)
        // a throttled URL stays answered on a second crawl of the same web: counts would not compare
        .throttleRate(0).build());
  }

  static CrawlConfig.Builder config(TestWeb web, Path out) {
    CrawlConfig.Builder b = CrawlConfig.builder().out(out).resolver(web.newResolver()).allowPrivate(true)
        .scope(Scope.Kind.ANY).maxDepth(MAX_DEPTH).delay(DELAY).perHost(1).perIp(4)
        .robotsRetry(Duration.ofMillis(300)).robotsAttempts(2).progress(CrawlConfig.Progress.OFF)
        .fsync(CrawlConfig.Fsync.NEVER);
    web.seedUrls().forEach(b::seed);
    return b;
  }

  /** @return the URLs requested (not robots.txt), with how often */
  static Map<String, Integer> requests(TestWeb web) {
    Map<String, Integer> requests = new HashMap<>();
    for (AccessLog.Entry e : web.accessLog().entries()) {
      if (!e.target().equals("/robots.txt")) {
        requests.merge("http://" + e.host() + ":" + web.port() + e.target(), 1, Integer::sum);
      }
    }
    return requests;
  }

  /** @return the URLs requested more than once, with how often */
  static Map<String, Integer> repeated(TestWeb web) {
    Map<String, Integer> r = new java.util.TreeMap<>(requests(web));
    r.values().removeIf(n -> n < 2);
    return r;
  }

  static Set<String> requested(TestWeb web) {
    return new TreeSet<>(requests(web).keySet());
  }

  /** Starts {@code krill crawl --kafka ...} on the web in a child JVM (a test may kill it with SIGKILL). */
  static Process startNode(TestWeb web, String bootstrap, String crawlId, Path out, Duration delay, int maxInFlight, Path log)
      throws java.io.IOException {
    List<String> cmd = new java.util.ArrayList<>(List.of(System.getProperty("java.home") + java.io.File.separator + "bin"
        + java.io.File.separator + "java", "-cp", System.getProperty("java.class.path"), "-Xmx256m",
        io.krill.crawler.CrawlMain.class.getName(), "--kafka", bootstrap, "--crawl-id", crawlId, "--partitions", "6",
        "--out", out.toString(), "--dns", "127.0.0.1:" + web.dnsServer().getPort(), "--allow-private", "--scope", "any",
        "--max-depth", String.valueOf(MAX_DEPTH), "--delay", delay.toMillis() + "ms", "--per-host", "1", "--per-ip", "4",
        "--max-in-flight", String.valueOf(maxInFlight), "--robots-retry", "300ms", "--robots-attempts", "2",
        "--progress", "off", "--fsync", "never"));
    cmd.addAll(web.seedUrls());
    return new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
        .start();
  }

  /**
   * @return the options of a node of crawl {@code crawlId} on {@code bootstrap}: topics created, a
   *     {@value #HANDOVER_SECONDS} s hand-over timeout
   */
  static ClusterCrawl.Options options(String bootstrap, String crawlId, PartitionBy partitionBy, int partitions,
      Duration connectTimeout) {
    return new ClusterCrawl.Options(List.of(bootstrap), crawlId, partitionBy, partitions, true, connectTimeout,
        Duration.ofSeconds(HANDOVER_SECONDS));
  }

  /**
   * Submits {@code count} in-process nodes of a crawl to {@code pool}: node i joins with the web's
   * {@link #fixed} settings and crawls it into {@code out.apply(i)}, its config adjusted by
   * {@code adjust}, at the host delay {@code delay}.
   *
   * @return each node's crawl
   */
  static List<Future<CrawlSummary>> runNodes(ExecutorService pool, int count, ClusterCrawl.Options o, TestWeb web,
      IntFunction<Path> out, UnaryOperator<CrawlConfig.Builder> adjust, Duration delay) {
    List<Future<CrawlSummary>> nodes = new java.util.ArrayList<>();
    for (int i = 0; i < count; i++) {
      Path dir = out.apply(i);
      nodes.add(pool.submit(() -> {
        ClusterCrawl node = ClusterCrawl.join(o, fixed(web.seedUrls()), System.err);
        return node.run(adjust.apply(config(web, node.outputDir(dir))).build(), delay);
      }));
    }
    return nodes;
  }

  /** Waits, at most {@code timeout}, until the web has answered {@code requests} requests (robots.txt included). */
  static void awaitRequests(TestWeb web, long requests, Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (web.accessLog().total() < requests && System.nanoTime() - deadline < 0) {
      Thread.sleep(20);
    }
  }

  static Map<String, String> fixed(List<String> seeds) {
    return Map.of("URL", String.join(" ", new TreeSet<>(seeds)), "--max-depth", String.valueOf(MAX_DEPTH));
  }
}
