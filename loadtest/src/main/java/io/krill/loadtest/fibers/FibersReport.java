package io.krill.loadtest.fibers;

import static io.krill.loadtest.internal.Reports.cell;
import static io.krill.loadtest.internal.Reports.fmt;
import static io.krill.loadtest.internal.Reports.fmtRatio;
import static io.krill.loadtest.internal.Reports.median;
import static io.krill.loadtest.internal.Reports.q;

import io.krill.loadtest.internal.Reports;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Runs the fiber benchmarks of issue 3 and writes {@code NAME.json}, {@code NAME.md} (tables,
 * ratios, goals with MET/MISSED and why) and {@code README-fragment-issue3.md}.
 *
 * <pre>
 * java -cp benchmarks.jar io.krill.loadtest.fibers.FibersReport --jdk HOME --jar benchmarks.jar \
 *     --out loadtest/results --name 2026-11-21-fibers [--quick | --full] [--rounds N]
 * </pre>
 *
 * <p>Each round runs, as JMH subprocesses, the one-carrier benchmarks pinned to CPU 0
 * ({@code taskset -c 0}: CommsTime, ring, spawn+join, park/unpark) and then the cross-loop
 * benchmark on both CPUs, so competitors alternate round by round; ratios are taken within a
 * round and the report gives their median and spread. Then one JVM per {@link MaxProcesses}
 * kind (fixed heap, SerialGC) and one {@link Mandelbrot} JVM (competitors interleaved inside).
 */
public final class FibersReport {
  /*
   * Implementation notes.
   *
   * A ratio is "how many times faster krill is": competitor time / fiber time, per round; the
   * median over rounds is judged, and every round's value is printed. The goal comparisons
   * use the faster of the two virtual-thread variants (SynchronousQueue, krill channel), so a
   * MET does not depend on picking the slower opponent.
   */
  private static final double GOAL_SPEEDUP = 5;
  private static final double GOAL_PARKED_BYTES = 150;
  private static final String PINNED = "CommsTimeBenchmark|RingBenchmark|SpawnJoinBenchmark|ParkUnparkBenchmark";
  private static final String CROSS = "CrossLoopUnparkBenchmark";
  private static final String[] CHANNEL = Model.CHANNEL_COMPETITORS;
  private static final String VT_TARGET = "≥ 5× faster than virtual threads (the faster of SynchronousQueue and"
      + " krill channel)";
  private static final String[] VT = {"virtualThreadSyncQueue", "virtualThreadChannel"};
  private static final String[] KINDS = {"fiberParked", "fiberParkedTracked", "virtualThreadParked", "fiberPairs",
      "fiberPairsTracked", "virtualThreadPairs", "platformPairs"};

  private Path jdk = Paths.get(System.getProperty("java.home"));
  private Path jar = Paths.get("loadtest/target/benchmarks.jar");
  private Path out = Paths.get("loadtest/results");
  private String name = "fibers";
  private String mode = "default";
  private int rounds = -1;
  private String command = "loadtest/bench/issue3.sh";
  private String commit = "";

  private int warmups;
  private int iterations;
  private long maxStrands;
  private long maxPlatform;
  private String heap;
  private int mandelWidth;
  private int mandelHeight;
  private int mandelRounds;
  private long harnessSeconds;

  private String version;
  private final List<String> loads = new ArrayList<>();
  private final List<String> jmhCommands = new ArrayList<>();
  private final List<String> problems = new ArrayList<>();
  /** key -> one {score, error} per round. */
  private final Map<String, List<double[]>> scores = new LinkedHashMap<>();
  private final Map<String, List<Map<String, String>>> steps = new LinkedHashMap<>();
  private final Map<String, Map<String, String>> results = new LinkedHashMap<>();
  private final Map<String, String> heapCommands = new LinkedHashMap<>();
  private final Map<String, List<Double>> mandelSeconds = new LinkedHashMap<>();
  private final Map<String, String> mandelChecksums = new LinkedHashMap<>();
  private boolean mandelMatch = true;
  private String mandelCommand = "";
  private final List<String> rawLines = new ArrayList<>();

  private FibersReport() {}

  /**
   * Runs everything and writes the report.
   *
   * @param args see the class comment
   * @throws Exception when a run or the writing fails
   */
  public static void main(String[] args) throws Exception {
    FibersReport r = new FibersReport();
    r.parse(args);
    r.run();
    r.write();
    if (r.scores.isEmpty()) {
      System.err.println("FibersReport: JMH produced no results (see the problems in the report); failing");
      System.exit(1);
    }
  }

  private void parse(String[] args) {
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      if (a.equals("--quick") || a.equals("--full")) {
        mode = a.substring(2);
        continue;
      }
      if (i + 1 == args.length) {
        usage("missing value after " + a);
      }
      String v = args[++i];
      switch (a) {
        case "--jdk":
          jdk = Paths.get(v);
          break;
        case "--jar":
          jar = Paths.get(v);
          break;
        case "--out":
          out = Paths.get(v);
          break;
        case "--name":
          name = v;
          break;
        case "--rounds":
          rounds = Integer.parseInt(v);
          if (rounds < 1 || rounds > 20) {
            usage("--rounds: " + v + " (expected: 1..20)");
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
    switch (mode) {
      case "quick":
        set(1, 1, 1, 100_000, 2_000, "1g", 200, 150, 1, 120);
        break;
      case "full":
        set(3, 3, 5, 10_000_000, 20_000, "8g", 4000, 3000, 3, 1200);
        break;
      default:
        set(3, 2, 3, 1_000_000, 10_000, "2g", 800, 600, 3, 300);
    }
  }

  private void set(int r, int w, int i, long strands, long platform, String h, int mw, int mh, int mr, long secs) {
    rounds = rounds > 0 ? rounds : r;
    warmups = w;
    iterations = i;
    maxStrands = strands;
    maxPlatform = platform;
    heap = h;
    mandelWidth = mw;
    mandelHeight = mh;
    mandelRounds = mr;
    harnessSeconds = secs;
  }

  private static void usage(String why) {
    System.err.println("FibersReport: " + why);
    System.err.println("usage: FibersReport --jdk HOME --jar BENCHMARKS_JAR --out DIR --name NAME [--quick|--full]"
        + " [--rounds N] [--command TEXT] [--commit SHA]");
    System.exit(2);
  }

  // ---------------------------------------------------------------- running

  private String java() {
    return jdk.resolve("bin/java").toString();
  }

  private void run() throws IOException, InterruptedException {
    version = Reports.javaVersion(jdk);
    load("start");
    for (int r = 1; r <= rounds; r++) {
      jmh(r, PINNED, true);
      jmh(r, CROSS, false);
      load("after JMH round " + r);
    }
    for (String kind : KINDS) {
      maxProcesses(kind);
    }
    load("after max-process runs");
    mandelbrot();
    load("after Mandelbrot");
  }

  private void load(String when) {
    String u = Reports.uptime();
    loads.add(when + ": `" + u + "`");
    System.out.println("== load " + when + ": " + u);
  }

  private void jmh(int round, String include, boolean pinned) throws IOException, InterruptedException {
    Path json = Files.createTempFile("krill-jmh-", ".json");
    List<String> cmd = new ArrayList<>();
    if (pinned) {
      cmd.addAll(List.of("taskset", "-c", "0"));
    }
    cmd.addAll(List.of(java(), "-jar", jar.toString(), include, "-f", "1", "-wi", Integer.toString(warmups),
        "-i", Integer.toString(iterations), "-w", "1s", "-r", "1s", "-jvm", java(), "-rf", "json", "-rff",
        json.toString()));
    if (round == 1) {
      jmhCommands.add(String.join(" ", cmd).replace(json.toString(), "RESULT.json").replace(jar.toString(),
          "loadtest/target/benchmarks.jar"));
    }
    System.out.println("== round " + round + ": " + String.join(" ", cmd));
    List<String> lines = Reports.exec(cmd, true);
    String text = Files.readString(json, StandardCharsets.UTF_8);
    Files.delete(json);
    int found = 0;
    for (String entry : text.split("\"jmhVersion\"")) {
      Matcher b = Pattern.compile("\"benchmark\"\\s*:\\s*\"[^\"]*\\.(\\w+)Benchmark\\.\\w+\"").matcher(entry);
      Matcher c = Pattern.compile("\"competitor\"\\s*:\\s*\"(\\w+)\"").matcher(entry);
      Matcher t = Pattern.compile("\"tokens\"\\s*:\\s*\"(\\d+)\"").matcher(entry);
      Matcher s = Pattern.compile("\"primaryMetric\"\\s*:\\s*\\{\\s*\"score\"\\s*:\\s*([0-9.Ee+-]+),\\s*"
          + "\"scoreError\"\\s*:\\s*\"?([0-9.Ee+-]+|NaN)\"?").matcher(entry);
      if (!b.find() || !c.find() || !s.find()) {
        continue;
      }
      String key = b.group(1) + "/" + c.group(1) + (t.find() ? "/" + t.group(1) : "");
      scores.computeIfAbsent(key, k -> new ArrayList<>())
          .add(new double[] {Double.parseDouble(s.group(1)), Double.parseDouble(s.group(2))});
      found++;
    }
    if (found == 0) {
      problems.add("JMH round " + round + " (" + include + ") produced no results; last lines: "
          + String.join(" / ", lines.subList(Math.max(0, lines.size() - 5), lines.size())));
    }
    for (String l : lines) {
      if (l.contains("Exception") || l.contains("<failure>")) {
        problems.add("JMH round " + round + ": " + l.trim());
      }
    }
  }

  private void maxProcesses(String kind) throws IOException, InterruptedException {
    boolean platform = kind.startsWith("platform");
    String h = platform ? "1g" : heap;
    List<String> cmd = new ArrayList<>(List.of(java(), "-Xms" + h, "-Xmx" + h, "-XX:+UseSerialGC"));
    if (platform) {
      cmd.add("-XX:+AlwaysPreTouch");
    }
    cmd.addAll(List.of("-cp", jar.toString(), MaxProcesses.class.getName(), kind,
        Long.toString(platform ? maxPlatform : maxStrands), Long.toString(harnessSeconds)));
    heapCommands.put(kind, String.join(" ", cmd).replace(jar.toString(), "loadtest/target/benchmarks.jar"));
    System.out.println("== " + String.join(" ", cmd));
    List<String> lines = Reports.exec(cmd, true);
    List<Map<String, String>> st = new ArrayList<>();
    for (String l : lines) {
      if (l.startsWith("step ")) {
        st.add(fields(l));
        rawLines.add(l);
      } else if (l.startsWith("result ")) {
        results.put(kind, fields(l));
        rawLines.add(l);
      }
    }
    steps.put(kind, st);
    if (!results.containsKey(kind)) {
      problems.add("MaxProcesses " + kind + " printed no result; last lines: "
          + String.join(" / ", lines.subList(Math.max(0, lines.size() - 5), lines.size())));
    } else if (!"true".equals(results.get(kind).get("ok")) && !results.get(kind).containsKey("skipped:")) {
      problems.add("MaxProcesses " + kind + ": " + String.join(" ", lines.subList(Math.max(0, lines.size() - 1),
          lines.size())));
    }
  }

  private void mandelbrot() throws IOException, InterruptedException {
    List<String> cmd = List.of(java(), "-Xms2g", "-Xmx2g", "-cp", jar.toString(), Mandelbrot.class.getName(),
        Integer.toString(mandelWidth), Integer.toString(mandelHeight), Integer.toString(mandelRounds),
        Long.toString(harnessSeconds * 3));
    mandelCommand = String.join(" ", cmd).replace(jar.toString(), "loadtest/target/benchmarks.jar");
    System.out.println("== " + mandelCommand);
    List<String> lines = Reports.exec(cmd, true);
    for (String l : lines) {
      if (!l.startsWith("mandelbrot competitor=") || l.contains("skipped")) {
        continue;
      }
      rawLines.add(l);
      Map<String, String> f = fields(l);
      mandelSeconds.computeIfAbsent(f.get("competitor"), k -> new ArrayList<>())
          .add(Double.parseDouble(f.get("seconds")));
      mandelChecksums.put(f.get("competitor"), f.get("checksum"));
      mandelMatch &= "true".equals(f.get("match"));
    }
    if (mandelSeconds.isEmpty()) {
      problems.add("Mandelbrot printed no result; last lines: "
          + String.join(" / ", lines.subList(Math.max(0, lines.size() - 5), lines.size())));
    }
  }

  private static Map<String, String> fields(String line) {
    Map<String, String> m = new LinkedHashMap<>();
    Matcher f = Pattern.compile("(\\w+)=(\"[^\"]*\"|\\S+)").matcher(line);
    while (f.find()) {
      m.put(f.group(1), f.group(2).replace("\"", ""));
    }
    if (line.contains("skipped:")) {
      m.put("skipped:", line.substring(line.indexOf("skipped:")));
    }
    return m;
  }

  // ---------------------------------------------------------------- numbers

  /** @return per round: other's score / fiber's score; empty if either is missing */
  private List<Double> speedups(String fiberKey, String otherKey) {
    List<double[]> f = scores.get(fiberKey);
    List<double[]> o = scores.get(otherKey);
    List<Double> r = new ArrayList<>();
    if (f == null || o == null) {
      return r;
    }
    for (int i = 0; i < Math.min(f.size(), o.size()); i++) {
      r.add(o.get(i)[0] / f.get(i)[0]);
    }
    return r;
  }

  /** @return per round: the faster virtual-thread variant's score / fiber's score */
  private List<Double> speedupOverVt(String prefix, String suffix) {
    List<Double> a = speedups(prefix + "fiber" + suffix, prefix + VT[0] + suffix);
    List<Double> b = speedups(prefix + "fiber" + suffix, prefix + VT[1] + suffix);
    List<Double> r = new ArrayList<>();
    for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
      r.add(Math.min(a.get(i), b.get(i)));
    }
    return r.isEmpty() ? (a.isEmpty() ? b : a) : r;
  }

  private static String ratioCell(List<Double> r) {
    if (r.isEmpty()) {
      return "—";
    }
    if (r.size() == 1) {
      return fmtRatio(r.get(0));
    }
    StringBuilder b = new StringBuilder(fmtRatio(median(r))).append(" (rounds:");
    for (double d : r) {
      b.append(' ').append(fmtRatio(d));
    }
    return b.append(')').toString();
  }

  private String scoreCell(String key) {
    List<double[]> s = scores.get(key);
    if (s == null) {
      return "—";
    }
    List<String> cells = new ArrayList<>();
    for (double[] d : s) {
      cells.add(cell(d));
    }
    return String.join("; ", cells);
  }

  private double medianScore(String key) {
    List<double[]> s = scores.get(key);
    if (s == null) {
      return Double.NaN;
    }
    List<Double> v = new ArrayList<>();
    for (double[] d : s) {
      v.add(d[0]);
    }
    return median(v);
  }

  private Double lastStep(String kind, String field) {
    List<Map<String, String>> st = steps.get(kind);
    if (st == null || st.isEmpty()) {
      return null;
    }
    return Double.parseDouble(st.get(st.size() - 1).get(field));
  }

  // ---------------------------------------------------------------- goals

  /** Rows: goal, target, measured, verdict, why. */
  private List<String[]> goals() {
    List<String[]> rows = new ArrayList<>();
    speedGoal(rows, "CommsTime, ns per cycle, one carrier", speedupOverVt("CommsTime/", ""),
        medianScore("CommsTime/fiber"), Why.COMMS_TIME, VT_TARGET);
    speedGoal(rows, "ring of 256, 1 token, ns per hop, one carrier", speedupOverVt("Ring/", "/1"),
        medianScore("Ring/fiber/1"), Why.RING, VT_TARGET);
    speedGoal(rows, "ring of 256, 64 tokens, ns per hop, one carrier", speedupOverVt("Ring/", "/64"),
        medianScore("Ring/fiber/64"), Why.RING, VT_TARGET);
    List<Double> trackedSpawn = speedups("SpawnJoin/fiberTracked", "SpawnJoin/virtualThread");
    speedGoal(rows, "spawn + join, ns per child, one carrier", speedups("SpawnJoin/fiber", "SpawnJoin/virtualThread"),
        medianScore("SpawnJoin/fiber"), Why.SPAWN + (trackedSpawn.isEmpty() ? "" : "; with the registry on a fiber"
            + " is " + ratioCell(trackedSpawn) + " faster than a virtual thread"), "≥ 5× faster than virtual threads");

    Double untracked = lastStep("fiberParked", "bytesPerStrand");
    Double tracked = lastStep("fiberParkedTracked", "bytesPerStrand");
    Double vt = lastStep("virtualThreadParked", "bytesPerStrand");
    String goal = "heap per parked fiber, shallow stack (Fiber.park() in the body)";
    if (untracked == null) {
      rows.add(new String[] {goal, "≤ 150 B and ≥ 5× smaller than a virtual thread", "—", "NOT MEASURED",
          "no result"});
    } else {
      boolean met = untracked <= GOAL_PARKED_BYTES && (vt == null || vt / untracked >= GOAL_SPEEDUP);
      String measured = fmt(untracked) + " B (library default, no live-fiber registry)"
          + (tracked == null ? "" : ", " + fmt(tracked) + " B with the registry") + (vt == null ? ""
          : "; virtual thread " + fmt(vt) + " B (" + fmtRatio(vt / untracked) + " smaller)");
      rows.add(new String[] {goal, "≤ 150 B and ≥ 5× smaller than a virtual thread", measured,
          met ? "MET" : "MISSED", Why.heap(tracked, untracked, vt)});
    }

    List<Double> cross = new ArrayList<>();
    for (double s : speedups("CrossLoopUnpark/fiber", "CrossLoopUnpark/virtualThread")) {
      cross.add(1 / s);
    }
    goal = "cross-loop park→unpark, ns per one-way hand-over, two carriers";
    if (cross.isEmpty()) {
      rows.add(new String[] {goal, "fiber ÷ virtual thread ≤ 1×", "—", "NOT MEASURED", "no result"});
    } else {
      double m = median(cross);
      rows.add(new String[] {goal, "fiber ÷ virtual thread ≤ 1×", ratioCell(cross) + " (" + fmt(medianScore(
          "CrossLoopUnpark/fiber")) + " vs " + fmt(medianScore("CrossLoopUnpark/virtualThread")) + " ns)",
          verdict(m <= 1, cross, x -> x <= 1), (m <= 1 ? "" : "missed by " + fmtRatio(m) + "; ") + Why.CROSS_LOOP});
    }
    return rows;
  }

  private void speedGoal(List<String[]> rows, String goal, List<Double> speedup, double fiberNs, String why,
      String target) {
    if (speedup.isEmpty()) {
      rows.add(new String[] {goal, target, "—", "NOT MEASURED", "no result (" + fmt(fiberNs) + " ns fiber)"});
      return;
    }
    double m = median(speedup);
    String missed = m >= GOAL_SPEEDUP ? "" : "missed by " + fmtRatio(GOAL_SPEEDUP / m) + ": 5× needs about "
        + fmt(fiberNs * m / GOAL_SPEEDUP) + " ns per operation, the fiber took " + fmt(fiberNs) + " ns; ";
    rows.add(new String[] {goal, target, ratioCell(speedup) + " faster (fiber " + fmt(fiberNs) + " ns)",
        verdict(m >= GOAL_SPEEDUP, speedup, x -> x >= GOAL_SPEEDUP), missed + why});
  }

  private static String verdict(boolean met, List<Double> rounds, java.util.function.DoublePredicate ok) {
    boolean every = rounds.stream().allMatch(ok::test);
    if (met) {
      return every ? "MET" : "MET (not in every round)";
    }
    return rounds.stream().anyMatch(ok::test) ? "MISSED (met in some rounds)" : "MISSED";
  }

  // ---------------------------------------------------------------- writing

  private void write() throws IOException {
    Files.createDirectories(out);
    List<String[]> goals = goals();
    Files.writeString(out.resolve(name + ".md"), markdown(goals));
    Files.writeString(out.resolve(name + ".json"), json(goals));
    Files.writeString(out.resolve("README-fragment-issue3.md"), fragment(goals));
    System.out.println("wrote " + out.resolve(name + ".md") + ", " + out.resolve(name + ".json") + " and "
        + out.resolve("README-fragment-issue3.md"));
  }

  private String markdown(List<String[]> goals) {
    StringBuilder b = new StringBuilder();
    b.append("# Fibers: CSP workloads, spawn, park/unpark and heap against virtual and platform threads (issue #3)\n\n");
    b.append("- Command: `").append(command).append("`\n");
    if (!commit.isEmpty()) {
      b.append("- Commit: `").append(commit).append("`\n");
    }
    b.append("- JDK ").append(version).append(" (`").append(jdk).append("`); mode `").append(mode).append("`: ")
        .append(rounds).append(" round(s) of JMH, `-f 1 -wi ").append(warmups).append(" -i ").append(iterations)
        .append("`, 1 s iterations\n");
    for (String c : jmhCommands) {
      b.append("  - JMH: `").append(c).append("`\n");
    }
    for (Map.Entry<String, String> e : heapCommands.entrySet()) {
      b.append("  - max-process ").append(e.getKey()).append(": `").append(e.getValue()).append("`\n");
    }
    b.append("  - Mandelbrot: `").append(mandelCommand).append("`\n");
    b.append("- Machine: ").append(Reports.cpus()).append(" CPUs, shared with other engineers. One-carrier JMH runs")
        .append(" are pinned with `taskset -c 0`: the JMH thread, the carriers (one event loop;")
        .append(" `-Djdk.virtualThreadScheduler.parallelism=1`) and platform threads share one core. Cross-loop,")
        .append(" max-process and Mandelbrot runs use both CPUs. Compare ratios within a round, not absolute times.\n");
    b.append("- Load (uptime):\n");
    for (String l : loads) {
      b.append("  - ").append(l).append('\n');
    }
    double maxLoad = 0;
    for (String l : loads) {
      maxLoad = Math.max(maxLoad, Reports.loadAverage(l));
    }
    if (maxLoad > Reports.cpus()) {
      b.append("- **Noisy run:** the 1-minute load average reached ").append(fmt(maxLoad)).append(" on ")
          .append(Reports.cpus()).append(" CPUs (other work on the machine); errors are wide and absolute times")
          .append(" inflated. The ratios interleave competitors round by round, which is what they are for.\n");
    }
    for (String p : problems) {
      b.append("- **Problem:** ").append(p).append('\n');
    }
    b.append("- Scores: ns per operation, JMH average time ± its 99.9% error, one cell per round (`;`-separated).")
        .append(" Speed-ups: competitor ÷ fiber in the same round; the median, then each round.\n\n");

    b.append("## Goals\n\n| goal | target | measured | verdict | why |\n|---|---|---|---|---|\n");
    for (String[] g : goals) {
      b.append("| ").append(String.join(" | ", g)).append(" |\n");
    }

    b.append("\n## CommsTime, ns per cycle (one carrier)\n\n")
        .append("prefix → delta → succ → prefix with delta also feeding the consumer; one cycle is four")
        .append(" rendezvous communications. `*SyncQueue`: `java.util.concurrent.SynchronousQueue`; `*Channel`:")
        .append(" krill's `Channel` blocking the thread.\n\n");
    b.append("| competitor | ns per cycle | ÷ fiber |\n|---|---|---|\n");
    for (String c : CHANNEL) {
      b.append("| ").append(c).append(" | ").append(scoreCell("CommsTime/" + c)).append(" | ")
          .append(c.equals("fiber") ? "1×" : ratioCell(speedups("CommsTime/fiber", "CommsTime/" + c))).append(" |\n");
    }
    b.append("\n## Ring of 256 processes, ns per hop (one carrier)\n\n");
    b.append("| tokens | competitor | ns per hop | ÷ fiber |\n|---|---|---|---|\n");
    for (String t : new String[] {"1", "64"}) {
      for (String c : CHANNEL) {
        b.append("| ").append(t).append(" | ").append(c).append(" | ").append(scoreCell("Ring/" + c + "/" + t))
            .append(" | ").append(c.equals("fiber") ? "1×" : ratioCell(speedups("Ring/fiber/" + t,
                "Ring/" + c + "/" + t))).append(" |\n");
      }
    }
    table(b, "Spawn + join, ns per child (one carrier)", "SpawnJoin",
        new String[] {"fiber", "fiberTracked", "virtualThread", "platform"},
        "`fiber`: the library default (no live-fiber registry); `fiberTracked`: the registry on (`-Dkrill.fibers.track=true`, as `bin/krill` and the tests run).");
    table(b, "Park → unpark, one-way, ns per hand-over (one carrier)", "ParkUnpark",
        new String[] {"fiber", "virtualThread", "platform"}, "Ping-pong with park/unpark; one hand-over is half a"
            + " round trip.");
    table(b, "Park → unpark across carriers, ns per hand-over (two CPUs)", "CrossLoopUnpark",
        new String[] {"fiber", "fiberSameLoop", "virtualThread", "platform"}, "`fiber`: two event loops, one fiber"
            + " homed on each, so every hand-over wakes the other loop; `fiberSameLoop`: both fibers homed on one of"
            + " the two loops; `virtualThread`: parallelism 2, the JDK scheduler places them.");

    b.append("\n## Max processes: live strands in one JVM, heap per strand\n\n")
        .append("Used heap after full GCs minus the baseline, over the live strands, at each step (fixed heap,")
        .append(" SerialGC); RSS growth per strand beside it (platform threads: heap pre-touched, so RSS growth is")
        .append(" their native stacks and thread structures). `*Pairs`: a reader parked in `receive` and a writer")
        .append(" parked until release per rendezvous channel (the channel counts half to each); `*Parked`: a body")
        .append(" that only parks. `*Tracked`: the live-fiber registry on (off is the library default).\n\n");
    b.append("| kind | live strands | B per strand (heap) | B per strand (RSS) | spawn ns per strand |\n|---|---|---|---|---|\n");
    for (String k : KINDS) {
      for (Map<String, String> s : steps.getOrDefault(k, List.of())) {
        b.append("| ").append(k).append(" | ").append(String.format(Locale.ROOT, "%,d", Long.parseLong(s.get("live"))))
            .append(" | ").append(fmt(Double.parseDouble(s.get("bytesPerStrand")))).append(" | ")
            .append(fmt(Double.parseDouble(s.get("rssPerStrand")))).append(" | ")
            .append(fmt(Double.parseDouble(s.get("spawnNsPerStrand")))).append(" |\n");
      }
    }
    b.append("\n| kind | max live | stopped by | all exchanges done | release time (s) |\n|---|---|---|---|---|\n");
    for (String k : KINDS) {
      Map<String, String> r = results.get(k);
      if (r == null) {
        b.append("| ").append(k).append(" | — | no result | — | — |\n");
      } else if (r.containsKey("skipped:")) {
        b.append("| ").append(k).append(" | — | ").append(r.get("skipped:")).append(" | — | — |\n");
      } else {
        b.append("| ").append(k).append(" | ").append(String.format(Locale.ROOT, "%,d", Long.parseLong(r.get("maxLive"))))
            .append(" | ").append(r.get("stoppedBy")).append(" | ").append(r.get("completed")).append('/')
            .append(r.get("expected")).append(" ").append(r.get("ok")).append(" | ").append(r.get("releaseSeconds"))
            .append(" |\n");
      }
    }

    b.append("\n## Pixel-parallel Mandelbrot, ").append(mandelWidth).append('×').append(mandelHeight)
        .append(", one strand per pixel (two CPUs)\n\n")
        .append("Seconds per image (median over ").append(mandelRounds).append(" interleaved rounds, then each round);")
        .append(" checksum = `Arrays.hashCode` of the escape counts, which must equal the sequential one. A strand per")
        .append(" row spawns a strand per pixel and joins them; at most ").append(Mandelbrot.ROWS)
        .append(" rows in flight. `platformPool`: a task per pixel on a pool of one thread per core.\n\n");
    b.append("| competitor | seconds | ns per pixel | ÷ fiberStealing | checksum |\n|---|---|---|---|---|\n");
    List<Double> fs = mandelSeconds.get("fiberStealing");
    double pixels = (double) mandelWidth * mandelHeight;
    for (String c : Mandelbrot.COMPETITORS) {
      List<Double> s = mandelSeconds.get(c);
      if (s == null) {
        b.append("| ").append(c).append(" | — | — | — | — |\n");
        continue;
      }
      StringBuilder each = new StringBuilder();
      for (double d : s) {
        each.append(each.length() == 0 ? "" : ", ").append(String.format(Locale.ROOT, "%.3f", d));
      }
      b.append("| ").append(c).append(" | ").append(String.format(Locale.ROOT, "%.3f", median(s))).append(" (")
          .append(each).append(") | ").append(fmt(median(s) * 1e9 / pixels)).append(" | ")
          .append(fs == null ? "—" : fmtRatio(median(s) / median(fs))).append(" | `").append(mandelChecksums.get(c))
          .append("` |\n");
    }
    b.append("\nChecksums ").append(mandelMatch ? "match" : "**DO NOT match**").append(" across competitors.\n");
    b.append("\n## Runtime findings\n\n").append(Why.FINDINGS).append('\n');
    return b.toString();
  }

  private void table(StringBuilder b, String title, String bench, String[] competitors, String note) {
    b.append("\n## ").append(title).append("\n\n").append(note).append("\n\n");
    b.append("| competitor | ns per op | ÷ fiber |\n|---|---|---|\n");
    for (String c : competitors) {
      b.append("| ").append(c).append(" | ").append(scoreCell(bench + "/" + c)).append(" | ")
          .append(c.equals("fiber") ? "1×" : ratioCell(speedups(bench + "/fiber", bench + "/" + c))).append(" |\n");
    }
  }

  private String fragment(List<String[]> goals) {
    StringBuilder b = new StringBuilder();
    b.append("### Fibers (issue #3)\n\n");
    b.append("JDK ").append(version).append("; one-carrier rows pinned to one core; load at start `")
        .append(loads.isEmpty() ? "?" : loads.get(0).replaceAll(".*load average: ", "").replace("`", ""))
        .append("`. Reproduce with `").append(command).append("`; full tables in `loadtest/results/").append(name)
        .append(".md`.\n\n");
    b.append("| workload | krill fiber | virtual thread (SynchronousQueue) | virtual thread (krill channel) |")
        .append(" platform thread (SynchronousQueue) | fiber speed-up over the faster virtual thread |\n")
        .append("|---|---|---|---|---|---|\n");
    fragmentRow(b, "CommsTime, ns per cycle", "CommsTime/", "", speedupOverVt("CommsTime/", ""));
    fragmentRow(b, "ring 256, 1 token, ns per hop", "Ring/", "/1", speedupOverVt("Ring/", "/1"));
    fragmentRow(b, "ring 256, 64 tokens, ns per hop", "Ring/", "/64", speedupOverVt("Ring/", "/64"));
    b.append("| spawn + join, ns per child | ").append(fmt(medianScore("SpawnJoin/fiber"))).append(" | ")
        .append(fmt(medianScore("SpawnJoin/virtualThread"))).append(" | — | ")
        .append(fmt(medianScore("SpawnJoin/platform"))).append(" | ")
        .append(ratioCell(speedups("SpawnJoin/fiber", "SpawnJoin/virtualThread"))).append(" |\n");
    b.append("| park→unpark one-way, one carrier, ns | ").append(fmt(medianScore("ParkUnpark/fiber"))).append(" | ")
        .append(fmt(medianScore("ParkUnpark/virtualThread"))).append(" | — | ")
        .append(fmt(medianScore("ParkUnpark/platform"))).append(" | ")
        .append(ratioCell(speedups("ParkUnpark/fiber", "ParkUnpark/virtualThread"))).append(" |\n");
    b.append("| park→unpark one-way, two carriers, ns | ").append(fmt(medianScore("CrossLoopUnpark/fiber"))).append(" | ")
        .append(fmt(medianScore("CrossLoopUnpark/virtualThread"))).append(" | — | ")
        .append(fmt(medianScore("CrossLoopUnpark/platform"))).append(" | ")
        .append(ratioCell(speedups("CrossLoopUnpark/fiber", "CrossLoopUnpark/virtualThread"))).append(" |\n");
    Double fp = lastStep("fiberParked", "bytesPerStrand");
    Double vp = lastStep("virtualThreadParked", "bytesPerStrand");
    b.append("| heap per parked strand, B | ").append(fp == null ? "—" : fmt(fp)).append(" | ")
        .append(vp == null ? "—" : fmt(vp)).append(" | — | — | ")
        .append(fp == null || vp == null ? "—" : fmtRatio(vp / fp) + " smaller").append(" |\n");
    Map<String, String> fr = results.get("fiberPairs");
    Map<String, String> vr = results.get("virtualThreadPairs");
    Map<String, String> pr = results.get("platformPairs");
    b.append("| max live strands in pairs (bound) | ").append(fr == null ? "—" : fr.get("maxLive")).append(" | ")
        .append(vr == null ? "—" : vr.get("maxLive")).append(" | — | ").append(pr == null ? "—" : pr.get("maxLive"))
        .append(" | — |\n");
    List<Double> fs = mandelSeconds.get("fiberStealing");
    List<Double> vs = mandelSeconds.get("virtualThread");
    List<Double> ps = mandelSeconds.get("platformPool");
    b.append("| Mandelbrot ").append(mandelWidth).append('×').append(mandelHeight).append(", s (pool for platform) | ")
        .append(fs == null ? "—" : String.format(Locale.ROOT, "%.3f", median(fs))).append(" | ")
        .append(vs == null ? "—" : String.format(Locale.ROOT, "%.3f", median(vs))).append(" | — | ")
        .append(ps == null ? "—" : String.format(Locale.ROOT, "%.3f", median(ps))).append(" | ")
        .append(fs == null || vs == null ? "—" : fmtRatio(median(vs) / median(fs))).append(" |\n");
    b.append("\n| goal | target | measured | verdict |\n|---|---|---|---|\n");
    for (String[] g : goals) {
      b.append("| ").append(g[0]).append(" | ").append(g[1]).append(" | ").append(g[2]).append(" | ").append(g[3])
          .append(" |\n");
    }
    return b.toString();
  }

  private void fragmentRow(StringBuilder b, String what, String prefix, String suffix, List<Double> speedup) {
    b.append("| ").append(what).append(" | ").append(fmt(medianScore(prefix + "fiber" + suffix))).append(" | ")
        .append(fmt(medianScore(prefix + VT[0] + suffix))).append(" | ")
        .append(fmt(medianScore(prefix + VT[1] + suffix))).append(" | ")
        .append(fmt(medianScore(prefix + "platformSyncQueue" + suffix))).append(" | ").append(ratioCell(speedup))
        .append(" |\n");
  }

  private String json(List<String[]> goals) {
    StringBuilder b = new StringBuilder();
    b.append("{\n  \"name\": ").append(q(name)).append(",\n  \"command\": ").append(q(command))
        .append(",\n  \"commit\": ").append(q(commit)).append(",\n  \"mode\": ").append(q(mode))
        .append(",\n  \"jdk\": ").append(q(version)).append(",\n  \"rounds\": ").append(rounds)
        .append(",\n  \"load\": [");
    for (int i = 0; i < loads.size(); i++) {
      b.append(i == 0 ? "" : ", ").append(q(loads.get(i)));
    }
    b.append("],\n  \"problems\": [");
    for (int i = 0; i < problems.size(); i++) {
      b.append(i == 0 ? "" : ", ").append(q(problems.get(i)));
    }
    b.append("],\n  \"goals\": [");
    for (int i = 0; i < goals.size(); i++) {
      String[] g = goals.get(i);
      b.append(i == 0 ? "\n" : ",\n").append("    {\"goal\": ").append(q(g[0])).append(", \"target\": ").append(q(g[1]))
          .append(", \"measured\": ").append(q(g[2])).append(", \"verdict\": ").append(q(g[3])).append(", \"why\": ")
          .append(q(g[4])).append('}');
    }
    b.append("\n  ],\n  \"jmhCommands\": [");
    for (int i = 0; i < jmhCommands.size(); i++) {
      b.append(i == 0 ? "" : ", ").append(q(jmhCommands.get(i)));
    }
    b.append("],\n  \"jmh\": {");
    int i = 0;
    for (Map.Entry<String, List<double[]>> e : scores.entrySet()) {
      b.append(i++ == 0 ? "\n" : ",\n").append("    ").append(q(e.getKey())).append(": [");
      int j = 0;
      for (double[] d : e.getValue()) {
        b.append(j++ == 0 ? "" : ", ").append(String.format(Locale.ROOT, "{\"score\": %.3f, \"error\": %s}", d[0],
            Double.isNaN(d[1]) ? "null" : String.format(Locale.ROOT, "%.3f", d[1])));
      }
      b.append(']');
    }
    b.append("\n  },\n  \"harnessCommands\": {");
    i = 0;
    for (Map.Entry<String, String> e : heapCommands.entrySet()) {
      b.append(i++ == 0 ? "\n" : ",\n").append("    ").append(q(e.getKey())).append(": ").append(q(e.getValue()));
    }
    b.append(",\n    \"mandelbrot\": ").append(q(mandelCommand)).append("\n  },\n  \"harnessLines\": [");
    for (int k = 0; k < rawLines.size(); k++) {
      b.append(k == 0 ? "\n    " : ",\n    ").append(q(rawLines.get(k)));
    }
    b.append("\n  ],\n  \"mandelbrotChecksumsMatch\": ").append(mandelMatch).append("\n}\n");
    return b.toString();
  }
}
