package io.krill.loadtest.harness;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.Collection;
import java.util.Locale;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * {@code krill bench [pattern]}: runs the JMH benchmarks matching {@code pattern} (a regular
 * expression, default all) with 2-core defaults ({@value #FORKS} fork, {@value #WARMUPS}
 * warm-up and {@value #ITERATIONS} measured iterations of {@value #WARMUP_SECONDS} s and
 * {@value #ITERATION_SECONDS} s) and writes {@code jmh.json} and {@code report.md} to
 * {@code <results>/<date>-jmh[-pattern]/}, next to the load-test reports.
 *
 * <p>usage: {@code JmhSuite [pattern] [--results DIR] [--command TEXT]}; run from the shaded
 * benchmarks jar, whose benchmark list JMH reads.
 */
public final class JmhSuite {
  static final int FORKS = 1;
  static final int WARMUPS = 3;
  static final int ITERATIONS = 5;
  static final int WARMUP_SECONDS = 1;
  static final int ITERATION_SECONDS = 2;

  private JmhSuite() {}

  /**
   * Runs the suite.
   *
   * @param args see the class comment
   */
  public static void main(String[] args) throws IOException, RunnerException {
    String pattern = ".";
    Path results = Paths.get("loadtest", "results");
    String command = "krill bench " + String.join(" ", args);
    for (int i = 0; i < args.length; i++) {
      if (args[i].equals("--results") && i + 1 < args.length) {
        results = Paths.get(args[++i]);
      } else if (args[i].equals("--command") && i + 1 < args.length) {
        command = args[++i];
      } else if (args[i].startsWith("-")) {
        System.err.println("krill bench: " + args[i] + ": unknown option (usage: krill bench [pattern])");
        System.exit(2);
      } else {
        pattern = args[i];
      }
    }
    String slug = pattern.equals(".") ? "" : "-" + pattern.replaceAll("[^A-Za-z0-9]+", "_");
    Path dir = results.resolve(LocalDate.now(ZoneOffset.UTC) + "-jmh" + slug);
    Path json = dir.resolve("jmh.json");
    Options o = new OptionsBuilder().include(pattern).forks(FORKS).warmupIterations(WARMUPS)
        .measurementIterations(ITERATIONS).warmupTime(TimeValue.seconds(WARMUP_SECONDS))
        .measurementTime(TimeValue.seconds(ITERATION_SECONDS)).resultFormat(ResultFormatType.JSON)
        .result(json.toString()).build();
    Files.createDirectories(dir);
    Collection<RunResult> runs;
    try {
      runs = new Runner(o).run();
    } catch (RunnerException | RuntimeException e) {
      Files.deleteIfExists(json);
      Files.deleteIfExists(dir);
      // JMH's NoBenchmarksException carries its text in toString(), not in getMessage().
      if (String.valueOf(e).contains("No benchmarks to run")) {
        System.err.println("krill bench: pattern: " + pattern + " (expected: a regular expression matching a"
            + " benchmark; java -jar loadtest/target/benchmarks.jar -l lists them)");
        System.exit(2);
      }
      throw e;
    }
    String md = markdown(runs, command);
    Files.writeString(dir.resolve("report.md"), md, StandardCharsets.UTF_8);
    System.out.println(md);
    System.out.println("report: " + dir.resolve("report.md") + ", raw: " + json);
  }

  static String markdown(Collection<RunResult> runs, String command) {
    StringBuilder b = new StringBuilder("# JMH (").append(LocalDate.now(ZoneOffset.UTC)).append(")\n\n");
    b.append("Command: `").append(command).append("`  \nJVM: ").append(System.getProperty("java.runtime.version"))
        .append("  \nMachine: ").append(Report.machine()).append("  \nSettings: -f ").append(FORKS).append(" -wi ")
        .append(WARMUPS).append(" -i ").append(ITERATIONS).append(" -w ").append(WARMUP_SECONDS).append("s -r ")
        .append(ITERATION_SECONDS).append("s. Compare only figures from the same run.\n\n");
    b.append("| benchmark | params | mode | score | ± error | unit |\n|---|---|---|---|---|---|\n");
    for (RunResult r : runs) {
      StringBuilder params = new StringBuilder();
      for (String k : r.getParams().getParamsKeys()) {
        params.append(params.length() == 0 ? "" : ", ").append(k).append('=').append(r.getParams().getParam(k));
      }
      b.append("| ").append(r.getParams().getBenchmark()).append(" | ").append(params).append(" | ")
          .append(r.getParams().getMode().shortLabel()).append(" | ")
          .append(String.format(Locale.ROOT, "%.3f", r.getPrimaryResult().getScore())).append(" | ")
          .append(String.format(Locale.ROOT, "%.3f", r.getPrimaryResult().getScoreError())).append(" | ")
          .append(r.getPrimaryResult().getScoreUnit()).append(" |\n");
    }
    return b.toString();
  }
}
