package io.krill.loadtest.harness;

import io.krill.config.JvmOptions;
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
 * The crawler comparison on its benchmark web: testweb with {@link #HOSTS} hosts on
 * {@link #IPS} loopback addresses and {@link #LATENCY} of server latency per request, served by
 * its own JVM (with its DNS server), and one fresh crawler JVM per execution mode and round, same
 * flags, interleaved. Each crawl runs for {@link #MAX_DURATION} and prints a progress line every
 * second, which the scenario reads as it comes. A cell records:
 * <ul>
 *   <li>warm pages/s, the headline: pages committed between the first progress line at or after
 *       {@link #WARM_UP_SECONDS} (or a third of the crawl, when it ends before
 *       {@link #MIN_WARM_WINDOW_SECONDS} past it) and the last one, over that time. On one CPU the crawler's C2
 *       compilers take about a third of it for the first 80–90 s (measured: a fibers crawl spent
 *       33 s of CPU in C2, 30 of them before second 90), so the whole-crawl rate mostly measures
 *       JIT warm-up; a production crawl runs for hours;</li>
 *   <li>the whole crawl's pages/s (the crawl summary's), JIT warm-up included;</li>
 *   <li>the crawler JVM's CPU per page over the warm window and over the whole crawl (user +
 *       system from /proc, JIT and GC included);</li>
 *   <li>its live heap: after a full collection ({@code jcmd GC.run}) requested when the progress
 *       line first shows {@link #HEAP_AT_PAGES} pages, so every mode is weighed at the same
 *       progress, and its peak heap after any collection (from its GC log);</li>
 *   <li>its peak work items in flight (the crawl summary's).</li>
 * </ul>
 * In a full run, when {@code taskset} is present and the machine has two CPUs or more, the web
 * JVM runs on CPU 0 and the crawler on CPU 1.
 *
 * <p>A full run then checks the crawler's last goal, 10,000 fetches in flight in one JVM: a second
 * web with {@link #IN_FLIGHT_HOSTS} hosts and {@link #IN_FLIGHT_LATENCY} per request, every host a
 * seed, crawled by fibers with {@code --max-in-flight} {@link #IN_FLIGHT_CAP}; its cell is the
 * variant {@value #IN_FLIGHT_VARIANT}. {@code --quick} shrinks both webs and crawls (CI's smoke
 * run) and checks in-flight with {@link #QUICK_IN_FLIGHT_HOSTS} hosts.
 *
 * <p>{@code --console-tabs N} adds {@link #CONSOLE_VARIANT}: the fibers crawl with its web console
 * and N WebSocket clients reading every snapshot, interleaved with plain fibers, so the report
 * shows pages/s with and without the console beside the round-to-round spread.
 */
final class CrawlScenario {
  /** Variant name to the crawl flags that select it, in interleaving order. */
  static final Map<String, List<String>> FLAGS = flags();
  /** The in-flight check's cell. */
  static final String IN_FLIGHT_VARIANT = "fibers-in-flight";
  /**
   * With {@code --console-tabs N}: the fibers crawl with {@code --console} and N tabs reading it,
   * interleaved right after plain fibers in every round.
   */
  static final String CONSOLE_VARIANT = "fibers-console";
  /** The line where a crawl prints its console's address. */
  private static final Pattern CONSOLE_AT = Pattern.compile("^krill crawl: console at (http://\\S+/) ");
  /** Benchmark web: hosts, loopback addresses, per-request latency, pages per host, seeds. */
  static final int HOSTS = 5_000;
  static final int IPS = 16;
  static final String LATENCY = "50ms";
  static final int PAGES_PER_HOST = 40;
  static final int SEEDS = 50;
  /**
   * Full run: the page limit (above what any mode reaches, so every crawl runs for its time
   * limit) and the time limit of each crawl.
   */
  static final int MAX_PAGES = 1_000_000;
  static final String MAX_DURATION = "150s";
  /** Full run: the warm window starts at the first progress line at or after this second. */
  static final int WARM_UP_SECONDS = 90;
  /**
   * Full run: a crawl that does not run this long past {@link #WARM_UP_SECONDS} (it fetched the
   * whole web first) is measured from a third of its length instead.
   */
  static final int MIN_WARM_WINDOW_SECONDS = 30;
  /** Full run: the live heap is weighed (full GC) when this many pages are done. */
  static final int HEAP_AT_PAGES = 20_000;
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
  /** A plain progress line: {@code [   12s] pages 3456 (288.0/s), ...}. */
  static final Pattern PROGRESS = Pattern.compile("^\\[\\s*([0-9]+)s\\] pages ([0-9]+) ");
  private static final Pattern FULL_GC = Pattern.compile(
      "Pause Full \\((?:Diagnostic Command|System.gc\\(\\))\\) [0-9]+[KMG]->([0-9]+)([KMG])\\(");
  private static final Pattern GC_AFTER = Pattern.compile("[0-9]+[KMG]->([0-9]+)([KMG])\\(");

  private final RunSettings settings;
  private final PrintStream out;
  private final Path logs;
  /** Set by {@link #run}: how the JVMs were placed on CPUs, for the report. */
  static volatile String placement = "";
  private boolean pinned;
  /* taskset's path when pinned. */
  private String taskset;
  /* The CPUs the harness ran on before it moved to CPU 0; null while it is not moved. */
  private String harnessCpus;

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

  /*
   * Moves every thread of this JVM (the harness: it reads the crawls' progress and, with
   * --console-tabs, is the browser reading the console) to CPU 0, beside the web, so that the
   * crawler's CPU is the crawler's alone: a browser does not run on the crawl's CPU either.
   * restoreHarness() gives it back its CPUs when the scenario ends (later children inherit them).
   */
  private String pinHarness() {
    harnessCpus = allowedCpus();
    if (harnessCpus == null) {
      return ", the harness unpinned (no Cpus_allowed_list in /proc/self/status)";
    }
    return setHarnessCpus("0") ? ", the harness (and its console tabs) to CPU 0" : ", the harness unpinned (taskset -a -p failed)";
  }

  private void restoreHarness() {
    if (harnessCpus != null && !setHarnessCpus(harnessCpus)) {
      out.println("crawl: could not give the harness back CPUs " + harnessCpus + " (taskset -a -p failed)");
    }
    harnessCpus = null;
  }

  /** @return the CPUs this process may run on, as a taskset list ({@code 0-1}), or null if unknown */
  static String allowedCpus() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/self/status"), StandardCharsets.UTF_8)) {
        if (line.startsWith("Cpus_allowed_list:")) {
          return line.substring(line.indexOf(':') + 1).trim();
        }
      }
    } catch (IOException e) {
      return null;
    }
    return null;
  }

  private boolean setHarnessCpus(String cpus) {
    return moveThisJvm(taskset, cpus);
  }

  /**
   * Moves every thread of this JVM to {@code cpus} ({@code taskset -a -p -c CPUS PID}); threads
   * started later, and child processes, inherit it. The JVM then counts only those CPUs
   * ({@code availableProcessors}).
   *
   * @return true if taskset did it
   */
  static boolean moveThisJvm(String taskset, String cpus) {
    List<String> cmd = List.of(taskset, "-a", "-p", "-c", cpus, String.valueOf(ProcessHandle.current().pid()));
    try {
      Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
      return p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  List<Cell> run(Scenario s) throws InterruptedException {
    List<String> variants = withConsole(settings.variants(s), settings.consoleTabs);
    // taskset's path is found before the harness moves to CPU 0: the JVM then sees one CPU, and pin() nothing
    List<String> cpu0 = pin(0);
    pinned = !settings.quick && !cpu0.isEmpty();
    taskset = pinned ? cpu0.get(0) : null;
    placement = !pinned ? "web and crawler JVMs share every CPU (" + (settings.quick ? "quick run" : "no taskset, or one CPU") + ")"
        : "web JVM pinned to CPU 0, crawler JVMs to CPU 1 (taskset)" + pinHarness();
    out.println("crawl: " + placement);
    try {
      List<Cell> cells = rounds(s, variants);
      cells.add(inFlight(s));
      return cells;
    } finally {
      restoreHarness();
    }
  }

  private List<Cell> rounds(Scenario s, List<String> variants) throws InterruptedException {
    List<Cell> cells = new ArrayList<>();
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
          crawl(c, web, flagsOf(variant), settings.quick ? QUICK_MAX_PAGES : MAX_PAGES,
              settings.quick ? QUICK_MAX_DURATION : MAX_DURATION);
          cells.add(c);
          report(c);
        }
      }
    } catch (IOException e) {
      Cell c = new Cell(s.name, variants.get(0), 0, 1);
      c.fail(e);
      cells.add(c);
      report(c);
    }
    return cells;
  }


  /** @return the variants, with {@link #CONSOLE_VARIANT} right after fibers when tabs are asked for */
  static List<String> withConsole(List<String> variants, int tabs) {
    if (tabs == 0) {
      return variants;
    }
    List<String> v = new ArrayList<>(variants);
    if (!v.contains("fibers")) {
      v.add(0, "fibers"); // the reference the console's cost is measured against
    }
    v.add(v.indexOf("fibers") + 1, CONSOLE_VARIANT);
    return v;
  }

  /** @return the crawl flags of a variant */
  static List<String> flagsOf(String variant) {
    if (variant.equals(CONSOLE_VARIANT)) {
      List<String> f = new ArrayList<>(FLAGS.get("fibers"));
      f.addAll(List.of("--console", "127.0.0.1:0"));
      return f;
    }
    return FLAGS.get(variant);
  }

  private void report(Cell c) {
    out.println("crawl round " + c.round + " " + c.variant + ": " + LoadtestRun.summary(c)
        + (Double.isNaN(c.pagesPerSecond) ? "" : String.format(java.util.Locale.ROOT,
            " warm%s %.1f pages/s (whole crawl %.1f), warm %.2f ms CPU/page (whole %.2f), live heap %s MiB, peak heap %s MiB,"
            + " peak in flight %d", c.warmFromSecond < 0 ? "" : " (from second " + c.warmFromSecond + ")", c.pagesPerSecond, c.crawlPagesPerSecond, c.cpuMsPerPage, c.crawlCpuMsPerPage,
            mib(c.liveHeapMiB), mib(c.peakHeapMiB), c.peakInFlight)));
  }

  private static String mib(double v) {
    return Double.isNaN(v) ? "?" : String.format(java.util.Locale.ROOT, "%.0f", v);
  }

  /* The crawler's goal of 10,000 fetches in flight: every host a seed, slow answers, the in-flight cap raised. */
  private Cell inFlight(Scenario s) throws InterruptedException {
    Cell c = new Cell(s.name, IN_FLIGHT_VARIANT, 0, 1);
    int hosts = settings.quick ? QUICK_IN_FLIGHT_HOSTS : IN_FLIGHT_HOSTS;
    try (Web web = startWeb("web-in-flight", hosts, IPS, settings.quick ? QUICK_IN_FLIGHT_LATENCY : IN_FLIGHT_LATENCY, 1, hosts)) {
      List<String> flags = new ArrayList<>(FLAGS.get("fibers"));
      flags.addAll(List.of("--max-in-flight", String.valueOf(settings.quick ? hosts : IN_FLIGHT_CAP),
          "--connect-timeout", "60s", "--read-timeout", "60s", "--total-timeout", "120s", "--min-rate", "0"));
      crawl(c, web, flags, 2 * hosts, settings.quick ? "40s" : "100s");
    } catch (IOException e) {
      c.fail(e);
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
    List<String> cmd = new ArrayList<>(pinned ? List.of(taskset, "-c", "0") : List.of());
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
    cmd.addAll(JvmOptions.forJdk(settings.javaFeature)); // as every load-test child
    cmd.addAll(settings.childJvmOptions);
    cmd.addAll(List.of("-cp", settings.classpath));
    return cmd;
  }

  private void crawl(Cell c, Web web, List<String> modeFlags, int maxPages, String maxDuration)
      throws InterruptedException {
    String tag = "crawl-" + c.variant + "-" + c.round;
    Path gcLog = logs.resolve(tag + "-gc.log");
    List<String> cmd = new ArrayList<>(pinned ? List.of(taskset, "-c", "1") : List.of());
    cmd.addAll(jvm(settings.heap));
    cmd.add(cmd.size() - 2, "-Xlog:gc:file=" + gcLog);
    cmd.addAll(List.of(CrawlChild.class.getName(), "crawl", "--dns", web.dns, "--allow-private", "--scope", "any",
        "--max-depth", "8", "--max-pages", String.valueOf(maxPages), "--max-duration", maxDuration, "--delay", "0ms",
        "--per-ip", "100000", "--per-host", "1", "--progress", "plain", "--progress-interval", "1s", "--fsync", "never",
        "--out", logs.resolve(tag).toString(), "--seeds", web.seeds.toString()));
    cmd.addAll(modeFlags);
    // The in-flight check is about holding fetches, not speed: its whole crawl is its figure.
    boolean whole = settings.quick || c.variant.equals(IN_FLIGHT_VARIANT);
    int heapAt = whole ? 0 : HEAP_AT_PAGES;
    long limit = Long.parseLong(maxDuration.replaceFirst("s$", "")) + CRAWL_GRACE_SECONDS;
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(limit);
    ConsoleTabs tabs = null;
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
      Window w = new Window(whole ? Integer.MAX_VALUE : WARM_UP_SECONDS);
      boolean weighed = heapAt == 0;
      String summary;
      for (;;) {
        long left = Math.max(1, TimeUnit.NANOSECONDS.toSeconds(deadline - System.nanoTime()));
        String line = p.await(left, TimeUnit.SECONDS, "[", "crawl ", "krill crawl: console at");
        if (line.startsWith("crawl ")) {
          summary = line;
          break;
        }
        Matcher console = CONSOLE_AT.matcher(line);
        if (console.find() && tabs == null) {
          tabs = ConsoleTabs.open(java.net.URI.create(console.group(1)), settings.consoleTabs);
        }
        Matcher progress = PROGRESS.matcher(line);
        if (progress.find()) {
          long pages = Long.parseLong(progress.group(2));
          w.add(Integer.parseInt(progress.group(1)), pages, p.cpuNanos());
          if (!weighed && pages >= heapAt) {
            weighed = true;
            fullGc(p);
          }
        }
      }
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
      c.crawlPagesPerSecond = Double.parseDouble(m.group(2));
      Matcher peak = PEAK.matcher(p.await(30, TimeUnit.SECONDS, "  in flight:"));
      c.peakInFlight = peak.find() ? Integer.parseInt(peak.group(1)) : 0;
      p.process.waitFor(30, TimeUnit.SECONDS);
      sampler.interrupt();
      sampler.join();
      c.crawlCpuMsPerPage = cpu[0] / 1e6 / pages;
      if (whole) {
        c.pagesPerSecond = c.crawlPagesPerSecond;
        c.cpuMsPerPage = c.crawlCpuMsPerPage;
      } else if (w.measured()) {
        c.warmFromSecond = w.fromSecond();
        c.pagesPerSecond = w.pagesPerSecond();
        c.cpuMsPerPage = w.cpuMsPerPage();
      } else {
        c.error = "the crawl made no progress to measure after second " + w.fromSecond() + ": " + summary;
      }
      c.peakHeapMiB = peakHeapAfterGc(gcLog);
      c.liveHeapMiB = heapAfterFullGc(gcLog);
      if (heapAt > 0 && Double.isNaN(c.liveHeapMiB)) {
        // The rate stands; only the live heap is missing (the heap goal then says "not measured").
        out.println("crawl: no requested full collection in " + gcLog + " (the crawl never reached " + heapAt
            + " pages, or jcmd failed)");
      }
      keepOnlySummary(logs.resolve(tag)); // the WARC, JSONL and journal of a measured crawl: hundreds of MB each
    } catch (IOException | RuntimeException e) {
      c.fail(e);
    } finally {
      if (tabs != null) {
        tabs.close();
        // the tabs read: they are not idle sockets
        out.println("crawl round " + c.round + " " + c.variant + ": " + settings.consoleTabs + " console tabs read "
            + tabs.messages() + " snapshots, " + tabs.chars() + " characters");
      }
    }
    if (c.variant.equals(CONSOLE_VARIANT) && c.error == null && tabs == null) {
      c.error = "the crawl printed no console address";
    }
  }

  /**
   * The warm window of a crawl: from the first progress point at or after the warm-up to the
   * last one seen, each with its pages done and the JVM's CPU time. The warm-up is
   * {@link #WARM_UP_SECONDS} when the crawl runs at least {@link #MIN_WARM_WINDOW_SECONDS} past
   * it; a crawl that ends sooner (a fast crawler fetches the whole web before second 90) is
   * measured over its last two thirds, so a quick machine still gets a figure. The window's start
   * is reported beside the rate.
   */
  static final class Window {
    private final int warmUp;
    private final List<long[]> points = new ArrayList<>();

    Window(int warmUpSeconds) {
      this.warmUp = warmUpSeconds;
    }

    /** Records a progress line: elapsed seconds, pages done, CPU nanoseconds (or -1). */
    void add(int second, long pages, long cpuNanos) {
      points.add(new long[] {second, pages, cpuNanos});
    }

    /**
     * @return the second the window starts from: the warm-up, or a third of a crawl too short for
     *     it (if that is sooner)
     */
    int fromSecond() {
      if (points.isEmpty()) {
        return warmUp;
      }
      long last = points.get(points.size() - 1)[0];
      return last >= (long) warmUp + MIN_WARM_WINDOW_SECONDS ? warmUp : (int) Math.min(warmUp, (last + 2) / 3);
    }

    private long[] from() {
      int start = fromSecond();
      for (long[] p : points) {
        if (p[0] >= start) {
          return p;
        }
      }
      return null;
    }

    private long[] to() {
      return points.isEmpty() ? null : points.get(points.size() - 1);
    }

    /** @return true if the window spans time and pages */
    boolean measured() {
      long[] a = from();
      long[] b = to();
      return a != null && b[0] > a[0] && b[1] > a[1];
    }

    double pagesPerSecond() {
      return measured() ? (to()[1] - from()[1]) / (double) (to()[0] - from()[0]) : Double.NaN;
    }

    double cpuMsPerPage() {
      if (!measured()) {
        return Double.NaN;
      }
      long[] a = from();
      long[] b = to();
      return a[2] >= 0 && b[2] >= a[2] ? (b[2] - a[2]) / 1e6 / (b[1] - a[1]) : Double.NaN;
    }
  }

  /* Asks the crawler JVM for a full collection; its after-size lands in the GC log. */
  private void fullGc(ChildProcess p) {
    Path jcmd = java.nio.file.Paths.get(settings.java()).resolveSibling("jcmd");
    try {
      Process gc = new ProcessBuilder(jcmd.toString(), String.valueOf(p.process.pid()), "GC.run")
          .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
      if (!gc.waitFor(60, TimeUnit.SECONDS)) {
        gc.destroyForcibly();
        out.println("crawl: jcmd GC.run took over 60 s; " + p.name + " gets no live-heap figure");
      }
    } catch (IOException e) {
      out.println("crawl: jcmd GC.run failed (" + e.getMessage() + "); " + p.name + " gets no live-heap figure");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
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
    return largestAfter(gcLog, GC_AFTER);
  }

  /** @return the heap after the requested full collection ({@code jcmd GC.run}) in a {@code -Xlog:gc} file, in MiB, or NaN */
  static double heapAfterFullGc(Path gcLog) {
    return largestAfter(gcLog, FULL_GC);
  }

  private static double largestAfter(Path gcLog, Pattern after) {
    double best = Double.NaN;
    try {
      for (String line : Files.readAllLines(gcLog, StandardCharsets.UTF_8)) {
        Matcher m = after.matcher(line);
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
