package io.krill.cli.bench;

import io.krill.config.CommandOptions;
import io.krill.config.JvmOptions;
import io.krill.fibers.Checks;
import io.krill.loadtest.harness.RunEnvironment;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.Callable;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.BenchmarkList;
import org.openjdk.jmh.runner.NoBenchmarksException;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.format.OutputFormatFactory;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code krill bench}: runs a JMH suite through JMH's {@link Runner}, every competitor of a
 * benchmark in the same run and the whole suite {@code --rounds} times (A B C A B C ...), and
 * writes {@code <results>/<date>-<suite>.json} and {@code .md}: every score, and each
 * competitor's median ratio to krill's with its spread over the rounds (see
 * {@link BenchReport}). Every option is checked before JMH starts; a bad one prints one line and
 * exits 2.
 */
@Command(name = "bench", mixinStandardHelpOptions = true, sortOptions = false,
    description = "Run the JMH suites (krill's fibers and continuations against virtual threads, platform threads and"
        + " a hand-written state machine), every competitor interleaved in one run, and write"
        + " docs/results/<date>-<suite>.json and .md.")
public final class BenchCommand implements Callable<Integer> {
  /** Default: interleaved rounds of a full run. */
  public static final int DEFAULT_ROUNDS = 3;
  /** Default: warm-up iterations per round (2 cores: a few 1 s iterations are enough). */
  public static final int DEFAULT_WARMUPS = 3;
  /** Default: measured iterations per round. */
  public static final int DEFAULT_ITERATIONS = 5;
  /** Default: warm-up iteration length, in ms. */
  public static final long DEFAULT_WARMUP_MILLIS = 1_000;
  /** Default: measured iteration length, in ms. */
  public static final long DEFAULT_ITERATION_MILLIS = 2_000;

  @Spec
  CommandSpec spec;

  @Parameters(index = "0", arity = "0..1", paramLabel = "SUITE", defaultValue = "fibers",
      description = "continuations, fibers or all; anything else is a regular expression over every benchmark's"
          + " name, e.g. fibers.Ring (default: ${DEFAULT-VALUE})")
  String suite;

  @Option(names = "--include", paramLabel = "REGEX",
      description = "only the benchmarks of the suite whose name matches, e.g. Ring")
  String include;

  @Option(names = "--quick", description = "a smoke run: 1 round, 1 warm-up and 1 measured iteration of 100 ms each")
  boolean quick;

  @Option(names = "--rounds", paramLabel = "N", description = "interleaved rounds (default: " + DEFAULT_ROUNDS
      + ", quick: 1)")
  Integer rounds;

  @Option(names = "--jdk", paramLabel = "DIR",
      description = "JDK home the benchmark forks run on (default: the newest under /usr/lib/jvm)")
  Path jdk;

  @Option(names = "--results", paramLabel = "DIR", description = "results directory (default: $KRILL_HOME/"
      + RunEnvironment.RESULTS + ", else " + RunEnvironment.RESULTS + ")")
  Path results;

  @Option(names = "--date", paramLabel = "TEXT", description = "date part of the result names (default: today, UTC)")
  String date;

  /** Where progress and the table go; tests replace it. */
  PrintStream out = System.out;

  @Override
  public Integer call() throws IOException {
    BenchSettings s;
    try {
      s = settings();
    } catch (IllegalArgumentException e) {
      return CommandOptions.usageError(System.err, "bench", e.getMessage());
    }
    List<List<RunResult>> byRound = new ArrayList<>();
    for (int round = 1; round <= s.rounds; round++) {
      out.println("bench: " + s.suite + " round " + round + " of " + s.rounds + " on JDK " + s.javaVersion);
      out.flush();
      try {
        Collection<RunResult> runs = new Runner(options(s).build()).run();
        if (runs.isEmpty()) {
          System.err.println("krill bench: no benchmark finished in round " + round + " (the JMH output above says why)");
          return 1;
        }
        byRound.add(new ArrayList<>(runs));
      } catch (NoBenchmarksException e) {
        return CommandOptions.usageError(System.err, "bench", s.include + ": no benchmark matches (expected: a regular"
            + " expression matching a benchmark; java -jar benchmarks/target/benchmarks.jar -l lists them)");
      } catch (RunnerException e) {
        System.err.println("krill bench: JMH failed: " + e.getMessage());
        return 1;
      }
    }
    BenchReport report = new BenchReport(s, byRound);
    report.write();
    out.println(report.markdown());
    out.println("report: " + report.markdownFile() + ", data: " + report.jsonFile());
    return 0;
  }

  BenchSettings settings() {
    BenchSettings s = new BenchSettings();
    String filter = include;
    if (BenchSettings.SUITES.containsKey(suite)) {
      s.suite = suite;
    } else {
      regex("SUITE", suite);
      s.suite = "jmh-" + suite.replaceAll("[^A-Za-z0-9]+", "_");
      filter = include == null ? suite : suite + ".*" + include;
    }
    if (include != null) {
      regex("--include", include);
    }
    // JMH selects the benchmarks whose full name this finds: the suite's package, and the filter anywhere in the name.
    s.include = (filter == null ? "^" : "^(?=.*" + filter + ")")
        + BenchSettings.SUITES.getOrDefault(suite, BenchSettings.SUITES.get("all"));
    if (filter != null && matching(s.include) == 0) {
      String typed = BenchSettings.SUITES.containsKey(suite) ? "--include: " + include
          : "SUITE: " + suite + (include == null ? "" : " with --include " + include);
      throw new IllegalArgumentException(typed + ": no benchmark matches (expected: continuations, fibers, all or a"
          + " regular expression matching a benchmark's name, such as Ring or fibers\\.Ring; java -jar"
          + " benchmarks/target/benchmarks.jar -l lists them)");
    }
    if (quick) {
      s.quick();
    }
    if (rounds != null) {
      s.rounds = Checks.inRange("--rounds", rounds, 1, 20);
    }
    if (date != null && !RunEnvironment.isDate(date)) {
      throw Checks.bad("--date", date, RunEnvironment.DATE_EXPECTED);
    }
    s.date = date != null ? date : RunEnvironment.today();
    s.resultsDir = CommandOptions.writableDirectory("--results", results != null ? results : RunEnvironment.resultsDir());
    s.javaHome = RunEnvironment.pickJdk(jdk);
    s.javaFeature = RunEnvironment.feature(s.javaHome);
    try {
      s.javaVersion = RunEnvironment.javaVersion(s.javaHome);
    } catch (IOException e) {
      s.javaVersion = String.valueOf(s.javaFeature);
    }
    List<String> args = new ArrayList<>(spec.commandLine().getParseResult().originalArgs());
    if (!args.isEmpty() && args.get(0).equals(spec.name())) {
      args.remove(0); // run through the krill launcher: the subcommand's own name comes first
    }
    s.command = ("krill bench " + String.join(" ", args)).trim();
    s.commit = RunEnvironment.commit();
    return s;
  }

  /* How many benchmarks JMH would select with this include pattern, read from the jar's benchmark list. */
  private static int matching(String pattern) {
    return BenchmarkList.defaultList()
        .find(OutputFormatFactory.createFormatInstance(System.err, VerboseMode.SILENT), List.of(pattern), List.of())
        .size();
  }

  private static void regex(String name, String value) {
    try {
      java.util.regex.Pattern.compile(value);
    } catch (java.util.regex.PatternSyntaxException e) {
      throw new IllegalArgumentException(name + ": " + value + " (expected: continuations, fibers, all or a regular"
          + " expression)");
    }
  }

  static ChainedOptionsBuilder options(BenchSettings s) {
    ChainedOptionsBuilder o = new OptionsBuilder().include(s.include).forks(1).warmupIterations(s.warmups)
        .measurementIterations(s.iterations).warmupTime(TimeValue.milliseconds(s.warmupMillis))
        .measurementTime(TimeValue.milliseconds(s.iterationMillis))
        .jvm(s.javaHome.resolve("bin").resolve("java").toString());
    // The same options as the load-test children (Netty on JDK 23+ runs without sun.misc.Unsafe unless
    // allowed). Prepended: the benchmarks' own @Fork(jvmArgsAppend) (one virtual-thread carrier) must stay.
    return o.jvmArgsPrepend(JvmOptions.forJdk(s.javaFeature).toArray(new String[0]));
  }

  /**
   * Runs the command alone (without the krill launcher).
   *
   * @param args the options
   */
  public static void main(String[] args) {
    System.exit(new CommandLine(new BenchCommand()).execute(args));
  }
}
