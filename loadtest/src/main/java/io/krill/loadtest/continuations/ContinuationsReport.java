package io.krill.loadtest.continuations;

import static io.krill.loadtest.internal.Reports.cell;
import static io.krill.loadtest.internal.Reports.fmt;
import static io.krill.loadtest.internal.Reports.fmtRatio;
import static io.krill.loadtest.internal.Reports.javaVersion;
import static io.krill.loadtest.internal.Reports.loadAverage;
import static io.krill.loadtest.internal.Reports.q;
import static io.krill.loadtest.internal.Reports.ratio;
import static io.krill.loadtest.internal.Reports.uptime;

import io.krill.fibers.VirtualThreads;
import io.krill.loadtest.internal.Reports;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * Runs the continuation benchmarks of issue 2 on one or more JDKs and writes the report:
 * {@code NAME.json} (every JMH result and heap figure), {@code NAME.md} (tables, ratios and
 * the goals with MET/MISSED) and {@code README-fragment-issue2.md}.
 *
 * <pre>
 * java -cp benchmarks.jar io.krill.loadtest.continuations.ContinuationsReport \
 *     --jdk /usr/lib/jvm/temurin-25-jdk-amd64 --jdk /usr/lib/jvm/java-17-openjdk-amd64 \
 *     --out loadtest/results --name 2026-11-21-continuations [--heap-count N] [--quick]
 * </pre>
 *
 * <p>The first {@code --jdk} is the one the goals are judged on (the newest). Each JDK gets
 * one JMH invocation with both benchmark classes ({@code -f 1 -wi 3 -i 5}, 1 s iterations,
 * {@code --quick}: 1 and 1), then one JVM per heap measurement with a fixed heap. Virtual
 * thread competitors are left out, with {@link VirtualThreads#UNAVAILABLE}, on JDKs before 21.
 * Pin the process ({@code taskset -c 0}) to run everything on one core; forks inherit it.
 */
public final class ContinuationsReport {
  /*
   * Implementation notes.
   *
   * Ratios carry a range from the JMH errors (99.9% confidence intervals): for a / b the range
   * is (a - ea) / (b + eb) .. (a + ea) / (b - eb). A goal is MET when the ratio is within
   * target; the range is printed beside it so a reader sees when the error straddles the line.
   */
  private static final double GOAL_SWITCH = 0.2;
  private static final double GOAL_CALL = 1.1;
  private static final double GOAL_HEAP = 120;
  private static final String HEAP_SIZE = "4g";

  private static final String SWITCH = SuspendResumeBenchmark.class.getName() + ".switchBatch";
  private static final String CALL = NonSuspendingCallBenchmark.class.getName() + ".callBatch";
  private static final String[] COMPETITORS = {"continuation", "virtualThread", "stateMachine",
      "continuationOffCarrier", "virtualThreadYield"};
  private static final String[] DEPTHS = {"1", "5", "20"};

  private final List<Path> jdks = new ArrayList<>();
  private Path out = Paths.get("loadtest/results");
  private String name = "continuations";
  private int heapCount = 1_000_000;
  private boolean quick;
  private String command = "";
  private String commit = "";

  /** The results of one JDK. */
  private static final class JdkRun {
    String home;
    String version;
    int feature;
    boolean virtualThreads;
    String loadBefore;
    String loadAfter;
    String jmhJson;
    final Map<String, double[]> scores = new LinkedHashMap<>();
    final Map<String, Double> heap = new LinkedHashMap<>();
    final List<String> heapLines = new ArrayList<>();
  }

  private ContinuationsReport() {}

  /**
   * Runs the benchmarks and writes the report.
   *
   * @param args see the class comment
   * @throws Exception when a run or the writing fails
   */
  public static void main(String[] args) throws Exception {
    ContinuationsReport r = new ContinuationsReport();
    r.parse(args);
    List<JdkRun> runs = new ArrayList<>();
    for (Path jdk : r.jdks) {
      runs.add(r.runJdk(jdk));
    }
    r.write(runs);
  }

  private void parse(String[] args) {
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      if (a.equals("--quick")) {
        quick = true;
        continue;
      }
      if (i + 1 == args.length) {
        usage("missing value after " + a);
      }
      String v = args[++i];
      switch (a) {
        case "--jdk":
          jdks.add(Paths.get(v));
          break;
        case "--out":
          out = Paths.get(v);
          break;
        case "--name":
          name = v;
          break;
        case "--heap-count":
          heapCount = Integer.parseInt(v);
          if (heapCount <= 0) {
            usage("--heap-count: " + v + " (expected: > 0)");
          }
          break;
        case "--command":
          command = v;
          break;
        case "--commit":
          commit = v;
          break;
        default:
          usage("unknown option: " + a);
      }
    }
    if (jdks.isEmpty()) {
      jdks.add(Paths.get(System.getProperty("java.home")));
    }
  }

  private static void usage(String why) {
    System.err.println("ContinuationsReport: " + why);
    System.err.println("usage: ContinuationsReport --jdk HOME [--jdk HOME...] --out DIR --name NAME"
        + " [--heap-count N] [--quick] [--command TEXT] [--commit SHA]");
    System.exit(2);
  }

  // ---------------------------------------------------------------- running

  private JdkRun runJdk(Path home) throws IOException, RunnerException, InterruptedException {
    JdkRun run = new JdkRun();
    run.home = home.toString();
    run.version = javaVersion(home);
    run.feature = Integer.parseInt(run.version.split("[.+\\-]")[0]);
    run.virtualThreads = run.feature >= 21;
    run.loadBefore = uptime();
    System.out.println("== JDK " + run.version + " (" + home + "), load: " + run.loadBefore);
    if (!run.virtualThreads) {
      System.out.println("virtualThread, virtualThreadYield: skipped: no JDK 21+ (JDK " + run.version + ")");
    }
    Path json = Files.createTempFile("krill-jmh-", ".json");
    ChainedOptionsBuilder o = new OptionsBuilder()
        .include(Pattern.quote(SWITCH))
        .include(Pattern.quote(CALL))
        .forks(1)
        .warmupIterations(quick ? 1 : 3)
        .measurementIterations(quick ? 1 : 5)
        .warmupTime(TimeValue.seconds(1))
        .measurementTime(TimeValue.seconds(1))
        .jvm(home.resolve("bin/java").toString())
        .resultFormat(ResultFormatType.JSON)
        .result(json.toString());
    if (!run.virtualThreads) {
      o.param("competitor", "continuation", "continuationOffCarrier", "stateMachine");
    }
    Collection<RunResult> results = new Runner(o.build()).run();
    run.jmhJson = new String(Files.readAllBytes(json), StandardCharsets.UTF_8).trim();
    Files.delete(json);
    for (RunResult r : results) {
      String key = key(r);
      run.scores.put(key, new double[] {r.getPrimaryResult().getScore(), r.getPrimaryResult().getScoreError()});
    }
    for (String kind : new String[] {"continuation1", "continuation5", "virtualThread1", "virtualThread5"}) {
      if (kind.startsWith("virtualThread") && !run.virtualThreads) {
        continue;
      }
      heap(home, kind, run);
    }
    run.loadAfter = uptime();
    return run;
  }

  private static String key(RunResult r) {
    var p = r.getParams();
    if (p.getBenchmark().equals(SWITCH)) {
      return "switch/" + p.getParam("competitor") + "/" + p.getParam("callDepth");
    }
    return "call/" + p.getParam("inlining") + "/" + p.getParam("thread") + "/" + p.getParam("weaving") + "/"
        + p.getParam("callDepth");
  }

  private void heap(Path home, String kind, JdkRun run) throws IOException, InterruptedException {
    List<String> cmd = List.of(home.resolve("bin/java").toString(), "-Xms" + HEAP_SIZE, "-Xmx" + HEAP_SIZE,
        "-XX:+UseSerialGC", "-Djdk.virtualThreadScheduler.parallelism=1", "-cp",
        System.getProperty("java.class.path"), SuspendedHeap.class.getName(), kind,
        Integer.toString(quick ? Math.min(heapCount, 100_000) : heapCount));
    List<String> lines = Reports.exec(cmd, false);
    for (String line : lines) {
      Matcher m = Pattern.compile("bytesPerItem=([0-9.]+)").matcher(line);
      if (line.startsWith("heap ") && m.find()) {
        run.heap.put(kind, Double.parseDouble(m.group(1)));
        run.heapLines.add(line);
        System.out.println(line);
        return;
      }
    }
    throw new IllegalStateException("heap run printed no result: " + String.join(" ", cmd) + "\n"
        + String.join("\n", lines));
  }

  private static String cpus() {
    try {
      List<String> l = Reports.exec(List.of("nproc", "--all"), false);
      return l.isEmpty() ? "?" : l.get(0).trim();
    } catch (IOException | InterruptedException e) {
      return "?";
    }
  }

  // ---------------------------------------------------------------- numbers

  private static String ratioCell(double[] r) {
    if (r == null) {
      return "—";
    }
    if (Double.isNaN(r[1]) || Double.isNaN(r[2])) {
      return fmtRatio(r[0]);
    }
    return fmtRatio(r[0]) + " [" + fmtRatio(r[1]) + "–" + fmtRatio(r[2]) + "]";
  }

  // ---------------------------------------------------------------- writing

  private void write(List<JdkRun> runs) throws IOException {
    Files.createDirectories(out);
    JdkRun main = runs.get(0);
    List<String[]> goals = goals(main);
    Files.writeString(out.resolve(name + ".md"), markdown(runs, goals));
    Files.writeString(out.resolve(name + ".json"), json(runs, goals));
    Files.writeString(out.resolve("README-fragment-issue2.md"), fragment(main, goals));
    System.out.println("wrote " + out.resolve(name + ".md") + ", " + out.resolve(name + ".json") + " and "
        + out.resolve("README-fragment-issue2.md"));
  }

  private String jmhCommand(JdkRun run) {
    return "taskset -c 0 java -jar loadtest/target/benchmarks.jar 'SuspendResumeBenchmark|NonSuspendingCallBenchmark'"
        + " -f 1 -wi " + (quick ? 1 : 3) + " -i " + (quick ? 1 : 5) + " -w 1s -r 1s -jvm " + run.home + "/bin/java"
        + (run.virtualThreads ? "" : " -p competitor=continuation,continuationOffCarrier,stateMachine");
  }

  private String heapCommand(JdkRun run) {
    return run.home + "/bin/java -Xms" + HEAP_SIZE + " -Xmx" + HEAP_SIZE
        + " -XX:+UseSerialGC -Djdk.virtualThreadScheduler.parallelism=1 -cp loadtest/target/benchmarks.jar "
        + SuspendedHeap.class.getName() + " KIND " + (quick ? Math.min(heapCount, 100_000) : heapCount);
  }

  /** Rows: goal, target, measured, verdict, why. */
  private List<String[]> goals(JdkRun run) {
    List<String[]> rows = new ArrayList<>();
    double[] cont1 = run.scores.get("switch/continuation/1");
    double[] vt1 = run.scores.get("switch/virtualThread/1");
    double[] r1 = ratio(cont1, vt1);
    if (r1 == null) {
      rows.add(new String[] {"suspend+resume at depth 1 ÷ virtual-thread park/unpark switch", "≤ 0.2×",
          "—", "NOT MEASURED", "skipped: " + VirtualThreads.UNAVAILABLE});
    } else {
      boolean met = r1[0] <= GOAL_SWITCH;
      boolean metWithError = !(r1[2] > GOAL_SWITCH);
      rows.add(new String[] {"suspend+resume at depth 1 ÷ virtual-thread park/unpark switch", "≤ 0.2×",
          ratioCell(r1) + " (" + fmt(cont1[0]) + " vs " + fmt(vt1[0]) + " ns)", verdict(met, metWithError),
          met ? "a resume re-enters the woven frame (a tableswitch and a reload of its live locals) and a suspend"
              + " pushes the frame into the continuation's arrays, which are kept between suspensions, so the"
              + " steady state allocates nothing; a virtual-thread switch freezes and thaws a stack chunk and goes"
              + " through the ForkJoinPool queue"
              : "suspend+resume costs " + fmt(cont1[0]) + " ns against " + fmt(vt1[0] * GOAL_SWITCH)
              + " ns allowed; see the suspend+resume table"});
    }
    for (String inl : new String[] {"never", "jit"}) {
      double[] w = run.scores.get("call/" + inl + "/fiber/woven/5");
      double[] u = run.scores.get("call/" + inl + "/fiber/unwoven/5");
      double[] r = ratio(w, u);
      String what = "woven ÷ unwoven non-suspending call, depth 5, on a fiber, "
          + (inl.equals("jit") ? "JIT inlines freely" : "every call out of line");
      if (r == null) {
        rows.add(new String[] {what, "≤ 1.1×", "—", "NOT MEASURED", "no result"});
        continue;
      }
      boolean met = r[0] <= GOAL_CALL;
      double[] w20 = run.scores.get("call/" + inl + "/fiber/woven/20");
      double[] u20 = run.scores.get("call/" + inl + "/fiber/unwoven/20");
      String perFrame = w20 == null || u20 == null ? "?" : fmt((w20[0] - u20[0]) / 20);
      rows.add(new String[] {what, "≤ 1.1×", ratioCell(r) + " (" + fmt(w[0]) + " vs " + fmt(u[0]) + " ns)",
          verdict(met, !(r[2] > GOAL_CALL)),
          "each woven frame reads Stack.current() (currentThread, instanceof CarrierThread, a field load) and"
              + " tests `restoring` at entry, and tests `capturing` after each suspendable call; at depth 20 that"
              + " is " + perFrame + " ns per frame over the unwoven chain"
              + (inl.equals("jit") ? "; inlined, C2 can fold most of it, and depth 5 is only a few ns in all" : "")});
    }
    double[] offJit = ratio(run.scores.get("call/jit/offFiber/woven/5"), run.scores.get("call/jit/offFiber/unwoven/5"));
    double[] offNever = ratio(run.scores.get("call/never/offFiber/woven/5"),
        run.scores.get("call/never/offFiber/unwoven/5"));
    double[] off20 = run.scores.get("call/never/offFiber/woven/20");
    double[] fib20 = run.scores.get("call/never/fiber/woven/20");
    if (offJit != null && offNever != null) {
      rows.add(new String[] {"(design rule, no numeric goal) woven ÷ unwoven off-fiber, depth 5, on a plain"
          + " platform thread", "cheap (DESIGN: never a plain ThreadLocal per call)",
          ratioCell(offJit) + " inlined, " + ratioCell(offNever) + " out of line", "see why",
          "off a CarrierThread, Stack.current() falls back to a plain ThreadLocal.get() at every woven method"
              + " entry (fibers' internal/Stack.java FALLBACK), which C2 cannot hoist or fold: "
              + (off20 == null || fib20 == null ? "?" : fmt((off20[0] - fib20[0]) / 20))
              + " ns more per woven frame than on a carrier thread (out of line, depth 20)"});
    }
    Double h1 = run.heap.get("continuation1");
    Double hv = run.heap.get("virtualThread1");
    if (h1 == null) {
      rows.add(new String[] {"heap per suspended continuation, depth 1, two live locals", "≤ 120 B", "—",
          "NOT MEASURED", "no result"});
    } else {
      rows.add(new String[] {"heap per suspended continuation, depth 1, two live locals", "≤ 120 B",
          fmt(h1) + " B" + (hv == null ? "" : " (virtual thread: " + fmt(hv) + " B, " + fmtRatio(h1 / hv) + ")"),
          verdict(h1 <= GOAL_HEAP, h1 <= GOAL_HEAP),
          "with compressed oops: the Continuation object (40 B: state, two flags, two tops, four references),"
              + " long[2] for the counter and the frame header (32 B), Object[2] for the reference and the frame id"
              + " (24 B); the body is a shared non-capturing lambda, a per-fiber body adds its own size"});
    }
    return rows;
  }

  private static String verdict(boolean met, boolean metWithError) {
    if (!met) {
      return "MISSED";
    }
    return metWithError ? "MET" : "MET (the error range crosses the goal)";
  }

  private String markdown(List<JdkRun> runs, List<String[]> goals) {
    StringBuilder b = new StringBuilder();
    JdkRun main = runs.get(0);
    b.append("# Continuations: suspend+resume, non-suspending calls, heap (issue #2)\n\n");
    b.append("- Command: `").append(command.isEmpty() ? "loadtest/bench/issue2.sh" : command).append("`\n");
    if (!commit.isEmpty()) {
      b.append("- Commit: `").append(commit).append("`\n");
    }
    for (JdkRun r : runs) {
      b.append("- JDK ").append(r.version).append(": JMH `").append(jmhCommand(r)).append("`; heap `")
          .append(heapCommand(r)).append("` (KIND: continuation1, continuation5")
          .append(r.virtualThreads ? ", virtualThread1, virtualThread5" : "").append(")\n");
      b.append("  - load before: `").append(r.loadBefore).append("`; after: `").append(r.loadAfter).append("`\n");
      if (!r.virtualThreads) {
        b.append("  - virtualThread, virtualThreadYield: ").append("skipped: no JDK 21+ (JDK ")
            .append(r.version).append(")\n");
      }
    }
    b.append("- Machine: ").append(cpus())
        .append(" CPUs; JMH forks pinned with `taskset -c 0`, so the JMH thread, the worker")
        .append(" thread and the virtual-thread carrier (`-Djdk.virtualThreadScheduler.parallelism=1`) share one")
        .append(" core. Shared machine: compare ratios within one run, not absolute times.\n");
    for (JdkRun r : runs) {
      double load = loadAverage(r.loadBefore);
      double cores = Double.parseDouble(cpus().replaceAll("[^0-9]", "0"));
      if (cores > 0 && load > cores) {
        b.append("- **Noisy run:** the 1-minute load average was ").append(fmt(load)).append(" on ")
            .append(cpus()).append(" CPUs before the JDK ").append(r.version)
            .append(" run (other work on the shared machine), so errors are wide; rerun on a quiet machine")
            .append(" before quoting a ratio whose range crosses its goal.\n");
      }
    }
    b.append("- Scores are ns per operation, JMH average time, ± the 99.9% error; ratios show [low–high] from")
        .append(" those errors. Every measured loop runs on a worker thread that the JMH thread hands a batch of")
        .append(" 10,000 operations, the same hand-off for every competitor.\n\n");

    b.append("## Goals (JDK ").append(main.version).append(")\n\n");
    b.append("| goal | target | measured | verdict | why |\n|---|---|---|---|---|\n");
    for (String[] g : goals) {
      b.append("| ").append(String.join(" | ", g)).append(" |\n");
    }
    for (JdkRun r : runs) {
      b.append("\n## JDK ").append(r.version).append("\n\n");
      b.append("### Suspend + resume, ns per operation\n\n");
      b.append("One operation: `continuation*` one `run()` that restores `depth` woven frames and captures them")
          .append(" again; `virtualThread` one park/unpark switch (half a ping-pong round trip), both threads")
          .append(" parked `depth` frames deep; `virtualThreadYield` one `Thread.yield()`; `stateMachine` one")
          .append(" re-entry of a hand-written chain of `depth` frame objects. `continuationOffCarrier` is the same")
          .append(" continuation on a plain platform thread (the thread-local fallback).\n\n");
      b.append("| depth |");
      for (String c : COMPETITORS) {
        b.append(' ').append(c).append(" |");
      }
      b.append(" continuation ÷ virtualThread | continuation ÷ stateMachine | offCarrier ÷ continuation |\n|---|");
      b.append("---|".repeat(COMPETITORS.length + 3)).append('\n');
      for (String d : DEPTHS) {
        b.append("| ").append(d).append(" |");
        for (String c : COMPETITORS) {
          double[] s = r.scores.get("switch/" + c + "/" + d);
          b.append(' ').append(s == null && c.startsWith("virtual") && !r.virtualThreads ? "skipped" : cell(s))
              .append(" |");
        }
        double[] cont = r.scores.get("switch/continuation/" + d);
        b.append(' ').append(ratioCell(ratio(cont, r.scores.get("switch/virtualThread/" + d)))).append(" |");
        b.append(' ').append(ratioCell(ratio(cont, r.scores.get("switch/stateMachine/" + d)))).append(" |");
        b.append(' ').append(ratioCell(ratio(r.scores.get("switch/continuationOffCarrier/" + d), cont)))
            .append(" |\n");
      }
      b.append("\n### Non-suspending call, ns per call of a chain `depth` methods deep\n\n");
      b.append("`fiber`: on a CarrierThread inside a continuation that never suspends; `offFiber`: on a plain")
          .append(" platform thread through `Continuation.runOnThread` (no continuation, thread-local fallback).")
          .append(" `jit`: the JIT inlines as it likes; `never`: every method of the chain is kept out of line.\n\n");
      b.append("| inlining | thread | depth | woven | unwoven | woven ÷ unwoven |\n|---|---|---|---|---|---|\n");
      for (String inl : new String[] {"jit", "never"}) {
        for (String t : new String[] {"fiber", "offFiber"}) {
          for (String d : DEPTHS) {
            double[] w = r.scores.get("call/" + inl + "/" + t + "/woven/" + d);
            double[] u = r.scores.get("call/" + inl + "/" + t + "/unwoven/" + d);
            b.append("| ").append(inl).append(" | ").append(t).append(" | ").append(d).append(" | ")
                .append(cell(w)).append(" | ").append(cell(u)).append(" | ").append(ratioCell(ratio(w, u)))
                .append(" |\n");
          }
        }
      }
      b.append("\n### Heap per suspended continuation / parked virtual thread\n\n");
      b.append("Used heap after `System.gc()` with the items held minus before, ÷ count; fixed heap, SerialGC.")
          .append(" Depth 1: the body suspends with two live locals (a long and a reference); depth 5: the same")
          .append(" body under four more frames.\n\n");
      b.append("| depth | continuation (B) | virtual thread (B) | continuation ÷ virtual thread |\n|---|---|---|---|\n");
      for (String d : new String[] {"1", "5"}) {
        Double c = r.heap.get("continuation" + d);
        Double v = r.heap.get("virtualThread" + d);
        b.append("| ").append(d).append(" | ").append(c == null ? "—" : fmt(c)).append(" | ")
            .append(v == null ? (r.virtualThreads ? "—" : "skipped") : fmt(v)).append(" | ")
            .append(c == null || v == null ? "—" : fmtRatio(c / v)).append(" |\n");
      }
    }
    return b.toString();
  }

  private String fragment(JdkRun run, List<String[]> goals) {
    StringBuilder b = new StringBuilder();
    b.append("### Continuations (issue #2)\n\n");
    b.append("JDK ").append(run.version).append(", one core (`taskset -c 0`), one virtual-thread carrier; load `")
        .append(run.loadBefore.replaceAll(".*load average: ", "")).append("`. Reproduce with `")
        .append(command.isEmpty() ? "loadtest/bench/issue2.sh" : command).append("`; full tables in `loadtest/results/")
        .append(name).append(".md`.\n\n");
    b.append("| measure | krill | virtual thread | state machine | krill ÷ virtual thread |\n|---|---|---|---|---|\n");
    for (String d : DEPTHS) {
      double[] c = run.scores.get("switch/continuation/" + d);
      double[] v = run.scores.get("switch/virtualThread/" + d);
      double[] s = run.scores.get("switch/stateMachine/" + d);
      b.append("| suspend+resume, depth ").append(d).append(" (ns) | ").append(cell(c)).append(" | ")
          .append(cell(v)).append(" | ").append(cell(s)).append(" | ").append(ratioCell(ratio(c, v))).append(" |\n");
    }
    for (String d : new String[] {"1", "5"}) {
      Double c = run.heap.get("continuation" + d);
      Double v = run.heap.get("virtualThread" + d);
      b.append("| heap per suspended fiber, depth ").append(d).append(" (B) | ").append(c == null ? "—" : fmt(c))
          .append(" | ").append(v == null ? "—" : fmt(v)).append(" | — | ")
          .append(c == null || v == null ? "—" : fmtRatio(c / v)).append(" |\n");
    }
    b.append("\n| woven ÷ unwoven call, on a fiber | depth 1 | depth 5 | depth 20 |\n|---|---|---|---|\n");
    for (String inl : new String[] {"jit", "never"}) {
      for (String t : new String[] {"fiber", "offFiber"}) {
        b.append("| ").append(inl.equals("jit") ? "JIT inlines" : "out of line").append(", ")
            .append(t.equals("fiber") ? "carrier thread" : "off-fiber (thread-local fallback)").append(" |");
        for (String d : DEPTHS) {
          b.append(' ').append(ratioCell(ratio(run.scores.get("call/" + inl + "/" + t + "/woven/" + d),
              run.scores.get("call/" + inl + "/" + t + "/unwoven/" + d)))).append(" |");
        }
        b.append('\n');
      }
    }
    b.append("\n| goal | target | measured | verdict |\n|---|---|---|---|\n");
    for (String[] g : goals) {
      b.append("| ").append(g[0]).append(" | ").append(g[1]).append(" | ").append(g[2]).append(" | ").append(g[3])
          .append(" |\n");
    }
    return b.toString();
  }

  private String json(List<JdkRun> runs, List<String[]> goals) {
    StringBuilder b = new StringBuilder();
    b.append("{\n  \"name\": ").append(q(name)).append(",\n  \"command\": ")
        .append(q(command.isEmpty() ? "loadtest/bench/issue2.sh" : command)).append(",\n  \"commit\": ")
        .append(q(commit)).append(",\n  \"quick\": ").append(quick).append(",\n  \"goals\": [");
    for (int i = 0; i < goals.size(); i++) {
      String[] g = goals.get(i);
      b.append(i == 0 ? "\n" : ",\n").append("    {\"goal\": ").append(q(g[0])).append(", \"target\": ").append(q(g[1]))
          .append(", \"measured\": ").append(q(g[2])).append(", \"verdict\": ").append(q(g[3])).append(", \"why\": ")
          .append(q(g[4])).append('}');
    }
    b.append("\n  ],\n  \"runs\": [");
    for (int i = 0; i < runs.size(); i++) {
      JdkRun r = runs.get(i);
      b.append(i == 0 ? "\n" : ",\n").append("    {\n      \"jdk\": ").append(q(r.version)).append(",\n      \"home\": ")
          .append(q(r.home)).append(",\n      \"virtualThreads\": ").append(r.virtualThreads)
          .append(",\n      \"loadBefore\": ").append(q(r.loadBefore)).append(",\n      \"loadAfter\": ")
          .append(q(r.loadAfter)).append(",\n      \"jmhCommand\": ").append(q(jmhCommand(r)))
          .append(",\n      \"heapCommand\": ").append(q(heapCommand(r))).append(",\n      \"heapBytesPerItem\": {");
      int j = 0;
      for (Map.Entry<String, Double> e : r.heap.entrySet()) {
        b.append(j++ == 0 ? "" : ", ").append(q(e.getKey())).append(": ").append(String.format(Locale.ROOT, "%.1f", e.getValue()));
      }
      b.append("},\n      \"heapLines\": [");
      for (int k = 0; k < r.heapLines.size(); k++) {
        b.append(k == 0 ? "" : ", ").append(q(r.heapLines.get(k)));
      }
      b.append("],\n      \"jmh\": ").append(r.jmhJson.isEmpty() ? "[]" : r.jmhJson.replace("\n", "\n      "))
          .append("\n    }");
    }
    b.append("\n  ]\n}\n");
    return b.toString();
  }

}
