package io.krill.loadtest.harness;

import io.krill.loadtest.internal.ChildProcess;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The crawler comparison of issue 6 on its benchmark web: testweb with {@link #HOSTS} hosts on
 * {@link #IPS} loopback addresses and {@link #LATENCY} of server latency per request, served by
 * its own JVM (with its DNS server), and one fresh crawler JVM per execution mode and round, same
 * flags, interleaved. Each crawl cell records pages/s (the crawl summary's), the crawler JVM's CPU
 * per page (user + system from /proc, JIT and GC included), its peak heap after GC (from its GC
 * log) and its peak work items in flight (the crawl summary's). In a full run, when {@code taskset}
 * is present and the machine has two CPUs or more, the web JVM runs on CPU 0 and the crawler on
 * CPU 1.
 *
 * <p>A full run then checks issue 6's last goal, 10,000 fetches in flight in one JVM: a second
 * web with {@link #IN_FLIGHT_HOSTS} hosts and {@link #IN_FLIGHT_LATENCY} per request, every host a
 * seed, crawled by fibers with {@code --max-in-flight} {@link #IN_FLIGHT_CAP}; its cell is the
 * variant {@value #IN_FLIGHT_VARIANT}. {@code --quick} shrinks both webs and crawls (CI's smoke
 * run) and checks in-flight with {@link #QUICK_IN_FLIGHT_HOSTS} hosts.
 */
final class CrawlScenario {
  /** Variant name to the crawl flags that select it, in interleaving order. */
  static final Map<String, List<String>> FLAGS = flags();
  /** The in-flight check's cell. */
  static final String IN_FLIGHT_VARIANT = "fibers-in-flight";
  /** Benchmark web: hosts, loopback addresses, per-request latency, pages per host, seeds. */
  static final int HOSTS = 5_000;
  static final int IPS = 16;
  static final String LATENCY = "50ms";
  static final int PAGES_PER_HOST = 4;
  static final int SEEDS = 50;
  /** Full run: pages per crawl and its time limit. */
  static final int MAX_PAGES = 12_000;
  static final String MAX_DURATION = "120s";
  /** Quick run: a small web and short crawls. */
  static final int QUICK_HOSTS = 40;
  static final int QUICK_IPS = 4;
  static final String QUICK_LATENCY = "5ms";
  static final int QUICK_MAX_PAGES = 120;
  static final String QUICK_MAX_DURATION = "30s";
  static final int QUICK_SEEDS = 10;
  /** In-flight check: hosts (each a seed), latency that keeps fetches open, the crawler's in-flight cap. */
  static final int IN_FLIGHT_HOSTS = 11_000;
  static final String IN_FLIGHT_LATENCY = "30s";
  static final int IN_FLIGHT_CAP = 10_500;
  static final int QUICK_IN_FLIGHT_HOSTS = 60;
  static final String QUICK_IN_FLIGHT_LATENCY = "300ms";
  /** Heap of the web JVMs (the benchmark web's ground truth and access log need more than a crawler). */
  static final String WEB_HEAP = "2g";
  static final String QUICK_WEB_HEAP = "256m";
  /** Longest wait for a web JVM to print its addresses (the ground truth of 11,000 hosts takes a while). */
  static final long WEB_START_SECONDS = 300;
  /** Longest a crawl JVM may take beyond its own --max-duration. */
  static final long CRAWL_GRACE_SECONDS = 120;

  private static final Pattern PAGES = Pattern.compile("([0-9]+) pages \\(([0-9.]+)/s\\)");
  private static final Pattern PEAK = Pattern.compile("in flight: peak ([0-9]+)");
  private static final Pattern GC_AFTER = Pattern.compile("[0-9]+[KMG]->([0-9]+)([KMG])\\(");

  private final RunSettings settings;
  private final PrintStream out;
  private final Path logs;
  /** Set by {@link #run}: how the JVMs were placed on CPUs, for the report. */
  static volatile String placement = "";
  private boolean pinned;

  CrawlScenario(RunSettings settings, PrintStream out, Path logs) {
    this.settings = settings;
    this.out = out;
    this.logs = logs;
  }

  private static Map<String, List<String>> flags() {
    Map<String, List<String>> m = new LinkedHashMap<>();
    m.put("fibers", List.of("--mode", "fibers"));
    m.put("threads-32", List.of("--mode", "threads", "--threads", "32"));
    m.put("threads-512", List.of("--mode", "threads", "--threads", "512"));
    m.put("virtual", List.of("--mode", "virtual"));
    m.put("naive-fibers", List.of("--mode", "fibers", "--naive"));
    m.put("naive-threads", List.of("--mode", "threads", "--naive"));
    return java.util.Collections.unmodifiableMap(m);
  }

  /** @return {@code taskset -c N} when the web and crawler can be pinned apart, else nothing */
  static List<String> pin(int cpu) {
    if (io.krill.loadtest.internal.Reports.cpus() < 2) {
      return List.of();
    }
    for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(File.pathSeparator)) {
      if (new File(dir, "taskset").canExecute()) {
        return List.of(new File(dir, "taskset").getPath(), "-c", String.valueOf(cpu));
      }
    }
    return List.of();
  }

  List<Cell> run(Scenario s) throws InterruptedException {
    List<Cell> cells = new ArrayList<>();
    List<String> variants = settings.variants(s);
    pinned = !settings.quick && !pin(0).isEmpty();
    placement = !pinned ? "web and crawler JVMs share every CPU (" + (settings.quick ? "quick run" : "no taskset, or one CPU") + ")"
        : "web JVM pinned to CPU 0, crawler JVMs to CPU 1 (taskset)";
    out.println("crawl: " + placement);
    try (Web web = startWeb("web", settings.quick ? QUICK_HOSTS : HOSTS, settings.quick ? QUICK_IPS : IPS,
        settings.quick ? QUICK_LATENCY : LATENCY, PAGES_PER_HOST, settings.quick ? QUICK_SEEDS : SEEDS)) {
      for (int round = 1; round <= settings.rounds; round++) {
        for (String variant : variants) {
          Cell c = new Cell(s.name, variant, 0, round);
          if (variant.equals("virtual") && settings.javaFeature < 21) {
            c.skipped = "skipped (needs JDK 21+)";
            cells.add(c);
            report(c);
            continue;
          }
          crawl(c, web, FLAGS.get(variant), settings.quick ? QUICK_MAX_PAGES : MAX_PAGES,
              settings.quick ? QUICK_MAX_DURATION : MAX_DURATION);
          cells.add(c);
          report(c);
        }
      }
    } catch (IOException e) {
      Cell c = new Cell(s.name, variants.get(0), 0, 1);
      c.error = e.getMessage();
      cells.add(c);
      report(c);
    }
    cells.add(inFlight(s));
    return cells;
  }

  private void report(Cell c) {
    out.println("crawl round " + c.round + " " + c.variant + ": " + LoadtestRun.summary(c)
        + (Double.isNaN(c.pagesPerSecond) ? "" : String.format(java.util.Locale.ROOT,
            " %.1f pages/s, %.2f ms CPU/page, peak heap %s MiB, peak in flight %d", c.pagesPerSecond,
            c.cpuMsPerPage, Double.isNaN(c.peakHeapMiB) ? "?" : String.format(java.util.Locale.ROOT, "%.0f", c.peakHeapMiB),
            c.peakInFlight)));
  }

  /* Issue 6's 10,000 fetches in flight: every host a seed, slow answers, the in-flight cap raised. */
  private Cell inFlight(Scenario s) throws InterruptedException {
    Cell c = new Cell(s.name, IN_FLIGHT_VARIANT, 0, 1);
    int hosts = settings.quick ? QUICK_IN_FLIGHT_HOSTS : IN_FLIGHT_HOSTS;
    try (Web web = startWeb("web-in-flight", hosts, IPS, settings.quick ? QUICK_IN_FLIGHT_LATENCY : IN_FLIGHT_LATENCY, 1, hosts)) {
      List<String> flags = new ArrayList<>(FLAGS.get("fibers"));
      flags.addAll(List.of("--max-in-flight", String.valueOf(settings.quick ? hosts : IN_FLIGHT_CAP),
          "--connect-timeout", "60s", "--read-timeout", "60s", "--total-timeout", "120s", "--min-rate", "0"));
      crawl(c, web, flags, 2 * hosts, settings.quick ? "40s" : "100s");
    } catch (IOException e) {
      c.error = e.getMessage();
    }
    report(c);
    return c;
  }

  /** A running testweb JVM: its HTTP port, DNS address and seeds file. */
  private static final class Web implements AutoCloseable {
    final ChildProcess process;
    String dns;
    Path seeds;

    Web(ChildProcess process) {
      this.process = process;
    }

    @Override
    public void close() {
      process.stop(5);
    }
  }

  private Web startWeb(String name, int hosts, int ips, String latency, int pagesPerHost, int seeds)
      throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>(pinned ? pin(0) : List.of());
    cmd.addAll(jvm(settings.quick ? QUICK_WEB_HEAP : WEB_HEAP));
    cmd.addAll(List.of(CrawlChild.class.getName(), "testweb", "--hosts", String.valueOf(hosts), "--ips",
        String.valueOf(ips), "--latency", latency, "--crawl-delay", "0", "--pages-per-host", String.valueOf(pagesPerHost),
        "--robots-error-rate", "0", "--slow-drip-rate", "0", "--seeds", String.valueOf(seeds), "--duration", "3h"));
    Web web = new Web(new ChildProcess(name, cmd, logs.resolve(name + ".log"), null));
    try {
      web.process.await(WEB_START_SECONDS, TimeUnit.SECONDS, "krill testweb:");
      web.dns = web.process.await(WEB_START_SECONDS, TimeUnit.SECONDS, "dns:").replaceFirst("^dns:\\s*", "").split(" ")[0];
      String seedLine = web.process.await(WEB_START_SECONDS, TimeUnit.SECONDS, "seeds:").replaceFirst("^seeds:\\s*", "");
      web.seeds = logs.resolve(name + "-seeds.txt");
      Files.write(web.seeds, Arrays.asList(seedLine.trim().split("\\s+")), StandardCharsets.UTF_8);
      web.process.await(WEB_START_SECONDS, TimeUnit.SECONDS, "serving");
      return web;
    } catch (IOException | RuntimeException e) {
      web.close();
      throw e;
    }
  }

  private List<String> jvm(String heap) {
    List<String> cmd = new ArrayList<>(List.of(settings.java(), "-Xms" + heap, "-Xmx" + heap,
        "-Dkrill.fibers.track=false", "-XX:+UseG1GC"));
    cmd.addAll(settings.childJvmOptions);
    cmd.addAll(List.of("-cp", settings.classpath));
    return cmd;
  }

  private void crawl(Cell c, Web web, List<String> modeFlags, int maxPages, String maxDuration)
      throws InterruptedException {
    String tag = "crawl-" + c.variant + "-" + c.round;
    Path gcLog = logs.resolve(tag + "-gc.log");
    List<String> cmd = new ArrayList<>(pinned ? pin(1) : List.of());
    cmd.addAll(jvm(settings.heap));
    cmd.add(cmd.size() - 2, "-Xlog:gc:file=" + gcLog);
    cmd.addAll(List.of(CrawlChild.class.getName(), "crawl", "--dns", web.dns, "--allow-private", "--scope", "any",
        "--max-depth", "8", "--max-pages", String.valueOf(maxPages), "--max-duration", maxDuration, "--delay", "0ms",
        "--per-ip", "100000", "--per-host", "1", "--progress", "off", "--fsync", "never", "--out",
        logs.resolve(tag).toString(), "--seeds", web.seeds.toString()));
    cmd.addAll(modeFlags);
    long limit = Long.parseLong(maxDuration.replaceFirst("s$", "")) + CRAWL_GRACE_SECONDS;
    try (ChildProcess p = new ChildProcess(tag, cmd, logs.resolve(tag + ".log"), null)) {
      long[] cpu = {0};
      Thread sampler = new Thread(() -> {
        while (p.isAlive()) {
          long n = p.cpuNanos();
          if (n >= 0) {
            cpu[0] = n;
          }
          try {
            Thread.sleep(100);
          } catch (InterruptedException e) {
            return;
          }
        }
      }, "cpu " + tag);
      sampler.setDaemon(true);
      sampler.start();
      String summary = p.await(limit, TimeUnit.SECONDS, "crawl ");
      Matcher m = PAGES.matcher(summary);
      if (!m.find()) {
        c.error = "no 'N pages (P/s)' in the crawl summary: " + summary;
        return;
      }
      long pages = Long.parseLong(m.group(1));
      if (pages == 0) {
        c.error = "the crawl fetched no page: " + summary + " (see " + logs.resolve(tag) + "/crawl.jsonl)";
        return;
      }
      c.pagesPerSecond = Double.parseDouble(m.group(2));
      Matcher peak = PEAK.matcher(p.await(30, TimeUnit.SECONDS, "  in flight:"));
      c.peakInFlight = peak.find() ? Integer.parseInt(peak.group(1)) : 0;
      p.process.waitFor(30, TimeUnit.SECONDS);
      sampler.interrupt();
      sampler.join();
      c.cpuMsPerPage = pages == 0 ? Double.NaN : cpu[0] / 1e6 / pages;
      c.peakHeapMiB = peakHeapAfterGc(gcLog);
      keepOnlySummary(logs.resolve(tag)); // the WARC, JSONL and journal of a measured crawl: ~35 MB each
    } catch (IOException | RuntimeException e) {
      c.error = e.getMessage();
    }
  }

  /**
   * Deletes a finished crawl's output directory except its {@code summary.json}. A failed crawl
   * keeps everything for its report's pointer.
   */
  static void keepOnlySummary(Path dir) throws IOException {
    if (!Files.isDirectory(dir)) {
      return;
    }
    List<Path> paths;
    try (java.util.stream.Stream<Path> walk = Files.walk(dir)) {
      paths = walk.sorted(java.util.Comparator.reverseOrder()).collect(java.util.stream.Collectors.toList());
    }
    for (Path p : paths) {
      if (!p.equals(dir) && !p.equals(dir.resolve("summary.json"))) {
        Files.deleteIfExists(p);
      }
    }
  }

  /** @return the largest heap after a collection in a {@code -Xlog:gc} file, in MiB, or NaN if none */
  static double peakHeapAfterGc(Path gcLog) {
    double best = Double.NaN;
    try {
      for (String line : Files.readAllLines(gcLog, StandardCharsets.UTF_8)) {
        Matcher m = GC_AFTER.matcher(line);
        if (m.find()) {
          double v = Double.parseDouble(m.group(1));
          v = m.group(2).equals("K") ? v / 1024 : m.group(2).equals("G") ? v * 1024 : v;
          best = Double.isNaN(best) ? v : Math.max(best, v);
        }
      }
    } catch (IOException e) {
      return Double.NaN;
    }
    return best;
  }
}
