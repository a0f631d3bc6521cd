package io.krill.loadtest.echo;

import io.krill.fibers.VirtualThreads;
import io.krill.loadtest.internal.ChildProcess;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;

/**
 * Runs the echo comparison of issue #4: starts each server ({@link EchoServerMain}) in its own
 * JVM, then for every round, connection count and server, in that order (A B C D A B C D ...),
 * runs one closed-loop load generator JVM ({@link EchoClientMain}) against it, and writes the
 * report ({@link EchoReport}).
 *
 * <p>usage: {@code EchoComparison --jar JAR --out DIR --name NAME [--quick] [--rounds N]
 * [--connections 1,100,10000] [--servers fiber,netty,virtual,platform] [--heap 1g]
 * [--server-cpus 0] [--client-cpus 1] [--command CMD] [--commit C] [--notes FILE] [--pids FILE]
 * [--load-before TEXT]}. Children run on the JDK that runs this class. {@code --server-cpus}
 * and {@code --client-cpus} pin the two sides with {@code taskset} (empty: no pinning).
 */
public final class EchoComparison {
  static final List<String> ALL_SERVERS = List.of("fiber", "netty", "virtual", "platform");
  /** Also accepted by --servers: the fiber and Netty servers on Netty's native epoll and io_uring transports. */
  static final List<String> KNOWN_SERVERS = List.of("fiber", "netty", "virtual", "platform", "fiber-epoll", "netty-epoll",
      "fiber-uring", "netty-uring");

  private EchoComparison() {}

  /** One measured cell: a server at a connection count in one round. */
  static final class Cell {
    String server;
    int connections;
    int round;
    double rps;
    double seconds;
    long measured;
    Histogram histogram;
    double serverCpuPercent = Double.NaN;
    double clientCpuPercent = Double.NaN;
    double serverCpuMicrosPerRoundTrip = Double.NaN;
    String error;
  }

  /** Run settings, as parsed and as written to the report header. */
  static final class Settings {
    Path jar;
    Path out;
    String name = "echo";
    boolean quick;
    int rounds = 3;
    List<Integer> connections = List.of(1, 100, 10_000);
    List<String> servers = ALL_SERVERS;
    String heap = "1g";
    String serverCpus = "0";
    String clientCpus = "1";
    String command = "";
    String commit = "unknown";
    Path notes;
    Path pids;
    String loadBefore = "";
    String loadAfter = "";
    String java = ProcessHandle.current().info().command().orElse(
        Paths.get(System.getProperty("java.home"), "bin", "java").toString());
    String javaVersion = System.getProperty("java.runtime.version");
    int size = 64;
    int sources = 64;
    long warmupMillis = 3000;
    long warmupCount = 20_000_000;
    long measureMillis = 5000;
    long measureCount = 50_000_000;
    final List<String> skipped = new ArrayList<>();
  }

  public static void main(String[] args) throws Exception {
    Settings s = parse(args);
    Files.createDirectories(s.out);
    Path logs = s.jar.toAbsolutePath().getParent().resolve("echo-logs");
    Files.createDirectories(logs);
    List<Cell> cells = new ArrayList<>();
    Map<String, ChildProcess> servers = new LinkedHashMap<>();
    Thread cleanup = new Thread(ChildProcess::killAll, "kill-children");
    Runtime.getRuntime().addShutdownHook(cleanup);
    try {
      for (String kind : s.servers) {
        if (kind.equals("virtual") && !VirtualThreads.available()) {
          System.out.println("virtual: skipped: " + VirtualThreads.UNAVAILABLE);
          s.skipped.add("virtual: skipped: " + VirtualThreads.UNAVAILABLE);
          continue;
        }
        servers.put(kind, null);
      }
      int cellCount = s.rounds * s.connections.size() * servers.size();
      int done = 0;
      long started = System.nanoTime();
      for (int round = 1; round <= s.rounds; round++) {
        for (int connections : s.connections) {
          for (String kind : new ArrayList<>(servers.keySet())) {
            ChildProcess server = servers.get(kind);
            if (server == null || !server.isAlive()) {
              if (server != null) {
                server.stop(1);
              }
              server = startServer(s, kind, logs);
              servers.put(kind, server);
            }
            Cell c = runCell(s, server, kind, connections, round, logs);
            cells.add(c);
            done++;
            System.out.printf(java.util.Locale.ROOT, "[%d/%d %ds] round %d %-8s %6d conns: %s%n", done, cellCount,
                TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started), round, kind, connections,
                c.error != null ? "FAILED " + c.error
                    : String.format(java.util.Locale.ROOT, "%.0f rps p50 %.0f us p99 %.0f us server cpu %.0f%% client cpu %.0f%%",
                        c.rps, c.histogram.getValueAtPercentile(50) / 1e3, c.histogram.getValueAtPercentile(99) / 1e3,
                        c.serverCpuPercent, c.clientCpuPercent));
            Thread.sleep(s.quick ? 200 : 1000);
          }
        }
      }
    } finally {
      for (ChildProcess c : servers.values()) {
        if (c != null) {
          c.stop(10);
        }
      }
    }
    s.loadAfter = uptime();
    EchoReport.write(s, cells);
  }

  private static ChildProcess startServer(Settings s, String kind, Path logs) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>(pin(s.serverCpus));
    cmd.addAll(List.of(s.java, "-Xms" + s.heap, "-Xmx" + s.heap, "-cp", s.jar.toString(),
        EchoServerMain.class.getName(), kind, "7200"));
    ChildProcess c = new ChildProcess("server " + kind, cmd, logs.resolve("server-" + kind + ".log"), s.pids);
    try {
      String line = c.await(120, TimeUnit.SECONDS, "port ");
      c.port = Integer.parseInt(line.split(" ")[1]);
    } catch (IOException e) {
      c.stop(1);
      throw e;
    }
    return c;
  }

  private static Cell runCell(Settings s, ChildProcess server, String kind, int connections, int round, Path logs)
      throws InterruptedException {
    Cell cell = new Cell();
    cell.server = kind;
    cell.connections = connections;
    cell.round = round;
    List<String> cmd = new ArrayList<>(pin(s.clientCpus));
    cmd.addAll(List.of(s.java, "-Xms" + s.heap, "-Xmx" + s.heap, "-cp", s.jar.toString(),
        EchoClientMain.class.getName(), "--port", String.valueOf(server.port),
        "--connections", String.valueOf(connections), "--size", String.valueOf(s.size),
        "--sources", String.valueOf(s.sources),
        "--warmup-ms", String.valueOf(s.warmupMillis), "--warmup-count", String.valueOf(s.warmupCount),
        "--measure-ms", String.valueOf(s.measureMillis), "--measure-count", String.valueOf(s.measureCount)));
    try (ChildProcess client = new ChildProcess("client " + kind + " " + connections, cmd, logs.resolve("client.log"), s.pids)) {
      client.await(180, TimeUnit.SECONDS, "connected ");
      client.await(s.warmupMillis / 1000 + 60, TimeUnit.SECONDS, "phase measure");
      long serverCpu0 = server.cpuNanos();
      long clientCpu0 = client.cpuNanos();
      long t0 = System.nanoTime();
      client.await(s.measureMillis / 1000 + 60, TimeUnit.SECONDS, "phase done");
      long wall = System.nanoTime() - t0;
      long serverCpu = server.cpuNanos() - serverCpu0;
      long clientCpu = client.cpuNanos() - clientCpu0;
      Map<String, String> r = fields(client.await(60, TimeUnit.SECONDS, "result "));
      cell.rps = Double.parseDouble(r.get("rps"));
      cell.seconds = Double.parseDouble(r.get("seconds"));
      cell.measured = Long.parseLong(r.get("measured"));
      byte[] h = Base64.getDecoder().decode(r.get("histogram"));
      cell.histogram = Histogram.decodeFromCompressedByteBuffer(ByteBuffer.wrap(h), 0);
      if (serverCpu0 >= 0 && clientCpu0 >= 0) {
        cell.serverCpuPercent = 100.0 * serverCpu / wall;
        cell.clientCpuPercent = 100.0 * clientCpu / wall;
        cell.serverCpuMicrosPerRoundTrip = cell.measured == 0 ? Double.NaN : serverCpu / 1e3 / cell.measured;
      }
      if (!"0".equals(r.get("failures"))) {
        cell.error = "client reported " + r.get("failures") + " failures (see loadtest/target/echo-logs)";
      }
    } catch (IOException | RuntimeException | java.util.zip.DataFormatException e) {
      cell.error = e.getMessage();
    }
    return cell;
  }

  private static List<String> pin(String cpus) {
    if (cpus == null || cpus.isEmpty()) {
      return List.of();
    }
    return List.of("taskset", "-c", cpus);
  }

  static Map<String, String> fields(String line) {
    Map<String, String> m = new HashMap<>();
    for (String kv : line.split(" ")) {
      int i = kv.indexOf('=');
      if (i > 0) {
        m.put(kv.substring(0, i), kv.substring(i + 1));
      }
    }
    return m;
  }

  static String uptime() {
    try {
      Process p = new ProcessBuilder("uptime").redirectErrorStream(true).start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
      p.waitFor(5, TimeUnit.SECONDS);
      return out;
    } catch (IOException e) {
      return "uptime: " + e.getMessage();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "uptime: interrupted";
    }
  }

  private static Settings parse(String[] args) {
    Settings s = new Settings();
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      if (a.equals("--quick")) {
        s.quick = true;
        continue;
      }
      if (i + 1 >= args.length) {
        throw new IllegalArgumentException(a + ": missing value");
      }
      String v = args[++i];
      switch (a) {
        case "--jar": s.jar = Paths.get(v); break;
        case "--out": s.out = Paths.get(v); break;
        case "--name": s.name = v; break;
        case "--rounds": s.rounds = Integer.parseInt(v); break;
        case "--connections": s.connections = ints(v); break;
        case "--servers": s.servers = List.of(v.split(",")); break;
        case "--heap": s.heap = v; break;
        case "--server-cpus": s.serverCpus = v; break;
        case "--client-cpus": s.clientCpus = v; break;
        case "--command": s.command = v; break;
        case "--commit": s.commit = v; break;
        case "--notes": s.notes = Paths.get(v); break;
        case "--pids": s.pids = Paths.get(v); break;
        case "--load-before": s.loadBefore = v; break;
        case "--warmup-ms": s.warmupMillis = Long.parseLong(v); break;
        case "--measure-ms": s.measureMillis = Long.parseLong(v); break;
        default: throw new IllegalArgumentException("unknown option: " + a);
      }
    }
    if (s.jar == null || s.out == null) {
      throw new IllegalArgumentException("--jar and --out are required");
    }
    if (s.quick) {
      s.rounds = Math.min(s.rounds, 1);
      s.warmupMillis = Math.min(s.warmupMillis, 1000);
      s.measureMillis = Math.min(s.measureMillis, 1500);
    }
    if (s.rounds < 1 || s.rounds > 20) {
      throw new IllegalArgumentException("rounds: " + s.rounds + " (expected: 1..20)");
    }
    for (String k : s.servers) {
      if (!KNOWN_SERVERS.contains(k)) {
        throw new IllegalArgumentException("servers: " + k + " (expected: one of " + KNOWN_SERVERS + ")");
      }
    }
    if (s.loadBefore.isEmpty()) {
      s.loadBefore = uptime();
    }
    return s;
  }

  private static List<Integer> ints(String csv) {
    List<Integer> l = new ArrayList<>();
    for (String p : csv.split(",")) {
      l.add(Integer.parseInt(p.trim()));
    }
    return l;
  }
}
