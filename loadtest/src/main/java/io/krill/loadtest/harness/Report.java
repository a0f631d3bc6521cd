package io.krill.loadtest.harness;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.krill.loadtest.internal.Reports;
import io.krill.loadtest.load.LoadResult;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.ToDoubleFunction;

/**
 * Writes a scenario's results to {@code <results>/<date>-<scenario>/}: {@code report.md} (the
 * table with every ratio against raw Netty and against platform threads from the same run, the
 * goals met or missed, the machine, the JDKs and the exact command), {@code results.json} (every
 * cell, raw), and the PNG charts of {@link Charts}. Returns the markdown table for the console.
 */
final class Report {
  /** Percentiles charted and written to JSON. */
  static final double[] PERCENTILES = {50, 90, 99, 99.9};

  private final RunSettings settings;
  private final Scenario scenario;
  private final List<Cell> cells;
  private final Map<String, Summary> summaries;
  private final String loadBefore;
  private final String loadAfter;
  final List<Goal> goals = new ArrayList<>();

  /** A ratio goal: what, the target, what was measured, and the verdict. */
  record Goal(String goal, String target, String measured, String verdict) {}

  Report(RunSettings settings, Scenario scenario, List<Cell> cells, String loadBefore, String loadAfter) {
    this.settings = settings;
    this.scenario = scenario;
    this.cells = cells;
    this.summaries = Summary.of(cells);
    this.loadBefore = loadBefore;
    this.loadAfter = loadAfter;
    goals();
  }

  /** @return the directory of this scenario's report */
  Path dir() {
    return settings.resultsDir.resolve(settings.date + "-" + scenario.name);
  }

  /** Writes report.md, results.json and the charts. @return the table printed to the console */
  String write() throws IOException {
    Path dir = dir();
    Files.createDirectories(dir);
    List<String> charts = new Charts(scenario, cells, summaries).write(dir);
    String table = table();
    Files.writeString(dir.resolve("report.md"), markdown(table, charts), StandardCharsets.UTF_8);
    Files.writeString(dir.resolve("results.json"), json(), StandardCharsets.UTF_8);
    return table;
  }

  private Summary summary(String variant, int connections) {
    return summaries.get(Summary.key(variant, connections));
  }

  /** @return the platform-thread reference at {@code connections}: the first of the scenario's candidates that measured */
  Summary platform(int connections) {
    for (String v : scenario.platformVariants()) {
      Summary s = summary(v, connections);
      if (s != null && !s.ok().isEmpty()) {
        return s;
      }
    }
    return null;
  }

  private static final ToDoubleFunction<Cell> RPS = Cell::rps;

  String table() {
    StringBuilder b = new StringBuilder();
    switch (scenario.kind) {
      case IDLE:
        b.append("| connections | variant | held | heap per conn | RSS per conn | active rps alone | active rps beside idle |"
            + " beside ÷ alone | active ÷ netty | active ÷ platform | errors |\n|---|---|---|---|---|---|---|---|---|---|---|\n");
        break;
      case STATIC:
        b.append("| connections | variant | requests/s (median, min–max) | krill ÷ nginx | latency µs (wrk: p50; p99 —"
            + " h2load: mean; max) | server CPU % | errors |\n|---|---|---|---|---|---|---|\n");
        break;
      case H2:
      case WEBSOCKET:
        boolean h2 = scenario.kind == Scenario.Kind.H2;
        String per = h2 ? "request" : "message";
        b.append("| connections | variant | " + per + "s/s (median, min–max) | ÷ netty | ÷ virtual | "
            + (h2 ? "latency µs (h2load: mean; max) | " : "") + "server CPU % | server CPU µs per " + per
            + " (median, min–max) | netty's CPU ÷ this one's, per " + per + " | errors |\n|---|---|---|---|---|---|---|---|---|"
            + (h2 ? "---|" : "") + "\n");
        break;
      case WRK:
        b.append("| connections | variant | requests/s in the window (median, min–max) | ÷ netty | wrk's requests/s"
            + " (whole run) | latency µs (wrk: p50; p99) | connections open (s to open them; s of warm-up) | server CPU % (of it JIT) | wrk CPU % | server CPU µs per"
            + " request (median, min–max) | netty's CPU ÷ this one's, per request | failed cells; wrk's socket errors per round"
            + " |\n|---|---|---|---|---|---|---|---|---|---|---|---|\n");
        break;
      case CRAWL:
        b.append("| variant | warm pages/s (median, min–max) | ÷ threads-32 | ÷ virtual | whole-crawl pages/s | ÷ threads-32"
            + " | ÷ virtual | warm CPU ms/page | whole-crawl CPU ms/page | live heap, MiB | peak heap after GC, MiB"
            + " | peak in flight |\n|---|---|---|---|---|---|---|---|---|---|---|---|\n");
        break;
      default:
        b.append("| connections | variant | requests/s (median, min–max) | ÷ netty | ÷ platform | p50 µs | p99 µs |"
            + " p99.9 µs | server CPU % | errors |" + (hasWrk() ? " wrk rps | built-in ÷ wrk |" : "") + "\n"
            + "|---|---|---|---|---|---|---|---|---|---|" + (hasWrk() ? "---|---|" : "") + "\n");
    }
    for (Summary s : summaries.values()) {
      b.append(row(s)).append('\n');
    }
    return b.toString();
  }

  private boolean hasWrk() {
    return cells.stream().anyMatch(c -> !Double.isNaN(c.wrkRps));
  }

  private String row(Summary s) {
    String why = s.why();
    Summary netty = summary(scenario.nettyVariant(), s.connections);
    Summary platform = platform(s.connections);
    String conns = String.format(Locale.ROOT, "%,d", s.connections);
    if (scenario.kind == Scenario.Kind.CRAWL) {
      if (why != null) {
        return "| " + s.variant + " | " + why + " | — | — | — | — | — | — | — | — | — | — |";
      }
      ToDoubleFunction<Cell> whole = c -> c.ok() ? c.crawlPagesPerSecond : Double.NaN;
      return "| " + s.variant + " | " + Summary.spread(s.stats(RPS), false) + " | "
          + Summary.spread(s.ratio(summary("threads-32", 0), RPS), true) + " | "
          + Summary.spread(s.ratio(summary("virtual", 0), RPS), true) + " | "
          + Summary.spread(s.stats(whole), false) + " | "
          + Summary.spread(s.ratio(summary("threads-32", 0), whole), true) + " | "
          + Summary.spread(s.ratio(summary("virtual", 0), whole), true) + " | "
          + Summary.spread(s.stats(c -> c.cpuMsPerPage), false) + " | "
          + Summary.spread(s.stats(c -> c.crawlCpuMsPerPage), false) + " | "
          + Summary.spread(s.stats(c -> c.liveHeapMiB), false) + " | "
          + Summary.spread(s.stats(c -> c.peakHeapMiB), false) + " | "
          + Summary.spread(s.stats(c -> c.peakInFlight), false) + " |";
    }
    if (scenario.kind == Scenario.Kind.STATIC) {
      if (why != null) {
        return "| " + conns + " | " + s.variant + " | " + why + " | | | | |";
      }
      Summary nginx = summary(StaticScenario.reference(s.variant), s.connections);
      return "| " + conns + " | " + s.variant + " | " + Summary.spread(s.stats(RPS), false) + " | "
          + (s.variant.startsWith(StaticScenario.KRILL) ? Summary.spread(s.ratio(nginx, RPS), true) : "") + " | "
          + (StaticScenario.http2(s.variant) ? h2loadLatency(s) : latency(s, "p50", c -> c.wrkP50Micros, "p99",
              c -> c.wrkP99Micros)) + " | "
          + Reports.fmt(s.stats(c -> c.serverCpuPercent)[0]) + " | " + failedCells(s) + " |";
    }
    if (scenario.kind == Scenario.Kind.H2 || scenario.kind == Scenario.Kind.WEBSOCKET) {
      boolean h2 = scenario.kind == Scenario.Kind.H2;
      if (why != null) {
        return "| " + conns + " | " + s.variant + " | " + why + " | | | | | | |" + (h2 ? " |" : "");
      }
      Summary ref = summary(Http2WebSocketScenario.reference(s.variant), s.connections);
      boolean self = ref == s;
      ToDoubleFunction<Cell> cpu = c -> c.ok() ? c.serverCpuMicrosPerRequest : Double.NaN;
      return "| " + conns + " | " + s.variant + " | " + Summary.spread(s.stats(RPS), false) + " | "
          + (self ? "" : Summary.spread(s.ratio(ref, RPS), true)) + " | "
          + (scenario.kind == Scenario.Kind.WEBSOCKET && !s.variant.equals("virtual")
              ? Summary.spread(s.ratio(summary("virtual", s.connections), RPS), true) : "") + " | "
          + (h2 ? h2loadLatency(s) + " | " : "")
          + Reports.fmt(s.stats(c -> c.serverCpuPercent)[0]) + " | " + Summary.spread(s.stats(cpu), false) + " | "
          + (self || ref == null ? "" : Summary.spread(ref.ratio(s, cpu), true)) + " | " + failedCells(s) + " |";
    }
    if (scenario.kind == Scenario.Kind.WRK) {
      if (why != null) {
        return "| " + conns + " | " + s.variant + " | " + why + " | | | | | | | | | |";
      }
      boolean self = s == netty;
      ToDoubleFunction<Cell> cpu = c -> c.ok() ? c.serverCpuMicrosPerRequest : Double.NaN;
      return "| " + conns + " | " + s.variant + " | " + Summary.spread(s.stats(RPS), false) + " | "
          + (self ? "" : Summary.spread(s.ratio(netty, RPS), true)) + " | "
          + Summary.spread(s.stats(c -> c.wrkRps), false) + " | "
          + latency(s, "p50", c -> c.wrkP50Micros, "p99", c -> c.wrkP99Micros) + " | "
          + count((int) s.stats(c -> c.openConnections)[1]) + " (" + Summary.spread(s.stats(c -> c.leadInSeconds), false)
          + "; " + Summary.spread(s.stats(c -> c.warmSeconds), false) + ") | "
          + Summary.spread(s.stats(c -> c.serverCpuPercent), false) + " (JIT "
          + Summary.spread(s.stats(c -> c.jitCpuPercent), false) + ") | "
          + Summary.spread(s.stats(c -> c.wrkCpuPercent), false) + " | " + Summary.spread(s.stats(cpu), false) + " | "
          + (self || netty == null ? "" : Summary.spread(netty.ratio(s, cpu), true)) + " | " + failedCells(s) + "; "
          + String.join(" / ", s.cells.stream().map(c -> c.wrkSocketErrors).toList()) + " |";
    }
    if (scenario.kind == Scenario.Kind.IDLE) {
      if (why != null) {
        return "| " + conns + " | " + s.variant + " | " + why + " | | | | | | | | |";
      }
      return "| " + conns + " | " + s.variant + " | " + count((int) s.stats(c -> c.held)[0]) + " | "
          + bytes(s.stats(c -> c.heapPerConnection)) + " | " + bytes(s.stats(c -> c.rssPerConnection)) + " | "
          + Summary.spread(s.stats(c -> c.activeRpsBefore), false) + " | "
          + Summary.spread(s.stats(c -> c.activeRpsDuring), false) + " | "
          + Summary.spread(s.stats(c -> c.activeRpsDuring / c.activeRpsBefore), true) + " | "
          + Summary.spread(s.ratio(netty, RPS), true) + " | " + Summary.spread(s.ratio(platform, RPS), true) + " | "
          + errors(s) + " |";
    }
    if (why != null) {
      return "| " + conns + " | " + s.variant + " | " + why + " | | | | | | | |" + (hasWrk() ? " | |" : "");
    }
    String r = "| " + conns + " | " + s.variant + " | " + Summary.spread(s.stats(RPS), false) + " | "
        + Summary.spread(s.ratio(netty, RPS), true) + " | " + Summary.spread(s.ratio(platform, RPS), true) + " | "
        + Reports.fmt(s.latencyMicros(50)) + " | " + Reports.fmt(s.latencyMicros(99)) + " | "
        + Reports.fmt(s.latencyMicros(99.9)) + " | " + Reports.fmt(s.stats(c -> c.serverCpuPercent)[0]) + " | "
        + errors(s) + " |";
    if (hasWrk()) {
      r += " " + Summary.spread(s.stats(c -> c.wrkRps), false) + " | "
          + Summary.spread(s.stats(c -> c.rps() / c.wrkRps), true) + " |";
    }
    return r;
  }

  /** @return "0", or how many of the rounds' cells failed and the first reason */
  private static String failedCells(Summary s) {
    List<Cell> failed = s.cells.stream().filter(c -> c.error != null).toList();
    return failed.isEmpty() ? "0" : failed.size() + " of " + s.cells.size() + " cells failed: " + failed.get(0).error;
  }

  /** @return h2load's request time: "mean M; max X" (medians over the rounds), or "—" */
  private static String h2loadLatency(Summary s) {
    return latency(s, "mean", c -> c.requestMeanMicros, "max", c -> c.requestMaxMicros);
  }

  /** @return "a A; b B" (medians over the rounds), or "—" when neither was measured */
  private static String latency(Summary s, String a, ToDoubleFunction<Cell> fa, String b, ToDoubleFunction<Cell> fb) {
    double va = s.stats(fa)[0];
    double vb = s.stats(fb)[0];
    return Double.isNaN(va) && Double.isNaN(vb) ? "—" : a + " " + Reports.fmt(va) + "; " + b + " " + Reports.fmt(vb);
  }

  private static String bytes(double[] s) {
    return Double.isNaN(s[0]) ? "—" : Summary.spread(s, false) + " B";
  }

  private static String bytes(double v) {
    return Double.isNaN(v) ? "—" : Reports.fmt(v) + " B";
  }

  /** @return every error kind summed over the rounds, e.g. "reset 3, non2xx 10", or "0" */
  static String errors(Summary s) {
    java.util.Map<String, Long> sum = new java.util.LinkedHashMap<>();
    for (Cell c : s.ok()) {
      if (c.result != null) {
        c.result.errorsByKind().forEach((k, v) -> sum.merge(k, v, Long::sum));
      }
    }
    if (sum.isEmpty()) {
      return "0";
    }
    StringBuilder b = new StringBuilder();
    sum.forEach((k, v) -> b.append(b.length() == 0 ? "" : ", ").append(k).append(' ').append(v));
    return b.toString();
  }

  /* The ratio goals of netio, httpd and the crawler that this scenario can judge; absent variants say why. */
  private void goals() {
    List<Integer> counts = new ArrayList<>(new LinkedHashSet<>(cells.stream().map(c -> c.connections).toList()));
    if (scenario == Scenario.HELLO || scenario == Scenario.PIPELINED) {
      for (int n : counts) {
        ratioGoal("httpd fiber ÷ raw Netty, requests/s, " + count(n) + " conns", "≥ 0.9×", 0.9, "httpd-fiber",
            summary("netty", n), n, RPS);
        ratioGoal("raw Netty p50 ÷ httpd fiber p50 (latency), " + count(n) + " conns", "≥ 0.9×", 0.9, "netty",
            summary("httpd-fiber", n), n, c -> c.result == null ? Double.NaN : c.result.latencyMicros(50));
        ratioGoal("raw Netty p99 ÷ httpd fiber p99 (latency), " + count(n) + " conns", "≥ 0.9×", 0.9, "netty",
            summary("httpd-fiber", n), n, c -> c.result == null ? Double.NaN : c.result.latencyMicros(99));
        double need = n >= 10_000 ? 1.5 : 1.0;
        ratioGoal("httpd fiber ÷ virtual, requests/s, " + count(n) + " conns", "≥ 1.0×", 1.0, "httpd-fiber",
            summary("httpd-virtual", n), n, RPS);
        ratioGoal("httpd fiber ÷ platform, requests/s, " + count(n) + " conns", "≥ " + need + "×", need, "httpd-fiber",
            summary("httpd-platform", n), n, RPS);
      }
    } else if (scenario == Scenario.HELLO_WRK) {
      ToDoubleFunction<Cell> cpu = c -> c.ok() ? c.serverCpuMicrosPerRequest : Double.NaN;
      for (int n : counts) {
        ratioGoal("httpd fiber ÷ raw Netty, requests/s, wrk on open connections, one CPU each, " + count(n) + " conns",
            "≥ 0.95×", 0.95, "httpd-fiber", summary("netty", n), n, RPS);
        ratioGoal("raw Netty's server CPU per request ÷ httpd fiber's, " + count(n) + " conns", "≥ 0.95×", 0.95, "netty",
            summary("httpd-fiber", n), n, cpu);
      }
    } else if (scenario == Scenario.SLOW) {
      for (int n : counts) {
        ratioGoal("httpd fiber ÷ platform, slow handler, " + count(n) + " conns", "≥ 1.5×", 1.5, "httpd-fiber",
            summary("httpd-platform", n), n, RPS);
      }
    } else if (scenario == Scenario.IDLE) {
      for (int n : counts) {
        Summary f = summary("httpd-fiber", n);
        if (f == null || f.why() != null) {
          goals.add(new Goal("heap per idle keep-alive connection, httpd fiber", "≤ 3 KB", "—",
              "not measured: " + (f == null ? "httpd-fiber not in this run" : f.why())));
          goals.add(new Goal("idle connections held at once, httpd fiber", "≥ 19,000", "—",
              "not measured: " + (f == null ? "httpd-fiber not in this run" : f.why())));
          continue;
        }
        double heap = f.stats(c -> c.heapPerConnection)[0];
        goals.add(new Goal("heap per idle keep-alive connection, httpd fiber, " + count(n) + " conns", "≤ 3 KB",
            bytes(heap), Double.isNaN(heap) ? "not measured" : heap <= 3072 ? "met" : "missed"));
        // RSS growth from the idle (warmed-up) server to n idle keep-alive connections, over n.
        double rss = f.stats(c -> c.rssPerConnection)[0];
        goals.add(new Goal("RSS per idle keep-alive connection, httpd fiber, " + count(n) + " conns", "≤ 2 KB",
            bytes(rss), Double.isNaN(rss) ? "not measured" : rss <= Scenario.IDLE_RSS_GOAL_BYTES ? "met"
            : "missed"));
        double held = f.stats(c -> c.held)[0];
        goals.add(new Goal("idle connections held at once, httpd fiber", "≥ 19,000", count((int) held),
            held >= 19_000 ? "met" : "missed" + (n < 19_000 ? " (this run asked for " + count(n) + " only)" : "")));
      }
    } else if (scenario == Scenario.ECHO) {
      // netio's goals, on the same echo servers.
      for (int n : counts) {
        ratioGoal("netio fiber ÷ raw Netty, echo round trips/s, " + count(n) + " conns", "≥ 0.9×", 0.9, "fiber",
            summary("netty", n), n, RPS);
        if (n >= 10_000) {
          ratioGoal("netio fiber ÷ virtual, echo round trips/s, " + count(n) + " conns", "≥ 1.0×", 1.0, "fiber",
              summary("virtual", n), n, RPS);
          ratioGoal("netio fiber ÷ platform, echo round trips/s, " + count(n) + " conns", "≥ 1.0×", 1.0, "fiber",
              summary("platform", n), n, RPS);
        }
      }
    } else if (scenario == Scenario.STATIC) {
      for (int n : counts) {
        for (String v : StaticScenario.VARIANTS) {
          if (v.startsWith(StaticScenario.KRILL)) {
            String what = v.substring(StaticScenario.KRILL.length() + 1);
            String proto = StaticScenario.http2(v) ? "HTTP/2 (h2load)" : "HTTP/1.1 (wrk)";
            String file = what.endsWith("12B") ? "12-byte file" : "1 MiB file";
            ratioGoal("krill serve ÷ nginx, static " + file + ", " + proto + ", requests/s, " + count(n) + " conns",
                "≥ 1.0×", 1.0, v, summary(StaticScenario.reference(v), n), n, RPS);
          }
        }
      }
    } else if (scenario == Scenario.H2_HELLO) {
      for (int n : counts) {
        for (String v : List.of("httpd-h2", "httpd-h2-tls")) {
          String proto = v.endsWith("-tls") ? "h2 over TLS (ALPN)" : "h2c";
          ratioGoal("httpd fiber ÷ raw Netty HTTP/2, " + proto + ", " + Http2WebSocketScenario.H2_STREAMS
              + " streams per connection, requests/s, " + count(n) + " conns", "≥ 0.9×", 0.9, v,
              summary(Http2WebSocketScenario.reference(v), n), n, RPS);
        }
      }
    } else if (scenario == Scenario.WEBSOCKET_ECHO) {
      for (int n : counts) {
        ratioGoal("httpd WebSocket fiber ÷ raw Netty, echo messages/s, " + count(n) + " sockets", "≥ 0.9×", 0.9, "fiber",
            summary("netty", n), n, RPS);
        ratioGoal("httpd WebSocket fiber ÷ virtual threads, echo messages/s, " + count(n) + " sockets", "≥ 1.0×", 1.0,
            "fiber", summary("virtual", n), n, RPS);
      }
    } else if (scenario == Scenario.CRAWL) {
      String warm = settings.quick ? "" : " (warm, from second " + CrawlScenario.WARM_UP_SECONDS + " or a third of a"
          + " shorter crawl)";
      ratioGoal("crawler fibers ÷ 32-thread pool, pages/s" + warm, "≥ 3×", 3, "fibers", summary("threads-32", 0), 0, RPS);
      ratioGoal("crawler fibers ÷ virtual threads, pages/s" + warm, "≥ 1.0×", 1.0, "fibers", summary("virtual", 0), 0, RPS);
      if (!settings.quick) {
        // The same two goals over the whole crawl, JIT warm-up included: shown, not hidden.
        ToDoubleFunction<Cell> whole = c -> c.ok() ? c.crawlPagesPerSecond : Double.NaN;
        ratioGoal("crawler fibers ÷ 32-thread pool, pages/s (whole " + CrawlScenario.MAX_DURATION + " crawl, JIT warm-up"
            + " included)", "≥ 3×", 3, "fibers", summary("threads-32", 0), 0, whole);
        ratioGoal("crawler fibers ÷ virtual threads, pages/s (whole " + CrawlScenario.MAX_DURATION + " crawl, JIT warm-up"
            + " included)", "≥ 1.0×", 1.0, "fibers", summary("virtual", 0), 0, whole);
      }
      Summary fib = summary("fibers", 0);
      Summary vir = summary("virtual", 0);
      ToDoubleFunction<Cell> heapOf = settings.quick ? c -> c.peakHeapMiB : c -> c.liveHeapMiB;
      double[] heap = fib == null || vir == null || fib.why() != null || vir.why() != null ? new double[] {Double.NaN}
          : fib.ratio(vir, heapOf);
      goals.add(new Goal(settings.quick ? "crawler fibers ÷ virtual threads, peak heap after GC"
          : "crawler fibers ÷ virtual threads, live heap after a full GC at " + String.format(Locale.ROOT, "%,d",
          CrawlScenario.HEAP_AT_PAGES) + " pages", "< 1.0×",
          Double.isNaN(heap[0]) ? "—" : Summary.spread(heap, true), Double.isNaN(heap[0]) ? "not measured"
          : heap[0] < 1.0 ? "met" : "missed"));
      consoleGoal(fib);
      Summary flight = summary(CrawlScenario.IN_FLIGHT_VARIANT, 0);
      double peak = flight == null || flight.why() != null ? Double.NaN : flight.stats(c -> c.peakInFlight)[0];
      goals.add(new Goal("crawler work items in flight in one JVM (fibers, heap " + settings.heap + ")", "≥ 10,000",
          Double.isNaN(peak) ? "—" : String.format(Locale.ROOT, "%,.0f (peak heap after GC %s MiB)", peak,
              Reports.fmt(flight.stats(c -> c.peakHeapMiB)[0])),
          Double.isNaN(peak) ? "not measured" : peak >= 10_000 ? "met" : settings.quick ? "not measured (quick run)" : "missed"));
    }
  }

  /*
   * The console costs the crawl nothing measurable: pages/s with --console and its tabs over plain
   * fibers' in the same round (the median of the rounds), judged against the plain crawl's own
   * round-to-round spread ((max − min) / median of the fibers rows), on each window a full run
   * measures: the warm one and the whole crawl.
   */
  private void consoleGoal(Summary fibers) {
    Summary console = summary(CrawlScenario.CONSOLE_VARIANT, 0);
    if (console == null) {
      return;
    }
    String goal = "crawl with --console and " + settings.consoleTabs + " tabs reading ÷ without, pages/s";
    ToDoubleFunction<Cell> whole = c -> c.ok() ? c.crawlPagesPerSecond : Double.NaN;
    if (settings.quick) {
      consoleGoal(goal, console, fibers, RPS); // a quick run's rate is the whole crawl's
    } else {
      consoleGoal(goal + " (warm)", console, fibers, RPS);
      consoleGoal(goal + " (whole crawl)", console, fibers, whole);
    }
  }

  private void consoleGoal(String goal, Summary console, Summary fibers, ToDoubleFunction<Cell> f) {
    String target = "1× within the round-to-round spread";
    String why = console.why() != null ? console.why() : fibers == null ? "fibers not in this run" : fibers.why();
    if (why != null) {
      goals.add(new Goal(goal, target, "—", "not measured: " + why));
      return;
    }
    double[] r = console.ratio(fibers, f);
    double[] plain = fibers.stats(f);
    double spread = (plain[2] - plain[1]) / plain[0];
    String measured = Summary.spread(r, true) + String.format(Locale.ROOT, "; plain crawl %s pages/s, its round-to-round"
        + " spread (max−min)/median %.1f%%", Summary.spread(plain, false), 100 * spread);
    goals.add(new Goal(goal, target, measured, Double.isNaN(r[0]) || Double.isNaN(spread) ? "not measured"
        : settings.rounds < 2 ? "not judged (one round has no spread)"
        : Math.abs(1 - r[0]) <= spread ? "met" : "missed"));
  }

  private void ratioGoal(String goal, String target, double need, String variant, Summary reference, int n,
      ToDoubleFunction<Cell> f) {
    Summary s = summary(variant, n);
    String why = s == null ? variant + " not in this run" : s.why();
    if (why == null) {
      why = reference == null ? "reference not in this run" : reference.why() == null ? null
          : reference.variant + " " + reference.why();
    }
    if (why != null) {
      goals.add(new Goal(goal, target, "—", "not measured: " + why));
      return;
    }
    double[] r = s.ratio(reference, f);
    goals.add(new Goal(goal, target, Summary.spread(r, true), Double.isNaN(r[0]) ? "not measured"
        : r[0] >= need ? "met" : "missed"));
  }

  private static String count(int n) {
    return String.format(Locale.ROOT, "%,d", n);
  }

  private String markdown(String table, List<String> charts) {
    StringBuilder b = new StringBuilder();
    b.append("# loadtest: ").append(scenario.name).append(" (").append(settings.date).append(")\n\n");
    b.append("Command: `").append(settings.command).append("`  \n");
    b.append("Commit: ").append(settings.commit).append("  \n");
    b.append("Machine: ").append(RunEnvironment.machine()).append("  \n");
    b.append("Load (uptime) before: `").append(loadBefore).append("`, after: `").append(loadAfter).append("`  \n");
    b.append("JDKs: servers and generators on ").append(settings.javaVersion).append(" (`").append(settings.javaHome)
        .append("`); harness on ").append(System.getProperty("java.runtime.version")).append("  \n");
    b.append("Method: ").append(settings.rounds).append(" interleaved round(s) (variant A B A B ..., a fresh server JVM")
        .append(" and fresh generator JVMs per cell), warm-up ").append(settings.warmup.toMillis()).append(" ms, measured ")
        .append(settings.measure.toMillis()).append(" ms per cell, fixed heap ").append(settings.heap)
        .append(" (-Xms = -Xmx) for every JVM, G1").append(settings.javaFeature >= 23 ? " (JDK 23+: every child also gets"
            + " `--sun-misc-unsafe-memory-access=allow --add-opens=java.base/sun.nio.ch=ALL-UNNAMED`, so Netty runs with"
            + " Unsafe and its selected-key set, as a tuned Netty deployment would)" : "")
        .append(ownGenerator() ? ", servers on the carriers' default transport (see below)"
            : ", every krill process on NIO carriers (`-Dkrill.fibers.io=nio`) like the raw Netty servers")
        .append(", closed loop unless said otherwise; generator: ")
        .append(scenario.kind == Scenario.Kind.ECHO
            ? "raw async Netty on epoll (`EchoClientMain`: no krill code, cheaper per round trip than the fiber generator), "
            : scenario.kind == Scenario.Kind.H2 ? "h2load (see below), "
            : scenario.kind == Scenario.Kind.WEBSOCKET ? "raw Netty (see below), "
            : scenario.kind == Scenario.Kind.WRK ? "wrk (see below), " : "krill fibers on netio, ")
        .append("at most ").append(count(settings.connectionsPerGenerator)).append(" connections per process, spread over ")
        .append(settings.sources).append(" source addresses 127.0.0.2 ... . Medians over rounds, spread (min–max) in")
        .append(" brackets; every ratio is computed within one round against raw Netty (`netty`) and against platform")
        .append(" threads (`").append(String.join("` if measured, else `", scenario.platformVariants()))
        .append("`) at the same connection count.").append(settings.quick ? " **Quick run**: indicative only." : "")
        .append("\n\n");
    if (ownGenerator()) {
      // The sentence above is the harness's own generator's; these scenarios differ as follows.
      b.append("For this scenario: the variants' order reverses every other round (A B C, C B A), one generator")
          .append(" process per cell, no source-address spread; \"÷ netty\" is against raw Netty of the same protocol")
          .append(scenario.kind == Scenario.Kind.WEBSOCKET ? ", \"÷ virtual\" against the virtual-thread server" : "")
          .append(".\n\n");
    }
    b.append(describe()).append("\n\n");
    b.append("## Results\n\n").append(table).append('\n');
    if (!goals.isEmpty()) {
      b.append("## Goals\n\n| goal | target | measured | verdict |\n|---|---|---|---|\n");
      for (Goal g : goals) {
        b.append("| ").append(g.goal()).append(" | ").append(g.target()).append(" | ").append(g.measured()).append(" | ")
            .append(g.verdict()).append(" |\n");
      }
      b.append('\n');
    }
    if (!charts.isEmpty()) {
      b.append("## Charts\n\n");
      for (String c : charts) {
        b.append("![").append(c).append("](").append(c).append(")\n\n");
      }
    }
    b.append("Raw figures: `results.json`; child logs: `").append(Paths.get("logs")).append("/`.\n");
    return b.toString();
  }

  /* The h2 and WebSocket scenarios: an outside generator, servers on the default transport. */
  private boolean ownGenerator() {
    return scenario.kind == Scenario.Kind.H2 || scenario.kind == Scenario.Kind.WEBSOCKET;
  }

  private String describe() {
    switch (scenario.kind) {
      case IDLE:
        return "Idle: each server's heap (used after full GCs) and RSS are read with no client, then with every idle"
            + " keep-alive connection held (each primed with one `GET /hello`); per-connection figures are the growth"
            + " divided by the connections. " + Scenario.IDLE_ACTIVE_CLIENTS + " active closed-loop clients (fewer when"
            + " fewer connections are held) run once alone, which also warms the server up before the baseline, and"
            + " once beside the idle connections; every idle connection is checked with one more request at the end.";
      case ECHO:
        return "Echo: raw TCP, 64-byte messages, closed loop, against the netio echo servers"
            + " (`io.krill.loadtest.echo.EchoServerMain`).";
      case CRAWL:
        return "Crawl: the crawler's benchmark web (testweb, " + (settings.quick ? CrawlScenario.QUICK_HOSTS + " hosts on "
            + CrawlScenario.QUICK_IPS + " addresses, " + CrawlScenario.QUICK_LATENCY : String.format(Locale.ROOT, "%,d",
            CrawlScenario.HOSTS) + " hosts on " + CrawlScenario.IPS + " addresses, " + CrawlScenario.LATENCY)
            + " per request, no Crawl-delay) in its own JVM with its DNS server; each execution mode crawls it in a fresh"
            + " JVM with the same flags (`--delay 0ms --per-host 1 --max-pages " + (settings.quick
            ? CrawlScenario.QUICK_MAX_PAGES + " --max-duration " + CrawlScenario.QUICK_MAX_DURATION
            : CrawlScenario.MAX_PAGES + " --max-duration " + CrawlScenario.MAX_DURATION) + " --fsync never`), interleaved. "
            + (settings.quick ? "pages/s and CPU per page are over the whole crawl (quick run: no warm window); "
            : "Warm pages/s, the headline, counts the pages done from the first progress line at or after second "
            + CrawlScenario.WARM_UP_SECONDS + " (a crawl that ends before second " + (CrawlScenario.WARM_UP_SECONDS
            + CrawlScenario.MIN_WARM_WINDOW_SECONDS) + ", having fetched the whole web: from a third of its length) to"
            + " the last, over that time: on one CPU the crawler's C2 compilers take"
            + " about a third of it for the first 80-90 s, so the whole-crawl rate (the crawl summary's, also shown) mostly"
            + " measures JIT warm-up; ")
            + "CPU per page is the crawler JVM's user + system time (JIT and GC included) over its pages;"
            + (settings.quick ? "" : " live heap is the heap after a full collection (`jcmd GC.run`) requested when the"
            + " progress line first shows " + String.format(Locale.ROOT, "%,d", CrawlScenario.HEAP_AT_PAGES)
            + " pages, so every mode is weighed at the same progress;")
            + " peak heap is the largest heap after any collection in its GC log; in flight counts DNS lookups, robots.txt"
            + " and page fetches. " + CrawlScenario.placement + ". The `" + CrawlScenario.IN_FLIGHT_VARIANT + "` row is the"
            + " in-flight check: every host of a second web (" + (settings.quick ? CrawlScenario.QUICK_IN_FLIGHT_HOSTS
            + " hosts, " + CrawlScenario.QUICK_IN_FLIGHT_LATENCY : String.format(Locale.ROOT, "%,d", CrawlScenario.IN_FLIGHT_HOSTS) + " hosts, "
            + CrawlScenario.IN_FLIGHT_LATENCY) + " per request) is a seed, crawled by fibers with the in-flight cap raised.";
      case STATIC:
        return "Static files, keep-alive: `krill serve`'s static-file server (default settings, fiber mode, one carrier,"
            + " the carriers' default transport, fiber tracking on as `bin/krill` runs it) against nginx (one process, one"
            + " worker, `sendfile on`, `tcp_nopush on`, no access log; config generated per cell) on the same directory:"
            + " `/small.txt` (" + StaticScenario.SMALL_BYTES + " bytes, text/plain) and `/large.bin` (1 MiB). Variants"
            + " `*-12B`/`*-1MiB` are HTTP/1.1 driven by wrk (`-t 1 -c N`, a warm-up run first, then the measured run; latency:"
            + " wrk's p50 and p99); `*-h2-*` are HTTP/2 (h2c, prior knowledge) driven by h2load (`-t 1`, N/"
            + StaticScenario.H2_STREAMS + " connections × " + StaticScenario.H2_STREAMS + " streams, `--warm-up-time`, `-D`;"
            + " latency: h2load gives no percentiles, so the mean and max of its \"time for request\"). A fresh server per cell;"
            + " nginx and krill alternate within a round, the order flips every round. Each HTTP/1.1 cell first fetches"
            + " the file and compares its bytes; a non-2xx answer or a socket error fails the cell. The generator runs on"
            + " the same cores as the server, for both servers alike.";
      case H2:
        return "HTTP/2 hello: h2load (`-t 1 -c N -m " + Http2WebSocketScenario.H2_STREAMS + "`: N connections × "
            + Http2WebSocketScenario.H2_STREAMS + " concurrent streams, `--warm-up-time` = warm-up, `-D` = measured) sends"
            + " `GET /hello`; `httpd-h2` is httpd with `Http2Options.defaults()` (a fiber per stream, h2c by prior knowledge,"
            + " one carrier), `netty-h2` raw Netty HTTP/2 (`Http2FrameCodec` + `Http2MultiplexHandler`, an async handler"
            + " answering HEADERS with HEADERS and one DATA frame, one event loop); the `-tls` variants are the same over"
            + " TLS 1.3 with ALPN h2 (JDK provider on both, one self-signed EC certificate). Both on the carriers' default"
            + " transport (epoll here), both answer 13 bytes with content-type, content-length and date. The order of the"
            + " variants reverses every other round. Server CPU: user + system time from /proc from the warm-up's end to"
            + " h2load's exit, per request over that window. Latency: h2load gives no percentiles, so the mean and max of its"
            + " \"time for request\". Any failed, errored or non-2xx request fails the cell.";
      case WRK:
        return "Hello with wrk on open connections: keep-alive `GET /hello` (13-byte body); " + PinnedWrkScenario.placement()
            + ", so one event loop or one carrier serves every connection. Per cell: a fresh server, one probe request"
            + " (the response's size), then one wrk run (`-t 1 -c N --timeout " + PinnedWrkScenario.REQUEST_TIMEOUT.toSeconds()
            + "s --latency`): once the server holds all N connections (the connects are an accept storm, some waiting for"
            + " SYN retransmits: the \"s to open them\" column), the warm-up (" + settings.warmup.toSeconds() + " s) on the"
            + " open connections, longer until the server's JIT compilers use under "
            + Reports.fmt(PinnedWrkScenario.QUIET_JIT_PERCENT) + " % of a CPU (on one CPU they take it from the loop; at"
            + " most " + PinnedWrkScenario.MAX_JIT_WAIT.toSeconds() + " s more: the \"s of warm-up\"), then the window of "
            + settings.measure.toSeconds() + " s; wrk is stopped by SIGINT when"
            + " the window closes, before it closes its connections. In the window, from /proc: requests = bytes the server"
            + " wrote (`wchar`) ÷ the response's size; server and wrk CPU (user + system); the server's open sockets at"
            + " both ends (the fewer shown; fewer than N fails the cell). wrk's own requests/s and latency cover its whole"
            + " run, connects included; its timeouts are mostly connects that waited for SYN retransmits. A server near 100 % CPU is the bottleneck; below that wrk could not load it, and CPU per request is"
            + " the figure. A non-2xx answer or a failed connect fails the cell.";
      case WEBSOCKET:
        return "WebSocket echo: `WebSocketEchoClientMain` (raw Netty, one NIO loop, its own JVM) opens N sockets to"
            + " `/echo`, then each sends a " + Http2WebSocketScenario.WS_MESSAGE_BYTES + "-byte binary message, waits for"
            + " its echo and sends the next (closed loop). `fiber` and `virtual` are httpd's `WebSocketRoute` (compression"
            + " off) with a blocking-style `receive`/`send` loop in a fiber or a virtual thread per socket; `netty` is"
            + " Netty's `WebSocketServerProtocolHandler` with an async handler writing each frame back; all on the"
            + " carriers' default transport, as many loops as processors. The order reverses every other round. A"
            + " socket not opened or an error fails the cell; server CPU is per echoed message over the measured phase.";
      default:
        return "HTTP/1.1 keep-alive `GET " + scenario.path + "`" + (scenario.pipeline > 1 ? ", pipelined " + scenario.pipeline
            + " deep" : "") + (scenario == Scenario.SLOW ? " (the handler waits 100 ms on a timer)" : "")
            + "; every server answers the same bytes (13-byte text/plain body).";
    }
  }

  private String json() throws IOException {
    ObjectNode root = Json.MAPPER.createObjectNode();
    root.put("scenario", scenario.name).put("date", settings.date).put("command", settings.command)
        .put("commit", settings.commit).put("machine", RunEnvironment.machine()).put("jdk", settings.javaVersion)
        .put("loadBefore", loadBefore).put("loadAfter", loadAfter);
    root.putObject("settings").put("quick", settings.quick).put("rounds", settings.rounds)
        .put("warmupMillis", settings.warmup.toMillis()).put("measureMillis", settings.measure.toMillis())
        .put("heap", settings.heap).put("sources", settings.sources)
        .put("connectionsPerGenerator", settings.connectionsPerGenerator);
    ArrayNode g = root.putArray("goals");
    for (Goal goal : goals) {
      g.addObject().put("goal", goal.goal()).put("target", goal.target()).put("measured", goal.measured())
          .put("verdict", goal.verdict());
    }
    ArrayNode c = root.putArray("cells");
    for (Cell cell : cells) {
      c.add(cellJson(cell));
    }
    return Json.MAPPER.writeValueAsString(root) + "\n";
  }

  private static ObjectNode cellJson(Cell c) {
    ObjectNode o = Json.MAPPER.createObjectNode().put("variant", c.variant).put("connections", c.connections)
        .put("round", c.round);
    if (c.skipped != null) {
      return o.put("skipped", c.skipped);
    }
    if (c.error != null) {
      o.put("error", c.error);
    }
    num(o, "serverCpuPercent", c.serverCpuPercent);
    num(o, "serverCpuMicrosPerRequest", c.serverCpuMicrosPerRequest);
    num(o, "windowRps", c.windowRps);
    num(o, "wrkCpuPercent", c.wrkCpuPercent);
    num(o, "jitCpuPercent", c.jitCpuPercent);
    num(o, "leadInSeconds", c.leadInSeconds);
    num(o, "warmSeconds", c.warmSeconds);
    o.put("openConnections", c.openConnections);
    if (c.scenario.equals(Scenario.HELLO_WRK.name)) {
      o.put("wrkSocketErrors", c.wrkSocketErrors);
    }
    num(o, "wrkRps", c.wrkRps);
    num(o, "wrkP50Micros", c.wrkP50Micros);
    num(o, "wrkP99Micros", c.wrkP99Micros);
    num(o, "requestMeanMicros", c.requestMeanMicros);
    num(o, "requestMaxMicros", c.requestMaxMicros);
    num(o, "heapPerConnection", c.heapPerConnection);
    num(o, "rssPerConnection", c.rssPerConnection);
    num(o, "activeRpsBefore", c.activeRpsBefore);
    num(o, "activeRpsDuring", c.activeRpsDuring);
    num(o, "pagesPerSecond", c.pagesPerSecond);
    num(o, "crawlPagesPerSecond", c.crawlPagesPerSecond);
    if (c.warmFromSecond >= 0) {
      o.put("warmFromSecond", c.warmFromSecond);
    }
    num(o, "cpuMsPerPage", c.cpuMsPerPage);
    num(o, "crawlCpuMsPerPage", c.crawlCpuMsPerPage);
    num(o, "liveHeapMiB", c.liveHeapMiB);
    num(o, "peakHeapMiB", c.peakHeapMiB);
    if (c.peakInFlight > 0) {
      o.put("peakInFlight", c.peakInFlight);
    }
    if (c.held > 0) {
      o.put("held", c.held);
    }
    LoadResult r = c.result;
    if (r != null) {
      o.put("connectionsOpen", r.connections).put("warmupRequests", r.warmupRequests).put("requests", r.requests)
          .put("measuredNanos", r.measuredNanos);
      num(o, "rps", r.throughput());
      ObjectNode latency = o.putObject("latencyMicros");
      for (double p : PERCENTILES) {
        num(latency, ("p" + p).replaceAll("\\.0$", ""), r.latencyMicros(p));
      }
      num(latency, "max", r.latency.getMaxValue() / 1e3);
      o.putObject("errors").put("connect", r.connectErrors).put("reset", r.resetErrors).put("timeout", r.timeoutErrors)
          .put("non2xx", r.non2xx).put("bad", r.badResponses).put("unfinished", r.unfinished);
      if (!r.firstError.isEmpty()) {
        o.put("firstError", r.firstError);
      }
      o.put("latencyHistogram", histogram(r));
    }
    return o;
  }

  /** @return the latency histogram, HdrHistogram-compressed and base64-encoded (nanoseconds) */
  private static String histogram(LoadResult r) {
    ByteBuffer buf = ByteBuffer.allocate(r.latency.getNeededByteBufferCapacity());
    int len = r.latency.encodeIntoCompressedByteBuffer(buf);
    return Base64.getEncoder().encodeToString(java.util.Arrays.copyOf(buf.array(), len));
  }

  /* A measured figure to six significant digits; NaN (not measured) is left out. */
  private static void num(ObjectNode o, String key, double v) {
    if (!Double.isNaN(v) && !Double.isInfinite(v)) {
      o.put(key, new java.math.BigDecimal(v).round(new java.math.MathContext(6)).doubleValue());
    }
  }

  /** @return the variants of the summaries, in run order */
  static Set<String> variants(Map<String, Summary> summaries) {
    Set<String> v = new LinkedHashSet<>();
    for (Summary s : summaries.values()) {
      v.add(s.variant);
    }
    return v;
  }
}
