package io.krill.loadtest.harness;

import io.krill.config.CommandOptions;
import io.krill.config.ConfigException;
import io.krill.config.Settings;
import io.krill.loadtest.internal.ChildProcess;
import io.krill.loadtest.internal.Reports;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * {@code krill loadtest}: runs the comparison scenarios (each server and each load generator in
 * its own JVM, variants interleaved, fresh JVMs per cell) and writes one report directory per
 * scenario under {@code docs/results/<date>-<scenario>/}. Prints each scenario's table and,
 * first, the estimated wall time. A run of several scenarios ({@code --scenario all}) also
 * writes {@code <date>-summary.md}: every ratio goal, met or missed (see {@link GoalSummary}).
 * Its options are {@link LoadtestSettings}'s schema; a bad one prints one line per problem and
 * exits with status 2.
 */
public final class LoadtestCommand implements Callable<Integer> {
  /** The subcommand's name, as typed after {@code krill}. */
  private static final String NAME = "loadtest";

  private CommandSpec spec;

  private LoadtestCommand() {}

  /**
   * Builds the command line of {@code krill loadtest} for the launcher to register.
   *
   * @return the command line; {@code execute(args)} returns 0, 1 (failure) or 2 (bad usage)
   */
  public static CommandLine commandLine() {
    LoadtestCommand command = new LoadtestCommand();
    CommandSpec spec = CommandOptions.spec(command, NAME, "Compare krill fibers with platform threads, virtual"
        + " threads and raw Netty under load, each server and generator in its own JVM, and write report.md,"
        + " results.json and PNG charts.", LoadtestSettings.SCHEMA);
    spec.usageMessage().sortOptions(false);
    // Scenarios, counts and variants are comma-separated on the command line too (--connections 5,7);
    // a JVM option may hold a comma, so it only repeats. Options are re-added to keep the help order.
    for (OptionSpec o : List.copyOf(spec.options())) {
      if (!o.usageHelp() && !o.versionHelp()) {
        spec.remove(o);
        boolean commas = LoadtestSettings.COMMA_LISTS.contains(o.longestName());
        spec.addOption(commas ? o.toBuilder().splitRegex(",").build() : o);
      }
    }
    command.spec = spec;
    return new CommandLine(spec);
  }

  @Override
  public Integer call() throws Exception {
    PrintStream out = System.out;
    RunSettings s;
    List<Scenario> chosen;
    try {
      Settings settings = CommandOptions.flags(spec, LoadtestSettings.SCHEMA, LoadtestSettings.SCHEMA.loader()).load();
      s = LoadtestSettings.runSettings(settings);
      chosen = LoadtestSettings.scenarios(settings);
      CommandOptions.writableDirectory("--results", s.resultsDir);
    } catch (ConfigException e) {
      return CommandOptions.usageError(System.err, NAME, e);
    } catch (IllegalArgumentException e) {
      return CommandOptions.usageError(System.err, NAME, e.getMessage());
    }
    s.command = command();
    s.commit = RunEnvironment.commit();
    Runtime.getRuntime().addShutdownHook(new Thread(ChildProcess::killAll, "kill-children"));
    out.println("loadtest: children on JDK " + s.javaVersion + " (" + s.javaHome + "), heap " + s.heap + ", "
        + (s.roundsOption != null || s.quick ? s.rounds + " round(s)" : Scenario.DEFAULT_ROUNDS + " rounds (slow-handler, idle: "
            + Scenario.DEFAULT_LONG_ROUNDS + ")")
        + ", warm-up " + s.warmup.toMillis() + " ms, measured " + s.measure.toMillis() + " ms per cell"
        + (chosen.contains(Scenario.HELLO_WRK) && s.measureOption == null ? " (hello-wrk: a window of "
            + (s.quick ? PinnedWrkScenario.QUICK_MEASURE : PinnedWrkScenario.DEFAULT_MEASURE).toSeconds() + " s)" : "")
        + (Wrk.available() && s.wrk ? ", wrk cross-check on (" + s.wrkTime().toSeconds() + " s per hello cell up to "
            + Wrk.MAX_CONNECTIONS + " connections)"
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
        out.println("goal: " + g.goal() + " " + g.target() + ": " + g.measured() + " -> " + g.verdict());
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

  private String command() {
    List<String> args = new ArrayList<>(spec.commandLine().getParseResult().originalArgs());
    if (!args.isEmpty() && args.get(0).equals(spec.name())) {
      args.remove(0); // run through the krill launcher: the subcommand's own name comes first
    }
    return "krill loadtest " + String.join(" ", args);
  }

  /**
   * Runs the command alone (without the krill launcher).
   *
   * @param args the options
   */
  public static void main(String[] args) {
    System.exit(commandLine().execute(args));
  }
}
