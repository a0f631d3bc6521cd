package io.krill.crawler.cluster;

import io.krill.broker.KafkaBroker;
import io.krill.crawler.CrawlConfig;
import io.krill.crawler.CrawlSummary;
import io.krill.crawler.Crawler;
import io.krill.testweb.AccessLog;
import io.krill.testweb.TestWeb;
import io.krill.testweb.TestWebConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.LogDirDescription;
import org.apache.kafka.clients.admin.ReplicaInfo;

/**
 * The cluster's measurements (a program, not a test; the machine's load decides the numbers):
 * {@code scale} (3 nodes vs 1, each --max-in-flight 50, 300 hosts with 200 ms latency), {@code
 * cost} (one Kafka node vs one plain node, and bytes in Kafka per page) and {@code kill} (runs
 * that kill a random node at a random moment: pages lost, extra fetches, host overlaps).
 * Usage: {@code ClusterBenchmark scale|cost|kill|all [rounds] [results-file]}; runs alternate A B
 * B A (kill: {@code rounds} runs, 5 with {@code all}). Every result line is printed and appended to
 * the results file with the machine's load before and after; {@code bin/cluster-benchmark} builds
 * and runs it in one command.
 */
public final class ClusterBenchmark {
  private static final int MAX_IN_FLIGHT = 50;
  /* Nodes wait up to 30 s for the broker, as the failover tests' nodes do. */
  private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(30);
  private static java.io.PrintWriter results;

  private ClusterBenchmark() {}

  public static void main(String[] args) throws Exception {
    String what = args.length > 0 ? args[0] : "scale";
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 2;
    Path file = args.length > 2 ? Path.of(args[2]) : null;
    Path tmp = Files.createTempDirectory("krill-cluster-bench");
    if (file != null) {
      results = new java.io.PrintWriter(Files.newBufferedWriter(file, java.nio.charset.StandardCharsets.UTF_8,
          java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND), true);
    }
    report(String.format(Locale.ROOT, "# ClusterBenchmark %s %d, %s, Java %s, %d CPUs, load average %s", what, rounds,
        java.time.Instant.now(), System.getProperty("java.version"), Runtime.getRuntime().availableProcessors(), load()));
    try (KafkaBroker broker = KafkaBroker.start(tmp.resolve("broker"), 0)) {
      switch (what) {
        case "scale" -> scale(broker, tmp, rounds);
        case "cost" -> cost(broker, tmp, rounds);
        case "kill" -> kill(tmp, rounds);
        case "all" -> {
          scale(broker, tmp, rounds);
          cost(broker, tmp, rounds);
          kill(tmp, 5);
        }
        default -> throw new IllegalArgumentException("what: " + what + " (expected: scale, cost, kill or all)");
      }
    }
    report("# done, load average " + load());
    if (results != null) {
      results.close();
    }
    System.exit(0);
  }

  /* A result line: on the console and in the results file. */
  private static void report(String line) {
    System.out.println(line);
    if (results != null) {
      results.println(line);
    }
  }

  private static String load() {
    try {
      return Files.readString(Path.of("/proc/loadavg")).trim();
    } catch (java.io.IOException e) {
      return "unknown";
    }
  }

  private static TestWeb bigWeb() throws Exception {
    return TestWeb.start(TestWebConfig.builder().hosts(300).ips(16).pagesPerHost(20).latency(Duration.ofMillis(200))
        .crawlDelay(Duration.ZERO).calendarHosts(0).sessionIdHosts(0).deepPathHosts(0).gzipBombHosts(0)
        .redirectLoopHosts(0).slowDripRate(0).dnsTimeoutHosts(0).throttleRate(0).build());
  }

  private static CrawlConfig.Builder config(TestWeb web, Path out) {
    return ClusterWeb.config(web, out).delay(Duration.ofMillis(10)).perIp(1000).maxInFlight(MAX_IN_FLIGHT);
  }

  /** Pages per second over the middle 80% of the requests (start-up and the termination wait left out). */
  static double steadyRate(TestWeb web) {
    List<Long> starts = new ArrayList<>();
    for (AccessLog.Entry e : web.accessLog().entries()) {
      starts.add(e.startNanos());
    }
    starts.sort(null);
    int lo = starts.size() / 10;
    int hi = starts.size() * 9 / 10;
    return (hi - lo) / ((starts.get(hi) - starts.get(lo)) / 1e9);
  }

  private static long nodes(KafkaBroker broker, TestWeb web, Path out, String crawlId, int n) throws Exception {
    ClusterCrawl.Options o = ClusterWeb.options(broker.bootstrap(), crawlId, PartitionBy.HOST, 12, CONNECT_TIMEOUT);
    ExecutorService pool = Executors.newFixedThreadPool(n);
    List<ClusterCrawl> joined = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      joined.add(ClusterCrawl.join(o, ClusterWeb.fixed(web.seedUrls()), System.err));
    }
    List<Future<CrawlSummary>> runs = new ArrayList<>();
    for (ClusterCrawl node : joined) {
      runs.add(pool.submit(() -> node.run(config(web, node.outputDir(out)).build(), Duration.ofMillis(10))));
    }
    long pages = 0;
    for (Future<CrawlSummary> f : runs) {
      pages += f.get().pages();
    }
    pool.shutdown();
    return pages;
  }

  private static void scale(KafkaBroker broker, Path tmp, int rounds) throws Exception {
    int run = 0;
    for (int r = 0; r < rounds; r++) {
      for (int n : r % 2 == 0 ? new int[] {1, 3} : new int[] {3, 1}) {
        try (TestWeb web = bigWeb()) {
          long t0 = System.nanoTime();
          long pages = nodes(broker, web, tmp.resolve("s" + run), "scale" + run, n);
          double wall = (System.nanoTime() - t0) / 1e9;
          report(String.format(Locale.ROOT, "scale nodes=%d pages=%d requests=%d steady=%.1f pages/s wall=%.1fs load=%s", n,
              pages, web.accessLog().total(), steadyRate(web), wall, load()));
          run++;
        }
      }
    }
  }

  private static void cost(KafkaBroker broker, Path tmp, int rounds) throws Exception {
    int run = 0;
    for (int r = 0; r < rounds; r++) {
      for (boolean kafka : r % 2 == 0 ? new boolean[] {false, true} : new boolean[] {true, false}) {
        try (TestWeb web = bigWeb()) {
          long pages;
          if (kafka) {
            pages = nodes(broker, web, tmp.resolve("c" + run), "cost" + run, 1);
          } else {
            pages = Crawler.create(config(web, tmp.resolve("c" + run)).build()).run().pages();
          }
          String bytes = kafka ? String.format(Locale.ROOT, " sent-bytes/page=%.0f disk-bytes/page=%.0f",
              sentBytes(broker, "cost" + run) / (double) pages, topicBytes(broker, "cost" + run) / (double) pages) : "";
          report(String.format(Locale.ROOT, "cost %s pages=%d steady=%.1f pages/s%s load=%s", kafka ? "kafka-node" : "plain-node",
              pages, steadyRate(web), bytes, load()));
          run++;
        }
      }
    }
  }

  /* Keys and values the nodes sent to Kafka, as their last statuses say. */
  private static long sentBytes(KafkaBroker broker, String crawlId) throws Exception {
    ClusterCrawl.Options o = ClusterWeb.options(broker.bootstrap(), crawlId, PartitionBy.HOST, 12, CONNECT_TIMEOUT);
    return ClusterCrawl.statuses(o).values().stream().mapToLong(NodeStatus::bytesSent).sum();
  }

  /* The crawl's topics on disk (record batches with their headers), all partitions. */
  private static long topicBytes(KafkaBroker broker, String crawlId) throws Exception {
    try (Admin admin = Admin.create(Map.of("bootstrap.servers", broker.bootstrap()))) {
      long sum = 0;
      for (Map<String, LogDirDescription> dirs : admin.describeLogDirs(List.of(1)).allDescriptions().get().values()) {
        for (LogDirDescription d : dirs.values()) {
          for (Map.Entry<org.apache.kafka.common.TopicPartition, ReplicaInfo> e : d.replicaInfos().entrySet()) {
            if (e.getKey().topic().startsWith("krill-" + crawlId + "-")) {
              sum += e.getValue().size();
            }
          }
        }
      }
      return sum;
    }
  }

  private static void kill(Path tmp, int rounds) throws Exception {
    Random random = new Random(20261125);
    Duration delay = Duration.ofMillis(150);
    for (int run = 0; run < rounds; run++) {
      try (TestWeb web = ClusterWeb.start(16, 16, Duration.ofMillis(20));
          io.krill.broker.BrokerProcess broker = io.krill.broker.BrokerProcess.start(tmp.resolve("kb" + run), 0)) {
        Crawler.create(ClusterWeb.config(web, tmp.resolve("ks" + run)).delay(delay).build()).run();
        Map<String, Integer> single = ClusterWeb.requests(web);
        web.accessLog().clear();
        List<Process> nodes = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
          nodes.add(ClusterWeb.startNode(web, broker.bootstrap(), "kill" + run, tmp.resolve("ko" + run), delay, 8,
              tmp.resolve("k" + run + "-" + i + ".log")));
        }
        int victim = random.nextInt(3);
        double at = 0.2 + random.nextDouble() * 0.5;
        ClusterWeb.awaitRequests(web, (long) Math.ceil(single.size() * at), Duration.ofSeconds(120));
        nodes.get(victim).destroyForcibly().waitFor();
        for (int i = 0; i < 3; i++) {
          if (i != victim) {
            nodes.get(i).waitFor(300, TimeUnit.SECONDS);
          }
        }
        Map<String, Integer> cluster = ClusterWeb.requests(web);
        long lost = single.keySet().stream().filter(u -> !cluster.containsKey(u)).count();
        long extra = 0;
        for (Map.Entry<String, Integer> e : cluster.entrySet()) {
          extra += Math.max(0, e.getValue() - single.getOrDefault(e.getKey(), 0));
        }
        long overlaps = web.accessLog().maxInFlightByHost().values().stream().filter(n -> n > 1).count();
        long shortGaps = web.accessLog().minGapByHost().values().stream().filter(g -> g.compareTo(delay) < 0).count();
        report(String.format(Locale.ROOT, "kill run=%d victim=%d at=%.0f%% pages=%d lost=%d extra-fetches=%d (cap 8)"
            + " host-overlaps=%d hosts-under-delay=%d load=%s", run, victim, at * 100, single.size(), lost, extra, overlaps,
            shortGaps, load()));
      }
    }
  }
}
