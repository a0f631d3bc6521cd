package io.krill.loadtest.harness;

import io.krill.loadtest.internal.ChildProcess;
import io.krill.loadtest.internal.Reports;
import java.io.PrintStream;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code krill loadtest}: runs the comparison scenarios (each server and each load generator in
 * its own JVM, variants interleaved, fresh JVMs per cell) and writes one report directory per
 * scenario under {@code docs/results/<date>-<scenario>/}. Prints each scenario's table and,
 * first, the estimated wall time. A run of several scenarios ({@code --scenario all}) also
 * writes {@code <date>-summary.md}: every ratio goal, met or missed (see
 * {@link GoalSummary}).
 * Bad options print one line and exit with status 2.
 */
@Command(name = "loadtest", mixinStandardHelpOptions = true,
    description = {"Compares krill fibers with platform threads, virtual threads and raw Netty under load,",
        "each server and generator in its own JVM, and writes report.md, results.json and PNG charts."})
public final class LoadtestCommand implements Callable<Integer> {
  @Spec
  CommandSpec spec;

  @Option(names = "--scenario", defaultValue = "hello", split = ",",
      description = "hello, pipelined, slow-handler, idle, echo, crawl, or all (comma-separated; default: ${DEFAULT-VALUE})")
  List<String> scenarios = new ArrayList<>();

  @Option(names = "--quick", description = "1 round, 1 s warm-up, 2 s measured, smaller connection counts (under 2 minutes for hello on 2 cores)")
  boolean quick;

  @Option(names = "--rounds", description = "interleaved rounds (default: 3, slow-handler and idle 2, quick: 1)")
  Integer rounds;

  @Option(names = "--warmup-ms", description = "warm-up per cell in ms (default: 8000, quick: 1000)")
  Long warmupMillis;

  @Option(names = "--measure-ms", description = "measured time per cell in ms (default: 4000, quick: 2000)")
  Long measureMillis;

  @Option(names = "--connections", split = ",", description = "connection counts, overriding the scenario's")
  List<Integer> connections;

  @Option(names = "--variants", split = ",", description = "only these servers, e.g. netty,threads,httpd-fiber")
  List<String> variants;

  @Option(names = "--heap", defaultValue = RunSettings.DEFAULT_HEAP, description = "fixed heap of every child JVM (default: ${DEFAULT-VALUE})")
  String heap;

  @Option(names = "--jdk", description = "JDK home for servers and generators (default: the newest under /usr/lib/jvm)")
  Path jdk;

  @Option(names = "--results", description = "results directory (default: $KRILL_HOME/docs/results, else docs/results)")
  Path results;

  @Option(names = "--date", description = "date part of the report directory name (default: today, UTC)")
  String date;

  @Option(names = "--connections-per-generator", defaultValue = "" + RunSettings.DEFAULT_CONNECTIONS_PER_GENERATOR,
      description = "most connections per generator process (default: ${DEFAULT-VALUE}; the 20,000-file cap)")
  int connectionsPerGenerator;

  @Option(names = "--no-wrk", description = "do not cross-check with wrk even when it is installed")
  boolean noWrk;

  @Option(names = "--child-jvm-option", description = "extra option for every child JVM (repeatable)")
  List<String> childJvmOptions = new ArrayList<>();

  @Override
  public Integer call() throws Exception {
    PrintStream out = System.out;
    RunSettings s;
    List<Scenario> chosen = new ArrayList<>();
    try {
      s = settings();
      for (String name : scenarios) {
        if (name.equals("all")) {
          chosen.addAll(Scenario.ALL);
        } else if (Scenario.BY_NAME.containsKey(name)) {
          chosen.add(Scenario.BY_NAME.get(name));
        } else {
          throw new IllegalArgumentException("scenario: " + name + " (expected: one of " + Scenario.BY_NAME.keySet()
              + " or all)");
        }
      }
    } catch (IllegalArgumentException e) {
      System.err.println("krill loadtest: " + e.getMessage());
      return 2;
    }
    Runtime.getRuntime().addShutdownHook(new Thread(ChildProcess::killAll, "kill-children"));
    out.println("loadtest: children on JDK " + s.javaVersion + " (" + s.javaHome + "), heap " + s.heap + ", "
        + (s.roundsOption != null || s.quick ? s.rounds + " round(s)" : Scenario.DEFAULT_ROUNDS + " rounds (slow-handler, idle: "
            + Scenario.DEFAULT_LONG_ROUNDS + ")")
        + ", warm-up " + s.warmup.toMillis() + " ms, measured " + s.measure.toMillis() + " ms per cell"
        + (Wrk.available() && s.wrk ? ", wrk cross-check on (" + s.wrkTime().toSeconds() + " s per hello cell)"
            : ", wrk not used (not installed: loadtest/bin/install-wrk.sh)"));
    out.println("loadtest: estimated wall time " + RunPlan.describe(RunPlan.estimate(s, chosen)));
    out.flush();
    List<GoalSummary.Section> sections = new ArrayList<>();
    for (Scenario sc : chosen) {
      s.forScenario(sc);
      String before = Reports.uptime();
      Report dummy = new Report(s, sc, List.of(), before, before);
      List<Cell> cells = new LoadtestRun(s, out, dummy.dir().resolve("logs")).run(sc);
      Report report = new Report(s, sc, cells, before, Reports.uptime());
      String table = report.write();
      out.println();
      out.println("## " + sc.name);
      out.println(table);
      for (Report.Goal g : report.goals) {
        out.println("goal: " + g.goal + " " + g.target + ": " + g.measured + " -> " + g.verdict);
      }
      out.println("report: " + report.dir().resolve("report.md"));
      out.println();
      sections.add(new GoalSummary.Section(sc.name, report.dir().resolve("report.md"), report.goals));
    }
    if (chosen.size() > 1) {
      GoalSummary summary = new GoalSummary(s, sections);
      Path file = summary.write();
      out.println(summary.markdown());
      out.println("summary: " + file);
    }
    return 0;
  }

  private RunSettings settings() {
    RunSettings s = new RunSettings();
    if (quick) {
      s.quick();
    }
    if (rounds != null) {
      s.roundsOption = check("rounds", rounds, 1, 20);
      s.rounds = s.roundsOption;
    }
    if (warmupMillis != null) {
      s.warmupOption = Duration.ofMillis(check("warmup-ms", warmupMillis, 0, 600_000));
      s.warmup = s.warmupOption;
    }
    if (measureMillis != null) {
      s.measureOption = Duration.ofMillis(check("measure-ms", measureMillis, 100, 3_600_000));
      s.measure = s.measureOption;
    }
    if (connections != null) {
      for (int n : connections) {
        check("connections", n, 1, 19_500);
      }
      s.connections = connections;
    }
    if (variants != null) {
      for (String v : variants) {
        if (!Scenario.HTTP_VARIANTS.contains(v) && !Scenario.ECHO_VARIANTS.contains(v)
            && !CrawlScenario.FLAGS.containsKey(v)) {
          throw new IllegalArgumentException("variants: " + v + " (expected: some of " + Scenario.HTTP_VARIANTS
              + ", echo " + Scenario.ECHO_VARIANTS + ", crawl " + CrawlScenario.FLAGS.keySet() + ")");
        }
      }
      s.variants = variants;
    }
    if (!heap.matches("[0-9]+[kmgKMG]?")) {
      throw new IllegalArgumentException("heap: " + heap + " (expected: a JVM size such as 512m or 1g)");
    }
    s.heap = heap;
    s.useJdk(RunEnvironment.pickJdk(jdk));
    if (results != null) {
      s.resultsDir = results;
    }
    if (date != null) {
      if (!date.matches("[0-9A-Za-z._-]+")) {
        throw new IllegalArgumentException("date: " + date + " (expected: letters, digits, '.', '_' or '-')");
      }
      s.date = date;
    }
    s.connectionsPerGenerator = check("connections-per-generator", connectionsPerGenerator, 1, 19_500);
    s.wrk = !noWrk;
    s.childJvmOptions = childJvmOptions;
    List<String> args = new ArrayList<>(spec.commandLine().getParseResult().originalArgs());
    if (!args.isEmpty() && args.get(0).equals(spec.name())) {
      args.remove(0); // run through the krill launcher: the subcommand's own name comes first
    }
    s.command = "krill loadtest " + String.join(" ", args);
    s.commit = RunEnvironment.commit();
    return s;
  }

  private static int check(String name, long v, long min, long max) {
    if (v < min || v > max) {
      throw new IllegalArgumentException(name + ": " + v + " (expected: " + min + ".." + max + ")");
    }
    return (int) Math.min(Integer.MAX_VALUE, v);
  }

  /**
   * Runs the command alone (without the krill launcher).
   *
   * @param args the options
   */
  public static void main(String[] args) {
    System.exit(new CommandLine(new LoadtestCommand()).execute(args));
  }
}
