package io.krill.loadtest.harness;

import io.krill.loadtest.echo.WebSocketEchoClientMain;
import io.krill.loadtest.internal.ChildProcess;
import io.krill.loadtest.internal.Reports;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The HTTP/2 and WebSocket comparisons' measurements, each server alone in a fresh JVM per cell:
 *
 * <ul>
 *   <li>{@code h2-hello}: h2load ({@code -t 1 -c N -m }{@value #H2_STREAMS}, {@code --warm-up-time},
 *       {@code -D}) sends {@code GET /hello} to httpd (a fiber per stream, one carrier) and to raw
 *       Netty HTTP/2 (one event loop), over h2c and over TLS with ALPN;
 *   <li>{@code websocket-echo}: {@link WebSocketEchoClientMain} (raw Netty, its own JVM) holds N
 *       sockets, each echoing a {@value #WS_MESSAGE_BYTES}-byte binary message in a closed loop,
 *       against httpd's WebSocket route with a fiber or a virtual thread per socket and raw
 *       Netty's WebSocket handler.
 * </ul>
 *
 * <p>{@link LoadtestRun} runs the rounds (the order of the variants reverses every other round:
 * A B C, C B A, ...) and starts each server; this class measures a cell. The server's CPU is
 * read from {@code /proc} over the measured phase; with the measured requests it gives CPU time
 * per request, which other processes on the same cores disturb less than requests per second. Any failed, errored or
 * non-2xx h2load request, and any socket the echo client could not open or lost, fails the cell.
 */
final class Http2WebSocketScenario {
  /** Concurrent streams per HTTP/2 connection (h2load's {@code -m}). */
  static final int H2_STREAMS = 100;
  /** The WebSocket echo's message size, in bytes. */
  static final int WS_MESSAGE_BYTES = 32;

  private final RunSettings settings;
  private final Path logs;
  /** The run, for its child JVM command line. */
  private final LoadtestRun run;

  Http2WebSocketScenario(RunSettings settings, Path logs, LoadtestRun run) {
    this.settings = settings;
    this.logs = logs;
    this.run = run;
  }

  /** @return whether {@code s} is measured here (h2-hello, websocket-echo) */
  static boolean handles(Scenario s) {
    return s.kind == Scenario.Kind.H2 || s.kind == Scenario.Kind.WEBSOCKET;
  }

  /** @return the raw Netty variant {@code variant} is compared with: the same protocol, over TLS or not */
  static String reference(String variant) {
    if (variant.startsWith("netty")) {
      return variant;
    }
    return variant.startsWith("httpd-h2") ? "netty" + variant.substring("httpd".length()) : "netty";
  }

  /** @return a measured cell's console line */
  static String summary(Cell c) {
    boolean ws = c.scenario.equals(Scenario.WEBSOCKET_ECHO.name);
    return String.format(Locale.ROOT, "%.0f %s/s %sserver cpu %s%% (%s us per %s)", c.wrkRps, ws ? "messages" : "requests",
        ws ? "" : H2load.latency(c) + " ", Reports.fmt(c.serverCpuPercent), Reports.fmt(c.serverCpuMicrosPerRequest),
        ws ? "message" : "request");
  }

  /** Measures {@code c} against the started {@code server}: h2load, or the WebSocket echo client. */
  void measure(Scenario s, Cell c, ChildProcess server) throws IOException, InterruptedException {
    if (s.kind == Scenario.Kind.H2) {
      h2load(server, c);
    } else {
      echo(server, c);
    }
  }

  /* h2load in one thread: its warm-up, then the measured phase, the server's CPU read between the two. */
  private void h2load(ChildProcess server, Cell c) throws IOException, InterruptedException {
    long warm = Math.max(1, settings.warmup.toSeconds());
    long measure = Math.max(1, settings.measure.toSeconds());
    String url = (c.variant.endsWith("-tls") ? "https" : "http") + "://127.0.0.1:" + server.port + "/hello";
    Path output = logs.resolve("h2load-" + c.variant + "-" + c.connections + "-" + c.round + ".txt");
    Process p = new ProcessBuilder(H2load.command(url, c.connections, H2_STREAMS, warm, measure))
        .redirectErrorStream(true).redirectOutput(output.toFile()).start();
    try {
      // The connections' set-up (TLS handshakes) comes first, then h2load's warm-up; its end is not printed,
      // so the CPU window starts at the warm-up's planned end and stops when h2load exits.
      boolean ended = p.waitFor(warm, TimeUnit.SECONDS);
      long cpu0 = server.cpuNanos();
      long t0 = System.nanoTime();
      if (!ended) {
        p.waitFor();
      }
      long wall = System.nanoTime() - t0;
      long cpu = server.cpuNanos() - cpu0;
      List<String> lines = Files.readAllLines(output, StandardCharsets.UTF_8);
      H2load.parse(lines, c);
      Files.deleteIfExists(output); // kept only when the cell failed
      if (c.error != null) {
        Files.write(output, lines, StandardCharsets.UTF_8);
      }
      cpu(c, cpu0, cpu, wall);
    } finally {
      p.destroyForcibly();
    }
  }

  /* CPU share over the window, and CPU per request over the requests of the measured phase. */
  private static void cpu(Cell c, long cpu0, long cpu, long wallNanos) {
    if (cpu0 < 0 || Double.isNaN(c.wrkRps) || c.wrkRps <= 0) {
      return;
    }
    c.serverCpuPercent = 100.0 * cpu / wallNanos;
    // The window's CPU over the requests in the window (the rate over the window's own length).
    c.serverCpuMicrosPerRequest = cpu / 1e3 / (c.wrkRps * wallNanos / 1e9);
  }

  private static final Pattern ECHO_RESULT = Pattern.compile("sockets (\\d+) messages/s ([0-9.]+) errors (\\d+)");

  /* The echo client in its own JVM: every socket opened, then its warm-up and measured phases. */
  private void echo(ChildProcess server, Cell c) throws IOException, InterruptedException {
    List<String> cmd = run.jvm();
    cmd.add(cmd.indexOf("-cp"), "-D" + LoadtestRun.GENERATOR_SPIN_PROPERTY + "=0");
    cmd.addAll(List.of(WebSocketEchoClientMain.class.getName(), String.valueOf(server.port),
        String.valueOf(c.connections), String.valueOf(WS_MESSAGE_BYTES),
        String.valueOf(Math.max(1, settings.warmup.toSeconds())), String.valueOf(Math.max(1, settings.measure.toSeconds()))));
    try (ChildProcess gen = new ChildProcess("generator websocket", cmd, logs.resolve("generator.log"), null)) {
      gen.await(300, TimeUnit.SECONDS, "connected ");
      gen.await(settings.warmup.toSeconds() + 60, TimeUnit.SECONDS, "phase measure");
      long cpu0 = server.cpuNanos();
      long t0 = System.nanoTime();
      gen.await(settings.measure.toSeconds() + 60, TimeUnit.SECONDS, "phase done");
      long wall = System.nanoTime() - t0;
      long cpu = server.cpuNanos() - cpu0;
      parseEcho(gen.await(60, TimeUnit.SECONDS, "sockets "), c);
      cpu(c, cpu0, cpu, wall);
    }
  }

  /** The echo client's result line; a socket not opened, an error, or no echo at all fails the cell. */
  static void parseEcho(String line, Cell c) {
    Matcher m = ECHO_RESULT.matcher(line);
    if (!m.find()) {
      c.error = "websocket echo client: " + line;
      return;
    }
    long open = Long.parseLong(m.group(1));
    c.wrkRps = Double.parseDouble(m.group(2));
    long errors = Long.parseLong(m.group(3));
    if (open != c.connections || errors > 0 || c.wrkRps <= 0) {
      c.error = "websocket echo client: " + open + " of " + c.connections + " sockets open, " + errors + " errors, "
          + m.group(2) + " messages/s";
    }
  }
}
