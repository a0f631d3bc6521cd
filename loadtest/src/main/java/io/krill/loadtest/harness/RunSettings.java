package io.krill.loadtest.harness;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Settings of one harness run, as {@link LoadtestCommand} parsed them, with the defaults of a
 * full run; {@link #quick()} shortens them, and {@link #forScenario} applies a scenario's own
 * rounds before it runs. Every limit has a {@code DEFAULT_*} constant and a row in the
 * loadtest guide's options table (docs/loadtest.md).
 */
final class RunSettings {
  /** Default: interleaved rounds of a full run (slow-handler and idle: {@link Scenario#DEFAULT_LONG_ROUNDS}). */
  static final int DEFAULT_ROUNDS = Scenario.DEFAULT_ROUNDS;
  /**
   * Default: warm-up per cell in a full run. Every cell starts a fresh server JVM, so this is
   * the JIT's time too, and on 2 shared cores C2 is slow to finish: a JFR compilation log of
   * the fiber echo server (2026-11-22, busy machine) showed its woven hot methods compiled 5 to
   * 7 s after start, each compile taking 0.3-0.6 s of wall time, and Netty's own methods queued
   * behind them until 10 s; with a 3 s warm-up the C2 thread still took about a quarter of the
   * server's CPU in the measured phase. 8 s lets every variant reach compiled code first.
   */
  static final Duration DEFAULT_WARMUP = Duration.ofSeconds(8);
  /** Default: measured time per cell in a full run (tens of thousands of requests per cell). */
  static final Duration DEFAULT_MEASURE = Duration.ofSeconds(4);
  /** Default: how long wrk cross-checks each hello cell in a full run (a quick run: 1 s). */
  static final Duration DEFAULT_WRK = Duration.ofSeconds(3);
  /** Quick run: warm-up per cell. */
  static final Duration QUICK_WARMUP = Duration.ofSeconds(1);
  /** Quick run: measured time per cell. */
  static final Duration QUICK_MEASURE = Duration.ofSeconds(2);
  /** Default: fixed heap (-Xms = -Xmx) of every server and generator JVM. */
  static final String DEFAULT_HEAP = "1g";
  /** Most connections one generator process opens (the 20,000-file cap per process, with headroom). */
  static final int DEFAULT_CONNECTIONS_PER_GENERATOR = 9_500;
  /** Default: source addresses per generator (127.0.0.2 ...). */
  static final int DEFAULT_SOURCES = 16;
  /** Longest a server JVM may live. */
  static final long SERVER_MAX_SECONDS = 3600;

  Path resultsDir = RunEnvironment.resultsDir();
  String date = RunEnvironment.today();
  boolean quick;
  /** The rounds, warm-up and measured time of the scenario running now (see {@link #forScenario}). */
  int rounds = DEFAULT_ROUNDS;
  Duration warmup = DEFAULT_WARMUP;
  Duration measure = DEFAULT_MEASURE;
  /** What the command line set, or null for the defaults. */
  Integer roundsOption;
  Duration warmupOption;
  Duration measureOption;
  List<Integer> connections;
  List<String> variants;
  String heap = DEFAULT_HEAP;
  Path javaHome;
  String javaVersion = "?";
  int javaFeature;
  String classpath = defaultClasspath();
  List<String> childJvmOptions = new ArrayList<>();
  int connectionsPerGenerator = DEFAULT_CONNECTIONS_PER_GENERATOR;
  int sources = DEFAULT_SOURCES;
  boolean wrk = true;
  /** Crawl scenario: tabs reading the console of the {@link CrawlScenario#CONSOLE_VARIANT} crawl; 0: no such crawl. */
  int consoleTabs;
  String command = "";
  String commit = "unknown";

  /** Applies the quick run's shorter rounds and phases. */
  void quick() {
    quick = true;
    rounds = 1;
    warmup = QUICK_WARMUP;
    measure = QUICK_MEASURE;
  }

  /** Sets {@link #rounds}, {@link #warmup} and {@link #measure} for {@code s}: the options if given, else its defaults. */
  RunSettings forScenario(Scenario s) {
    rounds = roundsOption != null ? roundsOption : quick ? 1 : s.fullRounds;
    warmup = warmupOption != null ? warmupOption : quick ? QUICK_WARMUP : DEFAULT_WARMUP;
    measure = measureOption != null ? measureOption : s.kind == Scenario.Kind.WRK
        ? (quick ? PinnedWrkScenario.QUICK_MEASURE : PinnedWrkScenario.DEFAULT_MEASURE)
        : quick ? QUICK_MEASURE : DEFAULT_MEASURE;
    return this;
  }

  /** @return how long wrk runs per hello cell */
  Duration wrkTime() {
    if (quick) {
      return Duration.ofSeconds(1);
    }
    return measure.compareTo(DEFAULT_WRK) < 0 ? Duration.ofSeconds(Math.max(1, measure.toSeconds())) : DEFAULT_WRK;
  }

  /** @return the java launcher of the child JVMs */
  String java() {
    return javaHome.resolve("bin").resolve("java").toString();
  }

  /** @return the scenario's connection counts in this run */
  List<Integer> connections(Scenario s) {
    if (connections != null && s.kind != Scenario.Kind.CRAWL) {
      return connections;
    }
    return quick ? s.quickConnections : s.connections;
  }

  /** @return the scenario's variants in this run, in interleaving order: the filtered ones, or all when the filter names none of them */
  List<String> variants(Scenario s) {
    if (variants == null) {
      return s.variants;
    }
    List<String> v = new ArrayList<>();
    for (String x : s.variants) {
      if (variants.contains(x)) {
        v.add(x);
      }
    }
    // A filter that names none of this scenario's variants (e.g. HTTP servers for crawl) leaves it whole.
    return v.isEmpty() ? s.variants : v;
  }

  void useJdk(Path home) {
    javaHome = home;
    javaFeature = RunEnvironment.feature(home);
    try {
      javaVersion = RunEnvironment.javaVersion(home);
    } catch (IOException e) {
      javaVersion = javaFeature == Runtime.version().feature() ? System.getProperty("java.runtime.version") : "?";
    }
  }

  /* Under surefire, java.class.path may be one manifest-only jar; its Class-Path works for children as well. */
  private static String defaultClasspath() {
    String cp = System.getProperty("surefire.test.class.path");
    return cp != null && !cp.isEmpty() ? cp : System.getProperty("java.class.path");
  }
}
