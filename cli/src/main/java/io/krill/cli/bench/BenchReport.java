package io.krill.cli.bench;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.krill.loadtest.harness.Json;
import io.krill.loadtest.harness.RunEnvironment;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;

/**
 * The results of one {@code krill bench} run, read from JMH's {@link RunResult}s: every score
 * of every round, and for each benchmark with a {@code competitor} parameter the ratio of each
 * competitor's cost to krill's ({@code fiber} or {@code continuation}) per round, as a median
 * with its spread. A ratio above 1 means krill is faster. Written as
 * {@code <results>/<date>-<suite>.json} and {@code .md}.
 */
final class BenchReport {
  /** The competitor values that stand for krill, the baseline of the ratios. */
  static final List<String> KRILL = List.of("fiber", "continuation");
  static final String COMPETITOR = "competitor";

  private final BenchSettings settings;
  private final List<List<RunResult>> rounds;
  private final String loadLine = RunEnvironment.uptime();

  /**
   * A ratio goal: krill must be at least {@code times} faster than the fastest of the
   * {@code competitors} in {@code benchmark} (a class's simple name) with {@code params} (the
   * other parameters, as {@link #otherParams} writes them).
   */
  record Goal(String goal, String benchmark, String params, List<String> competitors, double times) {
    String target() {
      return String.format(Locale.ROOT, "≥ %.3g× faster than %s", times, String.join(" or ", competitors))
          .replace(".00×", "×");
    }
  }

  /** The goals JMH measures; {@code krill loadtest --scenario all} lists them from the newest fibers file. */
  static final List<Goal> GOALS = List.of(
      new Goal("CommsTime, ns per cycle, one carrier", "CommsTimeBenchmark", "",
          List.of("virtualThreadSyncQueue", "virtualThreadChannel"), 8),
      new Goal("ring of 256, 1 token, ns per hop, one carrier", "RingBenchmark", "tokens=1",
          List.of("virtualThreadSyncQueue", "virtualThreadChannel"), 8),
      new Goal("ring of 256, 64 tokens, ns per hop, one carrier", "RingBenchmark", "tokens=64",
          List.of("virtualThreadSyncQueue", "virtualThreadChannel"), 8),
      new Goal("park → unpark, ns per hand-over, one carrier", "ParkUnparkBenchmark", "", List.of("virtualThread"), 10),
      new Goal("spawn + join, ns per child, one carrier", "SpawnJoinBenchmark", "", List.of("virtualThread"), 15),
      new Goal("cross-loop park→unpark, ns per one-way hand-over, two carriers", "CrossLoopUnparkBenchmark", "",
          List.of("virtualThread"), 1),
      new Goal("suspend+resume at depth 1 against a virtual-thread park/unpark switch", "SuspendResumeBenchmark",
          "callDepth=1", List.of("virtualThread"), 5));

  BenchReport(BenchSettings settings, List<List<RunResult>> rounds) {
    this.settings = settings;
    this.rounds = rounds;
  }

  Path jsonFile() {
    return settings.resultsDir.resolve(settings.name() + ".json");
  }

  Path markdownFile() {
    return settings.resultsDir.resolve(settings.name() + ".md");
  }

  void write() throws IOException {
    Files.createDirectories(settings.resultsDir);
    Files.writeString(jsonFile(), Json.MAPPER.writeValueAsString(json()) + "\n", StandardCharsets.UTF_8);
    Files.writeString(markdownFile(), markdown(), StandardCharsets.UTF_8);
  }

  /** One competitor's cost relative to krill's, over the rounds. */
  record Ratio(String benchmark, String params, String competitor, String baseline, List<Double> perRound) {
    Ratio(String benchmark, String params, String competitor, String baseline) {
      this(benchmark, params, competitor, baseline, new ArrayList<>());
    }

    double median() {
      List<Double> v = new ArrayList<>(perRound);
      Collections.sort(v);
      int n = v.size();
      return n == 0 ? Double.NaN : n % 2 == 1 ? v.get(n / 2) : (v.get(n / 2 - 1) + v.get(n / 2)) / 2;
    }

    double min() {
      return perRound.stream().mapToDouble(Double::doubleValue).min().orElse(Double.NaN);
    }

    double max() {
      return perRound.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN);
    }
  }

  /** @return the ratios of every benchmark with a competitor parameter, in the order JMH ran them */
  List<Ratio> ratios() {
    Map<String, Ratio> byKey = new LinkedHashMap<>();
    for (List<RunResult> round : rounds) {
      Map<String, RunResult> krill = new TreeMap<>();
      for (RunResult r : round) {
        if (KRILL.contains(r.getParams().getParam(COMPETITOR))) {
          krill.put(group(r.getParams()), r);
        }
      }
      for (RunResult r : round) {
        BenchmarkParams p = r.getParams();
        String competitor = p.getParam(COMPETITOR);
        RunResult base = krill.get(group(p));
        if (competitor == null || base == null || base == r) {
          continue;
        }
        String key = group(p) + "|" + competitor;
        Ratio ratio = byKey.computeIfAbsent(key, k -> new Ratio(shortName(p), otherParams(p), competitor,
            base.getParams().getParam(COMPETITOR)));
        ratio.perRound().add(costRatio(p.getMode(), r.getPrimaryResult(), base.getPrimaryResult()));
      }
    }
    return new ArrayList<>(byKey.values());
  }

  /* Cost of the competitor divided by krill's: time per op as is, throughput inverted. */
  static double costRatio(Mode mode, Result<?> competitor, Result<?> krill) {
    return mode == Mode.Throughput ? krill.getScore() / competitor.getScore() : competitor.getScore() / krill.getScore();
  }

  /* A benchmark method and its parameters other than the competitor. */
  private static String group(BenchmarkParams p) {
    return p.getBenchmark() + "|" + otherParams(p);
  }

  static String otherParams(BenchmarkParams p) {
    StringBuilder b = new StringBuilder();
    for (String k : p.getParamsKeys()) {
      if (!k.equals(COMPETITOR)) {
        b.append(b.length() == 0 ? "" : ", ").append(k).append('=').append(p.getParam(k));
      }
    }
    return b.toString();
  }

  static String params(BenchmarkParams p) {
    StringBuilder b = new StringBuilder();
    for (String k : p.getParamsKeys()) {
      b.append(b.length() == 0 ? "" : ", ").append(k).append('=').append(p.getParam(k));
    }
    return b.toString();
  }

  /** @return {@code Class.method} without the package */
  static String shortName(BenchmarkParams p) {
    String[] parts = p.getBenchmark().split("\\.");
    return parts.length < 2 ? p.getBenchmark() : parts[parts.length - 2] + "." + parts[parts.length - 1];
  }

  ObjectNode json() {
    ObjectNode root = Json.MAPPER.createObjectNode();
    root.put("suite", settings.suite).put("date", settings.date).put("command", settings.command)
        .put("commit", settings.commit).put("machine", RunEnvironment.machine()).put("jdk", settings.javaVersion)
        .put("load", loadLine);
    root.putObject("settings").put("quick", settings.quick).put("rounds", settings.rounds).put("forks", 1)
        .put("warmupIterations", settings.warmups).put("iterations", settings.iterations)
        .put("warmupMillis", settings.warmupMillis).put("iterationMillis", settings.iterationMillis);
    ArrayNode scores = root.putArray("scores");
    for (int i = 0; i < rounds.size(); i++) {
      for (RunResult r : rounds.get(i)) {
        BenchmarkParams p = r.getParams();
        ObjectNode o = scores.addObject().put("round", i + 1).put("benchmark", p.getBenchmark())
            .put("mode", p.getMode().shortLabel());
        ObjectNode params = o.putObject("params");
        for (String k : p.getParamsKeys()) {
          params.put(k, p.getParam(k));
        }
        Result<?> score = r.getPrimaryResult();
        o.put("score", score.getScore()).put("error", finite(score.getScoreError())).put("unit", score.getScoreUnit());
      }
    }
    ArrayNode goals = root.putArray("goals");
    for (String[] g : judged(ratios())) {
      goals.addObject().put("goal", g[0]).put("target", g[1]).put("measured", g[2]).put("verdict", g[3]);
    }
    ArrayNode ratios = root.putArray("ratios");
    for (Ratio r : ratios()) {
      ObjectNode o = ratios.addObject().put("benchmark", r.benchmark()).put("params", r.params())
          .put("competitor", r.competitor()).put("baseline", r.baseline()).put("median", r.median())
          .put("min", r.min()).put("max", r.max());
      ArrayNode each = o.putArray("perRound");
      r.perRound().forEach(each::add);
    }
    return root;
  }

  /**
   * Judges each goal this run measured: the median ratio of the fastest competitor named, met
   * when it reaches the goal's factor.
   *
   * @return goal, target, measured and verdict of each goal measured
   */
  static List<String[]> goals(List<Ratio> ratios) {
    List<String[]> judged = new ArrayList<>();
    for (Goal g : GOALS) {
      Ratio best = null;
      for (Ratio r : ratios) {
        if (r.benchmark().startsWith(g.benchmark() + ".") && r.params().equals(g.params())
            && g.competitors().contains(r.competitor())
            && (best == null || r.median() < best.median())) {
          best = r;
        }
      }
      if (best != null) {
        judged.add(new String[] {g.goal(), g.target(), String.format(Locale.ROOT, "%.2f× (%.2f×–%.2f×) against %s",
            best.median(), best.min(), best.max(), best.competitor()), best.median() >= g.times() ? "met" : "missed"});
      }
    }
    return judged;
  }

  /* A quick run's iterations are too short to judge a goal: its verdicts say so. */
  private List<String[]> judged(List<Ratio> ratios) {
    List<String[]> goals = goals(ratios);
    if (settings.quick) {
      goals.forEach(g -> g[3] = "not judged: a --quick run");
    }
    return goals;
  }

  private static double finite(double v) {
    return Double.isNaN(v) || Double.isInfinite(v) ? 0 : v;
  }

  String markdown() {
    StringBuilder b = new StringBuilder("# JMH: ").append(settings.suite).append(" (").append(settings.date).append(")\n\n");
    b.append("Command: `").append(settings.command).append("`  \n");
    b.append("Commit: ").append(settings.commit).append("  \n");
    b.append("JDK of the forks: ").append(settings.javaVersion).append("  \n");
    b.append("Machine: ").append(RunEnvironment.machine()).append("  \n");
    b.append("Load before: ").append(loadLine).append("  \n");
    b.append(String.format(Locale.ROOT, "Settings: %d round(s), each -f 1 -wi %d -i %d, %d ms warm-up and %d ms measured"
        + " iterations; every competitor runs in each round. Compare only figures from the same run.%n%n",
        settings.rounds, settings.warmups, settings.iterations, settings.warmupMillis, settings.iterationMillis));
    List<Ratio> ratios = ratios();
    List<String[]> goals = judged(ratios);
    if (!goals.isEmpty()) {
      b.append("## Goals\n\n| goal | target | measured (median, spread) | verdict |\n|---|---|---|---|\n");
      for (String[] g : goals) {
        b.append("| ").append(String.join(" | ", g)).append(" |\n");
      }
      b.append('\n');
    }
    if (!ratios.isEmpty()) {
      b.append("## Cost of each competitor ÷ krill's (median over rounds, spread in brackets; above 1: krill faster)\n\n");
      b.append("| benchmark | params | competitor | ratio |\n|---|---|---|---|\n");
      for (Ratio r : ratios) {
        b.append("| ").append(r.benchmark()).append(" | ").append(r.params()).append(" | ").append(r.competitor())
            .append(" ÷ ").append(r.baseline()).append(" | ")
            .append(String.format(Locale.ROOT, "%.2f× (%.2f×–%.2f×)", r.median(), r.min(), r.max())).append(" |\n");
      }
      b.append('\n');
    }
    b.append("## Scores\n\n| round | benchmark | params | mode | score | ± error | unit |\n|---|---|---|---|---|---|---|\n");
    for (int i = 0; i < rounds.size(); i++) {
      for (RunResult r : rounds.get(i)) {
        Result<?> s = r.getPrimaryResult();
        b.append("| ").append(i + 1).append(" | ").append(shortName(r.getParams())).append(" | ")
            .append(params(r.getParams())).append(" | ").append(r.getParams().getMode().shortLabel()).append(" | ")
            .append(String.format(Locale.ROOT, "%.3f | %.3f", s.getScore(), finite(s.getScoreError()))).append(" | ")
            .append(s.getScoreUnit()).append(" |\n");
      }
    }
    return b.toString();
  }
}
