package io.krill.loadtest.echo;

import io.krill.loadtest.echo.EchoComparison.Cell;
import io.krill.loadtest.echo.EchoComparison.Settings;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * Writes the echo comparison's {@code NAME.json}, {@code NAME.md} and
 * {@code README-fragment-issue4.md}: round trips per second (median of the rounds and their
 * range), p50/p99 latency of all measured round trips, server CPU per round trip, the ratio to
 * raw Netty taken within each round, and the goals of issue #4 with a verdict.
 */
final class EchoReport {
  static final double GOAL_VS_NETTY = 0.9;
  static final double SATURATED_PERCENT = 90;
  static final Map<String, String> LABELS = Map.of(
      "fiber", "fibers on netio", "netty", "raw Netty", "virtual", "virtual thread per connection",
      "platform", "platform thread per connection");

  private EchoReport() {}

  /** Rounds of one server at one connection count. */
  static final class Summary {
    final String server;
    final int connections;
    final List<Cell> ok = new ArrayList<>();
    final List<String> errors = new ArrayList<>();
    final Histogram histogram = new Histogram(EchoClientMain.HIGHEST_TRACKABLE_NANOS, 3);

    Summary(String server, int connections) {
      this.server = server;
      this.connections = connections;
    }

    Range rps() {
      return Range.of(values(c -> c.rps));
    }

    double median(java.util.function.ToDoubleFunction<Cell> f) {
      return Range.of(values(f)).median;
    }

    List<Double> values(java.util.function.ToDoubleFunction<Cell> f) {
      List<Double> l = new ArrayList<>();
      for (Cell c : ok) {
        double v = f.applyAsDouble(c);
        if (!Double.isNaN(v)) {
          l.add(v);
        }
      }
      return l;
    }

    double percentileMicros(double p) {
      return histogram.getTotalCount() == 0 ? Double.NaN : histogram.getValueAtPercentile(p) / 1e3;
    }
  }

  /** Median and range of some values; NaN when there are none. */
  static final class Range {
    final double median;
    final double min;
    final double max;
    final int n;

    Range(double median, double min, double max, int n) {
      this.median = median;
      this.min = min;
      this.max = max;
      this.n = n;
    }

    static Range of(List<Double> values) {
      if (values.isEmpty()) {
        return new Range(Double.NaN, Double.NaN, Double.NaN, 0);
      }
      List<Double> v = new ArrayList<>(values);
      Collections.sort(v);
      int n = v.size();
      double median = n % 2 == 1 ? v.get(n / 2) : (v.get(n / 2 - 1) + v.get(n / 2)) / 2;
      return new Range(median, v.get(0), v.get(n - 1), n);
    }

    String ratio() {
      if (n == 0) {
        return "—";
      }
      return n == 1 ? fmt(median) + "×" : fmt(median) + "× [" + fmt(min) + "–" + fmt(max) + "]";
    }
  }

  /** A goal with its verdict. */
  static final class Goal {
    String goal;
    String target;
    String measured;
    String verdict;
    String why;
  }

  static void write(Settings s, List<Cell> cells) throws IOException {
    Map<String, Summary> summaries = new LinkedHashMap<>();
    for (int connections : s.connections) {
      for (String server : s.servers) {
        summaries.put(key(server, connections), new Summary(server, connections));
      }
    }
    for (Cell c : cells) {
      Summary sum = summaries.get(key(c.server, c.connections));
      if (c.error == null) {
        sum.ok.add(c);
        sum.histogram.add(c.histogram);
      } else {
        sum.errors.add("round " + c.round + ": " + c.error);
      }
    }
    List<Goal> goals = goals(s, cells, summaries);
    Files.writeString(s.out.resolve(s.name + ".md"), markdown(s, cells, summaries, goals), StandardCharsets.UTF_8);
    Files.writeString(s.out.resolve(s.name + ".json"), json(s, cells, summaries, goals), StandardCharsets.UTF_8);
    Files.writeString(s.out.resolve("README-fragment-issue4.md"), fragment(s, summaries, goals), StandardCharsets.UTF_8);
    System.out.println();
    System.out.print(fragment(s, summaries, goals));
  }

  /** Ratio a ÷ b of two servers at one connection count, taken round by round. */
  static Range ratio(List<Cell> cells, String a, String b, int connections) {
    List<Double> l = new ArrayList<>();
    for (Cell x : cells) {
      if (x.error != null || !x.server.equals(a) || x.connections != connections) {
        continue;
      }
      for (Cell y : cells) {
        if (y.error == null && y.server.equals(b) && y.connections == connections && y.round == x.round && y.rps > 0) {
          l.add(x.rps / y.rps);
        }
      }
    }
    return Range.of(l);
  }

  private static List<Goal> goals(Settings s, List<Cell> cells, Map<String, Summary> summaries) {
    List<Goal> goals = new ArrayList<>();
    for (int connections : s.connections) {
      goals.add(goal(s, cells, summaries, "netty", connections, GOAL_VS_NETTY, "≥ 0.9×"));
    }
    int most = Collections.max(s.connections);
    for (String other : List.of("virtual", "platform")) {
      goals.add(goal(s, cells, summaries, other, most, 1.0, "> 1×"));
    }
    return goals;
  }

  private static Goal goal(Settings s, List<Cell> cells, Map<String, Summary> summaries, String other, int connections,
      double target, String targetText) {
    Goal g = new Goal();
    g.goal = "fibers ÷ " + LABELS.get(other) + ", round trips/s at " + count(connections) + " connections";
    g.target = targetText;
    Summary f = summaries.get(key("fiber", connections));
    Summary o = summaries.get(key(other, connections));
    Range r = ratio(cells, "fiber", other, connections);
    if (o == null || r.n == 0) {
      g.measured = "—";
      g.verdict = "NOT MEASURED";
      g.why = o == null ? other + " was not run" + skippedWhy(s, other)
          : "no round with both servers measured: " + String.join("; ", f.errors) + " " + String.join("; ", o.errors);
      return g;
    }
    g.measured = r.ratio() + " (" + fmt(f.rps().median) + " vs " + fmt(o.rps().median) + " rps)";
    boolean met = target >= 1.0 ? r.median > target : r.median >= target;
    boolean crosses = target >= 1.0 ? (r.min <= target) != (r.max <= target) : (r.min < target) != (r.max < target);
    g.verdict = (met ? "MET" : "MISSED") + (crosses ? " (rounds on both sides of the goal)" : "");
    g.why = why(f, o);
    return g;
  }

  private static String skippedWhy(Settings s, String other) {
    for (String k : s.skipped) {
      if (k.startsWith(other)) {
        return " (" + k + ")";
      }
    }
    return "";
  }

  /** Explains a ratio from what was measured beside it: server CPU per round trip, and who saturated. */
  private static String why(Summary f, Summary o) {
    double fc = f.median(c -> c.serverCpuMicrosPerRoundTrip);
    double oc = o.median(c -> c.serverCpuMicrosPerRoundTrip);
    StringBuilder b = new StringBuilder();
    if (!Double.isNaN(fc) && !Double.isNaN(oc)) {
      b.append(String.format(Locale.ROOT, "server CPU per round trip: fibers %s µs vs %s %s µs (%s×)", fmt(fc),
          LABELS.get(o.server), fmt(oc), fmt(fc / oc)));
      double fs = f.median(c -> c.serverCpuPercent);
      double os = o.median(c -> c.serverCpuPercent);
      double fl = f.median(c -> c.clientCpuPercent);
      double ol = o.median(c -> c.clientCpuPercent);
      b.append(String.format(Locale.ROOT, "; server busy %s%% vs %s%%, load generator busy %s%% vs %s%%",
          fmt(fs), fmt(os), fmt(fl), fmt(ol)));
      if (fl >= SATURATED_PERCENT && ol >= SATURATED_PERCENT) {
        b.append("; the load generator's CPU was saturated in both, so the ratio understates the servers' difference"
            + " (compare CPU per round trip)");
      } else if (fs < SATURATED_PERCENT && os < SATURATED_PERCENT && fl < SATURATED_PERCENT) {
        b.append("; neither JVM got 90% of its core (on a loaded machine other work takes the rest), so CPU per"
            + " round trip is the steadier comparison");
      }
    } else {
      b.append("CPU use not measured (no /proc)");
    }
    return b.toString();
  }

  private static String markdown(Settings s, List<Cell> cells, Map<String, Summary> summaries, List<Goal> goals)
      throws IOException {
    StringBuilder b = new StringBuilder();
    b.append("# Echo round trips: fibers on netio vs raw Netty vs thread per connection (issue #4)\n\n");
    header(s, b);
    b.append("\n## Goals\n\n| goal | target | measured (median [range] of rounds) | verdict | why |\n|---|---|---|---|---|\n");
    for (Goal g : goals) {
      b.append("| ").append(g.goal).append(" | ").append(g.target).append(" | ").append(g.measured).append(" | **")
          .append(g.verdict).append("** | ").append(g.why).append(" |\n");
    }
    b.append("\n## Results\n\nround trips/s: median of the rounds [min–max]; ÷ raw Netty: the ratio taken within each"
        + " round, median [min–max]; latency: all measured round trips of all rounds; server CPU: user+system time of"
        + " the server JVM (all its threads, GC and JIT included) during the measured phase.\n\n");
    b.append("| connections | server | round trips/s | ÷ raw Netty | p50 µs | p99 µs | p99.9 µs | server CPU µs / round trip"
        + " | server CPU % | load generator CPU % | failed rounds |\n|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (Summary sum : summaries.values()) {
      Range r = sum.rps();
      b.append("| ").append(count(sum.connections)).append(" | ").append(LABELS.get(sum.server)).append(" | ")
          .append(r.n == 0 ? "—" : fmt(r.median) + (r.n > 1 ? " [" + fmt(r.min) + "–" + fmt(r.max) + "]" : ""))
          .append(" | ").append(sum.server.equals("netty") ? "1×" : ratio(cells, sum.server, "netty", sum.connections).ratio())
          .append(" | ").append(fmt(sum.percentileMicros(50))).append(" | ").append(fmt(sum.percentileMicros(99)))
          .append(" | ").append(fmt(sum.percentileMicros(99.9)))
          .append(" | ").append(fmt(sum.median(c -> c.serverCpuMicrosPerRoundTrip)))
          .append(" | ").append(fmt(sum.median(c -> c.serverCpuPercent)))
          .append(" | ").append(fmt(sum.median(c -> c.clientCpuPercent)))
          .append(" | ").append(sum.errors.isEmpty() ? "0" : sum.errors.size() + ": " + String.join("; ", sum.errors))
          .append(" |\n");
    }
    b.append("\n## Every cell, in run order\n\n| round | connections | server | round trips/s | p50 µs | p99 µs |"
        + " server CPU µs / round trip | server CPU % | load generator CPU % | error |\n|---|---|---|---|---|---|---|---|---|---|\n");
    for (Cell c : cells) {
      b.append("| ").append(c.round).append(" | ").append(count(c.connections)).append(" | ").append(c.server).append(" | ");
      if (c.error != null) {
        b.append("— | — | — | — | — | — | ").append(c.error.replace('|', '/')).append(" |\n");
      } else {
        b.append(fmt(c.rps)).append(" | ").append(fmt(c.histogram.getValueAtPercentile(50) / 1e3)).append(" | ")
            .append(fmt(c.histogram.getValueAtPercentile(99) / 1e3)).append(" | ")
            .append(fmt(c.serverCpuMicrosPerRoundTrip)).append(" | ").append(fmt(c.serverCpuPercent)).append(" | ")
            .append(fmt(c.clientCpuPercent)).append(" | |\n");
      }
    }
    if (s.notes != null && Files.exists(s.notes)) {
      b.append("\n").append(Files.readString(s.notes, StandardCharsets.UTF_8));
    }
    return b.toString();
  }

  private static void header(Settings s, StringBuilder b) {
    b.append("- Command: `").append(s.command).append("`\n");
    b.append("- Commit: `").append(s.commit).append("`; JDK ").append(s.javaVersion).append(" (`").append(s.java)
        .append("`) for every JVM\n");
    b.append("- Load before: `").append(s.loadBefore).append("`; after: `").append(s.loadAfter).append("`\n");
    b.append("  (the load average counts runnable threads of this run too: the platform-thread server alone has up to one per\n"
        + "  connection, so the figure after a 10,000-connection cell overstates the other work on the machine)\n");
    double load = loadAverage(s.loadBefore);
    int cpus = Runtime.getRuntime().availableProcessors();
    if (load > cpus / 2.0) {
      b.append(String.format(Locale.ROOT, "- **Noisy run:** the 1-minute load average was %s on %d CPUs before the"
          + " run (other work on the shared machine). Ratios within a round are fairer than absolute numbers; re-run"
          + " on a quiet machine before quoting any figure.\n", fmt(load), cpus));
    }
    b.append("- Setup: each server in its own JVM (`-Xms").append(s.heap).append(" -Xmx").append(s.heap).append('`')
        .append(s.serverCpus.isEmpty() ? "" : ", pinned with `taskset -c " + s.serverCpus + "`")
        .append(", as many event loops / carriers as CPUs it may use); the load generator in its own JVM")
        .append(s.clientCpus.isEmpty() ? "" : " (`taskset -c " + s.clientCpus + "`)")
        .append(": raw async Netty, closed loop, ").append(s.size).append("-byte messages, each echo checked byte for byte,"
            + " connections spread over source addresses 127.0.0.2..127.0.0.").append(1 + s.sources)
        .append(", loopback only. Per cell: warm-up ").append(s.warmupMillis).append(" ms (or ").append(s.warmupCount)
        .append(" round trips), measured ").append(s.measureMillis).append(" ms (or ").append(s.measureCount)
        .append(" round trips). ").append(s.rounds).append(" round(s), interleaved: for each round, for each connection"
            + " count, servers in the order ").append(String.join(", ", s.servers)).append(".\n");
    b.append("- Servers: `fiber` FiberServerSocket.serve with a read/write/flush loop on FiberInput/FiberOutput (NIO, the"
        + " scheduler's own loops, read/write timeouts off like the others); `netty` an async handler (write on read,"
        + " flush on read complete; NIO); `virtual` / `platform` blocking java.net.ServerSocket, one thread per"
        + " connection. All: TCP_NODELAY, 4 KiB reads.\n");
    for (String k : s.skipped) {
      b.append("- ").append(k).append('\n');
    }
  }

  private static String fragment(Settings s, Map<String, Summary> summaries, List<Goal> goals) {
    StringBuilder b = new StringBuilder();
    b.append("### Echo round trips (issue #4)\n\n");
    b.append("JDK ").append(s.javaVersion).append(", server and load generator in separate JVMs")
        .append(s.serverCpus.isEmpty() ? "" : " on separate cores (`taskset -c " + s.serverCpus + "` / `-c " + s.clientCpus + "`)")
        .append(", ").append(s.size).append("-byte messages, closed loop, ").append(s.rounds)
        .append(" interleaved round(s); load `").append(loadTriple(s.loadBefore)).append("` before, `")
        .append(loadTriple(s.loadAfter)).append("` after. Reproduce with `").append(s.command).append("`; full tables in `loadtest/results/")
        .append(s.name).append(".md`.\n\n");
    b.append("| connections |");
    for (String server : s.servers) {
      b.append(' ').append(LABELS.get(server)).append(" |");
    }
    b.append("\n|---|");
    for (int i = 0; i < s.servers.size(); i++) {
      b.append("---|");
    }
    b.append('\n');
    for (int connections : s.connections) {
      b.append("| ").append(count(connections)).append(" |");
      for (String server : s.servers) {
        Summary sum = summaries.get(key(server, connections));
        Range r = sum.rps();
        b.append(' ').append(r.n == 0 ? "—" : fmt(r.median) + " rps, p50/p99 " + fmt(sum.percentileMicros(50)) + "/"
            + fmt(sum.percentileMicros(99)) + " µs").append(" |");
      }
      b.append('\n');
    }
    b.append("\n| goal | target | measured | verdict |\n|---|---|---|---|\n");
    for (Goal g : goals) {
      b.append("| ").append(g.goal).append(" | ").append(g.target).append(" | ").append(g.measured).append(" | ")
          .append(g.verdict).append(" |\n");
    }
    return b.toString();
  }

  private static String json(Settings s, List<Cell> cells, Map<String, Summary> summaries, List<Goal> goals) {
    StringBuilder b = new StringBuilder("{\n");
    b.append("  \"name\": ").append(q(s.name)).append(",\n");
    b.append("  \"command\": ").append(q(s.command)).append(",\n");
    b.append("  \"commit\": ").append(q(s.commit)).append(",\n");
    b.append("  \"jdk\": ").append(q(s.javaVersion)).append(",\n");
    b.append("  \"loadBefore\": ").append(q(s.loadBefore)).append(",\n");
    b.append("  \"loadAfter\": ").append(q(s.loadAfter)).append(",\n");
    b.append("  \"settings\": {\"rounds\": ").append(s.rounds).append(", \"messageBytes\": ").append(s.size)
        .append(", \"sourceAddresses\": ").append(s.sources).append(", \"heap\": ").append(q(s.heap))
        .append(", \"serverCpus\": ").append(q(s.serverCpus)).append(", \"clientCpus\": ").append(q(s.clientCpus))
        .append(", \"warmupMillis\": ").append(s.warmupMillis).append(", \"measureMillis\": ").append(s.measureMillis)
        .append("},\n");
    b.append("  \"skipped\": [");
    for (int i = 0; i < s.skipped.size(); i++) {
      b.append(i == 0 ? "" : ", ").append(q(s.skipped.get(i)));
    }
    b.append("],\n  \"summary\": [\n");
    int i = 0;
    for (Summary sum : summaries.values()) {
      Range r = sum.rps();
      Range v = sum.server.equals("netty") ? Range.of(List.of(1.0)) : ratio(cells, sum.server, "netty", sum.connections);
      b.append(i++ == 0 ? "" : ",\n").append("    {\"server\": ").append(q(sum.server))
          .append(", \"connections\": ").append(sum.connections)
          .append(", \"rounds\": ").append(r.n)
          .append(", \"rpsMedian\": ").append(num(r.median)).append(", \"rpsMin\": ").append(num(r.min))
          .append(", \"rpsMax\": ").append(num(r.max))
          .append(", \"vsNettyMedian\": ").append(num(v.median)).append(", \"vsNettyMin\": ").append(num(v.min))
          .append(", \"vsNettyMax\": ").append(num(v.max))
          .append(", \"p50Micros\": ").append(num(sum.percentileMicros(50)))
          .append(", \"p99Micros\": ").append(num(sum.percentileMicros(99)))
          .append(", \"p999Micros\": ").append(num(sum.percentileMicros(99.9)))
          .append(", \"serverCpuMicrosPerRoundTrip\": ").append(num(sum.median(c -> c.serverCpuMicrosPerRoundTrip)))
          .append(", \"serverCpuPercent\": ").append(num(sum.median(c -> c.serverCpuPercent)))
          .append(", \"clientCpuPercent\": ").append(num(sum.median(c -> c.clientCpuPercent)))
          .append(", \"errors\": ").append(sum.errors.size()).append('}');
    }
    b.append("\n  ],\n  \"goals\": [\n");
    i = 0;
    for (Goal g : goals) {
      b.append(i++ == 0 ? "" : ",\n").append("    {\"goal\": ").append(q(g.goal)).append(", \"target\": ")
          .append(q(g.target)).append(", \"measured\": ").append(q(g.measured)).append(", \"verdict\": ")
          .append(q(g.verdict)).append(", \"why\": ").append(q(g.why)).append('}');
    }
    b.append("\n  ],\n  \"cells\": [\n");
    i = 0;
    for (Cell c : cells) {
      b.append(i++ == 0 ? "" : ",\n").append("    {\"round\": ").append(c.round).append(", \"server\": ")
          .append(q(c.server)).append(", \"connections\": ").append(c.connections);
      if (c.error != null) {
        b.append(", \"error\": ").append(q(c.error)).append('}');
        continue;
      }
      b.append(", \"rps\": ").append(num(c.rps)).append(", \"roundTrips\": ").append(c.measured)
          .append(", \"seconds\": ").append(num(c.seconds))
          .append(", \"p50Micros\": ").append(num(c.histogram.getValueAtPercentile(50) / 1e3))
          .append(", \"p99Micros\": ").append(num(c.histogram.getValueAtPercentile(99) / 1e3))
          .append(", \"serverCpuMicrosPerRoundTrip\": ").append(num(c.serverCpuMicrosPerRoundTrip))
          .append(", \"serverCpuPercent\": ").append(num(c.serverCpuPercent))
          .append(", \"clientCpuPercent\": ").append(num(c.clientCpuPercent)).append('}');
    }
    b.append("\n  ]\n}\n");
    return b.toString();
  }

  private static String key(String server, int connections) {
    return server + "@" + connections;
  }

  static String count(int n) {
    return String.format(Locale.ROOT, "%,d", n);
  }

  static String fmt(double v) {
    if (Double.isNaN(v)) {
      return "—";
    }
    double a = Math.abs(v);
    if (a >= 1000) {
      return String.format(Locale.ROOT, "%,.0f", v);
    }
    if (a >= 100) {
      return String.format(Locale.ROOT, "%.0f", v);
    }
    if (a >= 10) {
      return String.format(Locale.ROOT, "%.1f", v);
    }
    return String.format(Locale.ROOT, "%.2f", v);
  }

  private static String num(double v) {
    return Double.isNaN(v) || Double.isInfinite(v) ? "null" : String.format(Locale.ROOT, "%.4g", v);
  }

  private static String q(String s) {
    StringBuilder b = new StringBuilder("\"");
    for (char c : s.toCharArray()) {
      if (c == '"' || c == '\\') {
        b.append('\\').append(c);
      } else if (c < 0x20) {
        b.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
      } else {
        b.append(c);
      }
    }
    return b.append('"').toString();
  }

  static double loadAverage(String uptime) {
    int i = uptime.indexOf("load average:");
    if (i < 0) {
      return Double.NaN;
    }
    try {
      return Double.parseDouble(uptime.substring(i + 13).split(",")[0].trim());
    } catch (NumberFormatException e) {
      return Double.NaN;
    }
  }

  private static String loadTriple(String uptime) {
    int i = uptime.indexOf("load average:");
    return i < 0 ? uptime : uptime.substring(i + 13).trim();
  }
}
