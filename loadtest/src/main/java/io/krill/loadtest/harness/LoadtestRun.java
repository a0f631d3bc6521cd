package io.krill.loadtest.harness;

import io.krill.config.JvmOptions;
import io.krill.fibers.spi.Carriers;
import io.krill.loadtest.echo.EchoClientMain;
import io.krill.loadtest.echo.EchoServerMain;
import io.krill.loadtest.echo.WebSocketEchoServerMain;
import io.krill.loadtest.internal.ChildProcess;
import io.krill.loadtest.internal.Reports;
import io.krill.loadtest.load.LoadMain;
import io.krill.loadtest.load.LoadResult;
import io.krill.loadtest.load.LoadSpec;
import io.krill.loadtest.servers.ServerMain;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs one scenario: for every round, connection count and variant, in that order (A B A B
 * ...), a fresh server JVM and fresh generator JVM(s) against it; then hands the cells to
 * {@link Report}. Connection counts above {@link RunSettings#connectionsPerGenerator} are
 * split over several generator processes (the per-process file cap), whose results merge.
 *
 * <p>Threading: one thread; every child is stopped before the next cell starts, and killed
 * by the JVM's shutdown hook if the run is interrupted.
 */
final class LoadtestRun {
  /** How long a server may take to print its port. */
  static final long SERVER_START_SECONDS = 120;
  /** The fibers runtime's idle-spin setting, set to 0 for generator JVMs. */
  static final String GENERATOR_SPIN_PROPERTY = "krill.fibers.spinNanos";

  private final RunSettings settings;
  private final PrintStream out;
  private final Path logs;
  /** What the last server that skipped itself printed. */
  private String skippedLine;

  LoadtestRun(RunSettings settings, PrintStream out, Path logs) {
    this.settings = settings;
    this.out = out;
    this.logs = logs;
  }

  /** @return the cells of {@code s}, in the order they ran */
  List<Cell> run(Scenario s) throws IOException, InterruptedException {
    Files.createDirectories(logs);
    if (s.kind == Scenario.Kind.CRAWL) {
      return new CrawlScenario(settings, out, logs).run(s);
    }
    if (s.kind == Scenario.Kind.STATIC) {
      return new StaticScenario(settings, logs, this).run(s);
    }
    return cells(s, c -> runCell(s, c));
  }

  /** Measures one cell; a failure is recorded in the cell, not thrown. */
  interface CellRunner {
    void run(Cell c) throws InterruptedException;
  }

  /**
   * Every round, connection count and variant (in {@link #order the round's order}), each cell
   * measured by {@code runner} unless the children's JDK cannot run it, with a console line per cell.
   *
   * @return the cells, in the order they ran
   */
  List<Cell> cells(Scenario s, CellRunner runner) throws InterruptedException {
    List<Cell> cells = new ArrayList<>();
    List<Integer> counts = settings.connections(s);
    List<String> variants = settings.variants(s);
    int total = settings.rounds * counts.size() * variants.size();
    long t0 = System.nanoTime();
    for (int round = 1; round <= settings.rounds; round++) {
      List<String> order = order(s, variants, round);
      for (int connections : counts) {
        for (String variant : order) {
          Cell c = new Cell(s.name, variant, connections, round);
          String skip = skipReason(variant);
          if (skip != null) {
            c.skipped = skip;
          } else {
            runner.run(c);
          }
          cells.add(c);
          out.printf(Locale.ROOT, "[%d/%d %ds] %s round %d %-16s %,7d conns: %s%n", cells.size(), total,
              TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - t0), s.name, round, variant, connections, summary(c));
          out.flush();
        }
      }
    }
    return cells;
  }

  /**
   * @return the variants in round {@code round}'s order: the scenarios against a reference server
   *     flip it every other round, so that a drift of the machine's load over a round favours none
   */
  static List<String> order(Scenario s, List<String> variants, int round) {
    List<String> order = new ArrayList<>(variants);
    if (round % 2 == 1) {
      return order;
    }
    if (s.kind == Scenario.Kind.STATIC) {
      // nginx, krill per file and protocol: each pair flips (A B, then B A).
      for (int i = 0; i + 1 < order.size(); i += 2) {
        String a = order.get(i);
        order.set(i, order.get(i + 1));
        order.set(i + 1, a);
      }
    } else if (Http2WebSocketScenario.handles(s)) {
      java.util.Collections.reverse(order); // A B C, then C B A
    }
    return order;
  }

  /** @return why {@code variant} cannot run on the children's JDK, or null */
  String skipReason(String variant) {
    if (variant.contains("virtual") && settings.javaFeature < 21) {
      return "skipped (needs JDK 21+; children run on JDK " + settings.javaFeature + ")";
    }
    return null;
  }

  static String summary(Cell c) {
    if (c.skipped != null) {
      return c.skipped;
    }
    if (c.error != null) {
      return "FAILED " + c.error;
    }
    if (c.scenario.equals(Scenario.STATIC.name)) {
      return StaticScenario.summary(c);
    }
    if (c.scenario.equals(Scenario.HELLO_WRK.name)) {
      return PinnedWrkScenario.summary(c);
    }
    if (c.scenario.equals(Scenario.H2_HELLO.name) || c.scenario.equals(Scenario.WEBSOCKET_ECHO.name)) {
      return Http2WebSocketScenario.summary(c);
    }
    LoadResult r = c.result;
    StringBuilder b = new StringBuilder();
    if (!Double.isNaN(c.heapPerConnection)) {
      b.append(String.format(Locale.ROOT, "held %,d, heap %s B/conn, rss %s B/conn, active %s -> %s rps; ", c.held,
          Reports.fmt(c.heapPerConnection), Reports.fmt(c.rssPerConnection), Reports.fmt(c.activeRpsBefore),
          Reports.fmt(c.activeRpsDuring)));
    }
    if (r != null) {
      b.append(String.format(Locale.ROOT, "%.0f rps p50 %.0f us p99 %.0f us server cpu %s%%", r.throughput(),
          r.latencyMicros(50), r.latencyMicros(99), Reports.fmt(c.serverCpuPercent)));
      if (r.errors() + r.unfinished > 0) {
        b.append(" errors ").append(r.errorsByKind());
      }
    }
    if (!Double.isNaN(c.wrkRps)) {
      b.append(String.format(Locale.ROOT, "; wrk %.0f rps", c.wrkRps));
    }
    return b.toString();
  }

  private void runCell(Scenario s, Cell c) throws InterruptedException {
    ChildProcess server = null;
    try {
      server = startServer(s, c.variant);
      if (server == null) {
        c.skipped = "skipped (" + skippedLine + ")";
        return;
      }
      if (s.kind == Scenario.Kind.IDLE) {
        runIdle(s, c, server);
      } else if (Http2WebSocketScenario.handles(s)) {
        new Http2WebSocketScenario(settings, logs, this).measure(s, c, server);
      } else if (s.kind == Scenario.Kind.WRK) {
        new PinnedWrkScenario(settings, logs).measure(c, server);
      } else {
        List<String> gen = generatorArgs(s, server.port);
        c.result = measure(c, server, gen, c.connections);
        if (s == Scenario.HELLO && settings.wrk && Wrk.crossChecks(c.connections) && Wrk.available()) {
          Wrk.run(settings, server.port, c);
        }
      }
    } catch (IOException | RuntimeException e) {
      c.fail(e);
    } finally {
      if (server != null) {
        server.stop(10);
      }
    }
  }

  private ChildProcess startServer(Scenario s, String variant) throws IOException, InterruptedException {
    List<String> cmd = jvm();
    if (Http2WebSocketScenario.handles(s)) {
      // As these servers are deployed: the carriers' default transport (epoll where it loads), as raw Netty's here.
      cmd.removeIf(a -> a.startsWith("-D" + Carriers.IO_PROPERTY + "="));
    }
    String main = s.kind == Scenario.Kind.ECHO ? EchoServerMain.class.getName()
        : s.kind == Scenario.Kind.WEBSOCKET ? WebSocketEchoServerMain.class.getName() : ServerMain.class.getName();
    cmd.addAll(List.of(main, variant, String.valueOf(RunSettings.SERVER_MAX_SECONDS)));
    if (s.kind == Scenario.Kind.WRK) {
      cmd.addAll(0, PinnedWrkScenario.pin(PinnedWrkScenario.SERVER_CPU));
    }
    return startServer(variant, cmd);
  }

  /**
   * Starts a server JVM and waits for the port it prints.
   *
   * @param variant the variant it serves, which names its log
   * @param cmd its command line
   * @return the server, or null if it printed that it skipped itself (why in {@link #skippedLine})
   */
  ChildProcess startServer(String variant, List<String> cmd) throws IOException, InterruptedException {
    ChildProcess c = new ChildProcess("server " + variant, cmd, logs.resolve("server-" + variant + ".log"), null);
    try {
      String line = c.await(SERVER_START_SECONDS, TimeUnit.SECONDS, "port ", "skipped");
      if (line.startsWith("skipped")) {
        skippedLine = line.replaceFirst("^skipped:?\\s*", "");
        c.stop(5);
        return null;
      }
      c.port = Integer.parseInt(line.split(" ")[1]);
      return c;
    } catch (IOException | RuntimeException e) {
      c.stop(1);
      throw e;
    }
  }

  /** @return a child JVM command line up to the main class: fixed heap, the run's JDK and classpath */
  List<String> jvm() {
    // krill's carriers default to epoll where it loads; the raw Netty servers run NIO, so every
    // krill process (servers and generators) is pinned to NIO too: the same transport on both
    // sides, and the same as the runs before the default changed.
    List<String> cmd = new ArrayList<>(List.of(settings.java(), "-Xms" + settings.heap, "-Xmx" + settings.heap,
        "-Dkrill.fibers.track=false", "-D" + Carriers.IO_PROPERTY + "=nio", "-XX:+UseG1GC"));
    // On JDK 23+ Netty runs without sun.misc.Unsafe unless allowed, and without its selected-key
    // set unless sun.nio.ch is open: a Netty shop turns both on; every child gets the same options.
    cmd.addAll(JvmOptions.forJdk(settings.javaFeature));
    cmd.addAll(settings.childJvmOptions);
    cmd.addAll(List.of("-cp", settings.classpath));
    return cmd;
  }

  private List<String> generatorArgs(Scenario s, int port) {
    List<String> a = new ArrayList<>(List.of("--port", String.valueOf(port), "--sources", String.valueOf(settings.sources),
        "--warmup-ms", String.valueOf(settings.warmup.toMillis()),
        "--measure-ms", String.valueOf(settings.measure.toMillis())));
    if (s.kind == Scenario.Kind.ECHO) {
      a.addAll(List.of("--size", String.valueOf(LoadSpec.DEFAULT_ECHO_SIZE), "--format", "load"));
    } else {
      a.addAll(List.of("--path", s.path, "--pipeline", String.valueOf(s.pipeline)));
    }
    return a;
  }

  /**
   * Runs {@code connections} over as many generator processes as the file cap needs, measures
   * the server's CPU over their measured phase, and merges their results.
   */
  private LoadResult measure(Cell c, ChildProcess server, List<String> args, int connections)
      throws IOException, InterruptedException {
    List<ChildProcess> gens = startGenerators(args, connections, Scenario.ECHO.name.equals(c.scenario) ? null : "closed");
    try {
      for (ChildProcess g : gens) {
        g.await(300, TimeUnit.SECONDS, "connected ");
      }
      for (ChildProcess g : gens) {
        g.await(settings.warmup.toSeconds() + 60, TimeUnit.SECONDS, "phase measure");
      }
      long cpu0 = server.cpuNanos();
      long t0 = System.nanoTime();
      for (ChildProcess g : gens) {
        g.await(settings.measure.toSeconds() + 60, TimeUnit.SECONDS, "phase done");
      }
      long wall = System.nanoTime() - t0;
      long cpu = server.cpuNanos() - cpu0;
      if (cpu0 >= 0) {
        c.serverCpuPercent = 100.0 * cpu / wall;
      }
      LoadResult merged = null;
      for (ChildProcess g : gens) {
        LoadResult r = LoadResult.parse(g.await(120, TimeUnit.SECONDS, "result "));
        merged = merged == null ? r : merged.merge(r);
      }
      return merged;
    } finally {
      for (ChildProcess g : gens) {
        g.stop(10);
      }
    }
  }

  /* mode: LoadMain's --mode (closed, idle), or null for the echo client (EchoClientMain). */
  private List<ChildProcess> startGenerators(List<String> args, int connections, String mode) throws IOException {
    int per = settings.connectionsPerGenerator;
    int processes = (connections + per - 1) / per;
    List<ChildProcess> gens = new ArrayList<>();
    try {
      for (int i = 0; i < processes; i++) {
        int share = connections / processes + (i < connections % processes ? 1 : 0);
        List<String> cmd = jvm();
        // The generator's idle carriers must not spin for wake-ups (fibers' krill.fibers.spinNanos):
        // on 2 shared cores every spin is taken from the server under test.
        cmd.add(cmd.indexOf("-cp"), "-D" + GENERATOR_SPIN_PROPERTY + "=0");
        // Echo is driven by the raw-Netty echo client, which shares no code with the servers it
        // compares and is cheaper per round trip than the fiber generator; HTTP by LoadMain.
        cmd.add(mode == null ? EchoClientMain.class.getName() : LoadMain.class.getName());
        cmd.addAll(args);
        cmd.addAll(List.of("--connections", String.valueOf(share)));
        if (mode != null) {
          cmd.addAll(List.of("--mode", mode));
        }
        gens.add(new ChildProcess("generator " + mode + " " + (i + 1) + "/" + processes, cmd,
            logs.resolve("generator.log"), null));
      }
    } catch (IOException | RuntimeException e) {
      for (ChildProcess g : gens) {
        g.stop(1);
      }
      throw e;
    }
    return gens;
  }

  /*
   * Idle: the active clients' throughput alone (which also warms the server up), the server's
   * memory with no connection open, then N idle keep-alive connections held (each primed with
   * one request), memory again, the active clients again beside them, and finally every idle
   * connection checked with one more request.
   */
  /** How long the held connections idle before the server's memory is read (httpd needs 5.1 s at most). */
  static final long IDLE_SETTLE_MILLIS = 6_000;

  private void runIdle(Scenario s, Cell c, ChildProcess server) throws IOException, InterruptedException {
    int activeClients = Math.min(Scenario.IDLE_ACTIVE_CLIENTS, c.connections);
    List<String> active = generatorArgs(s, server.port);
    // The active run alone also warms the server up, so that the baseline below holds its classes and JIT state.
    c.activeRpsBefore = measure(new Cell(c.scenario, c.variant, activeClients, c.round), server, active, activeClients)
        .throughput();
    Map<String, Long> before = memory(server);
    List<String> idle = new ArrayList<>(List.of("--port", String.valueOf(server.port), "--path", s.path,
        "--sources", String.valueOf(settings.sources), "--warmup-ms", "120000", "--measure-ms", "1800000"));
    List<ChildProcess> holders = startGenerators(idle, c.connections, "idle");
    try {
      for (ChildProcess g : holders) {
        g.await(300, TimeUnit.SECONDS, "phase measure");
      }
      // Weighed once idle, not just after their request: httpd's fiber mode lets a connection
      // idle for 5 s give up its fiber, as a long-lived idle keep-alive connection would.
      Thread.sleep(IDLE_SETTLE_MILLIS);
      Map<String, Long> during = memory(server);
      c.heapPerConnection = (during.get("heap") - before.get("heap")) / (double) c.connections;
      c.rssPerConnection = (during.get("rss") - before.get("rss")) / (double) c.connections;
      c.result = measure(c, server, active, activeClients);
      c.activeRpsDuring = c.result.throughput();
      LoadResult held = null;
      for (ChildProcess g : holders) {
        g.closeInput();
      }
      for (ChildProcess g : holders) {
        LoadResult r = LoadResult.parse(g.await(120, TimeUnit.SECONDS, "result "));
        held = held == null ? r : held.merge(r);
      }
      c.held = held.requests;
      if (held.errors() > 0 || held.requests != c.connections) {
        c.error = "idle connections: " + held.requests + " of " + c.connections + " answered after the hold, errors "
            + held.errorsByKind() + (held.firstError.isEmpty() ? "" : ", first: " + held.firstError);
      }
    } finally {
      for (ChildProcess g : holders) {
        g.stop(10);
      }
    }
  }

  private static Map<String, Long> memory(ChildProcess server) throws IOException, InterruptedException {
    server.send("mem");
    String line = server.await(60, TimeUnit.SECONDS, "mem ");
    Map<String, Long> m = new HashMap<>();
    for (String kv : line.substring(4).split(" ")) {
      String[] p = kv.split("=");
      m.put(p[0], Long.parseLong(p[1]));
    }
    return m;
  }
}
