package io.krill.cli.bench;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/** The settings of one {@code krill bench} run, as {@link BenchCommand} checked them. Not thread-safe. */
final class BenchSettings {
  /** Each suite and the JMH include pattern that selects its benchmarks. */
  static final Map<String, String> SUITES = new LinkedHashMap<>();

  static {
    SUITES.put("continuations", "io\\.krill\\.benchmarks\\.continuations\\..*Benchmark");
    SUITES.put("fibers", "io\\.krill\\.benchmarks\\.fibers\\..*Benchmark");
    SUITES.put("all", "io\\.krill\\.benchmarks\\..*Benchmark");
  }

  String suite = "fibers";
  String include = SUITES.get("fibers");
  boolean quick;
  int rounds = BenchCommand.DEFAULT_ROUNDS;
  int warmups = BenchCommand.DEFAULT_WARMUPS;
  int iterations = BenchCommand.DEFAULT_ITERATIONS;
  long warmupMillis = BenchCommand.DEFAULT_WARMUP_MILLIS;
  long iterationMillis = BenchCommand.DEFAULT_ITERATION_MILLIS;
  String date;
  Path resultsDir;
  Path javaHome;
  int javaFeature;
  String javaVersion = "?";
  String command = "";
  String commit = "unknown";

  /** A smoke run: one round of one short warm-up and one short measured iteration. */
  void quick() {
    quick = true;
    rounds = 1;
    warmups = 1;
    iterations = 1;
    warmupMillis = 100;
    iterationMillis = 100;
  }

  /** @return the name of this run's result files without extension, e.g. {@code 2026-11-25-fibers} */
  String name() {
    return date + "-" + suite;
  }
}
