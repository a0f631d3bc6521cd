package io.krill.loadtest.harness;

import io.krill.loadtest.internal.ChildProcess;
import io.krill.testkit.TestTools;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * The {@code hello-wrk} measurement: keep-alive {@code GET /hello} driven by wrk with every
 * connection already open, each side on its own CPU.
 *
 * <p>Each cell: the server JVM alone on {@link #SERVER_CPU} ({@code taskset}, so one carrier or
 * one event loop), wrk ({@code -t 1 -c N}) alone on {@link #WRK_CPU}; one probe request gives the
 * response's size in bytes; then one wrk run: once the server holds all N of its connections
 * (opening them is an accept storm, not keep-alive hello: with a 4,096-deep backlog some connects
 * wait seconds for SYN retransmits), the run's warm-up time (at least {@link #SETTLE}) on the open
 * connections, extended until the server's JIT compilers go quiet ({@link #QUIET_JIT_PERCENT}, at most
 * {@link #MAX_JIT_WAIT}: on one CPU they take their time from the loop), then the measured window; wrk is stopped with SIGINT (it prints its figures) when
 * the window closes, before it closes its connections. Over the window, read
 * from {@code /proc}: the server's CPU time, wrk's CPU time, and the bytes the server wrote to its
 * sockets ({@code wchar}), which divided by the response's size are the requests it answered;
 * the server's open sockets are counted at both ends of the window. wrk's own requests per second
 * (over its whole run) and its latency percentiles are kept beside them.
 *
 * <p>A server at about 100 % of its CPU in the window is the bottleneck; below that, wrk on its
 * one CPU could not load it, and CPU time per request is the figure to compare. Without two CPUs
 * or {@code taskset}, the JVMs run unpinned and the report says so.
 */
final class PinnedWrkScenario {
  /** Default: the measured window per cell (the run's {@code --measure-ms} overrides it). */
  static final Duration DEFAULT_MEASURE = Duration.ofSeconds(15);
  /** Quick run: the measured window per cell. */
  static final Duration QUICK_MEASURE = Duration.ofSeconds(2);
  /** Longest the server may take to hold every connection of the measured wrk run. */
  static final Duration MAX_LEAD_IN = Duration.ofSeconds(60);
  /**
   * For the run's estimate: how long the server takes to hold each 1,000 new connections while it
   * serves them (10,000 took 18–60 s on a shared 2-CPU host, SYN retransmits included).
   */
  static final Duration TYPICAL_LEAD_IN_PER_THOUSAND = Duration.ofSeconds(4);
  /** From the server holding every connection to the window's start (their first requests answered). */
  static final Duration SETTLE = Duration.ofSeconds(1);
  /** Past the warm-up, the window waits until the server's JIT compilers use less than this share of a CPU. */
  static final double QUIET_JIT_PERCENT = 2;
  /** The longest the window waits for quiet compilers past the warm-up. */
  static final Duration MAX_JIT_WAIT = Duration.ofSeconds(60);
  /** How long each look at the compilers' CPU lasts. */
  static final long JIT_SAMPLE_MILLIS = 1_000;
  /** How often the server's open connections are counted while they open. */
  static final long POLL_MILLIS = 200;
  /** The CPU the server JVM is pinned to. */
  static final int SERVER_CPU = 0;
  /** The CPU wrk is pinned to. */
  static final int WRK_CPU = 1;
  /**
   * wrk's timeout per request ({@code --timeout}): above its 2 s default, which 10,000 connections
   * on one cold CPU can pass while the server compiles; a timeout still fails the cell.
   */
  static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(10);
  /** Longest wait for the probe request's answer. */
  static final int PROBE_TIMEOUT_MILLIS = 10_000;

  private final RunSettings settings;
  private final Path logs;

  PinnedWrkScenario(RunSettings settings, Path logs) {
    this.settings = settings;
    this.logs = logs;
  }

  /** @return {@code taskset -c cpu} when both sides can be pinned apart, else nothing (unpinned) */
  static List<String> pin(int cpu) {
    return CrawlScenario.pin(cpu);
  }

  /** @return how the server and wrk are placed on CPUs, for the report */
  static String placement() {
    return pin(SERVER_CPU).isEmpty() ? "server and wrk unpinned, sharing every CPU (no taskset, or one CPU)"
        : "server JVM pinned to CPU " + SERVER_CPU + ", wrk to CPU " + WRK_CPU + " (taskset)";
  }

  /** @return a measured cell's console line */
  static String summary(Cell c) {
    return String.format(Locale.ROOT, "%.0f rps in the window (wrk: %.0f rps, p50 %s us p99 %s us, socket errors: %s),"
        + " %d conns open after %.1f s, warm-up %.1f s, server cpu %s%% (JIT %s%%; %s us per request), wrk cpu %s%%",
        c.windowRps, c.wrkRps, fmt(c.wrkP50Micros), fmt(c.wrkP99Micros), c.wrkSocketErrors, c.openConnections,
        c.leadInSeconds, c.warmSeconds, fmt(c.serverCpuPercent), fmt(c.jitCpuPercent), fmt(c.serverCpuMicrosPerRequest),
        fmt(c.wrkCpuPercent));
  }

  private static String fmt(double v) {
    return io.krill.loadtest.internal.Reports.fmt(v);
  }

  /** Measures {@code c} against the started (pinned) {@code server}. */
  void measure(Cell c, ChildProcess server) throws IOException, InterruptedException {
    long pid = server.process.pid();
    int before = descriptors(pid);
    long responseBytes = probe(server.port);
    String url = "http://127.0.0.1:" + server.port + Scenario.HELLO_WRK.path;
    Path wrk = TestTools.require("wrk");
    long window = Math.max(1, settings.measure.toSeconds());
    // wrk's planned end is past the window's latest end: it is stopped (SIGINT) when the window closes.
    long total = MAX_LEAD_IN.toSeconds() + settings.warmup.toSeconds() + window + 60;
    Path output = logs.resolve("wrk-" + c.variant + "-" + c.connections + "-" + c.round + ".txt");
    Process p = start(wrk, url, c.connections, total, output);
    try {
      long leadIn = System.nanoTime();
      long deadline = leadIn + MAX_LEAD_IN.toNanos();
      while (descriptors(pid) - before < c.connections && System.nanoTime() < deadline && p.isAlive()) {
        Thread.sleep(POLL_MILLIS);
      }
      boolean allOpen = descriptors(pid) - before >= c.connections;
      if (allOpen) {
        c.leadInSeconds = (System.nanoTime() - leadIn) / 1e9;
      }
      // The warm-up, on the open connections: the JIT's time (it has had the connects' time as well),
      // and on one CPU the compilers take it from the loop, so past the warm-up the window waits
      // for them to go quiet. Connections still opening are counted on through it, so that the
      // time to open them all is the real one, not the lead-in's limit (NaN if they never were).
      long warmStart = System.nanoTime();
      long warmEnd = warmStart + TimeUnit.MILLISECONDS.toNanos(Math.max(SETTLE.toMillis(), settings.warmup.toMillis()));
      for (long now = warmStart; now < warmEnd; now = System.nanoTime()) {
        Thread.sleep(Math.min(POLL_MILLIS, Math.max(1, TimeUnit.NANOSECONDS.toMillis(warmEnd - now))));
        if (!allOpen && descriptors(pid) - before >= c.connections) {
          allOpen = true;
          c.leadInSeconds = (System.nanoTime() - leadIn) / 1e9;
        }
      }
      if (!settings.quick) { // a quick run is indicative only, and its server has barely begun to compile
        awaitQuietCompilers(pid, System.nanoTime() + MAX_JIT_WAIT.toNanos());
      }
      c.warmSeconds = (System.nanoTime() - warmStart) / 1e9;
      long jit0 = compilerNanos(pid);
      int open0 = descriptors(pid) - before;
      long cpu0 = server.cpuNanos();
      long wrkCpu0 = ChildProcess.cpuNanos(p.pid());
      long written0 = written(pid);
      long t0 = System.nanoTime();
      Thread.sleep(TimeUnit.SECONDS.toMillis(window));
      long written = written(pid) - written0;
      long cpu = server.cpuNanos() - cpu0;
      long wrkCpu = ChildProcess.cpuNanos(p.pid()) - wrkCpu0;
      long wall = System.nanoTime() - t0;
      long jit = compilerNanos(pid) - jit0;
      int open1 = descriptors(pid) - before;
      interrupt(p);
      if (!p.waitFor(60, TimeUnit.SECONDS)) {
        c.error = "wrk did not end within a minute of its SIGINT";
        return;
      }
      List<String> lines = Files.readAllLines(output, StandardCharsets.UTF_8);
      parseWrk(lines, c);
      c.openConnections = Math.min(open0, open1);
      double requests = (double) written / responseBytes;
      c.windowRps = requests / (wall / 1e9);
      if (cpu0 >= 0) {
        c.serverCpuPercent = 100.0 * cpu / wall;
        c.serverCpuMicrosPerRequest = cpu / 1e3 / requests;
      }
      if (jit0 >= 0) {
        c.jitCpuPercent = 100.0 * jit / wall;
      }
      if (wrkCpu0 >= 0) {
        c.wrkCpuPercent = 100.0 * wrkCpu / wall;
      }
      if (c.error == null && c.openConnections < c.connections) {
        c.error = "only " + c.openConnections + " of " + c.connections + " connections open in the measured window";
      }
      if (c.error == null && requests < 1) {
        c.error = "the server answered no request in the measured window";
      }
      if (c.error == null) {
        Files.deleteIfExists(output); // kept only when the cell failed
      }
    } finally {
      p.destroyForcibly();
    }
  }

  /**
   * wrk's figures; a non-2xx answer or a failed connect fails the cell. Read, write and timeout
   * errors are kept in {@link Cell#wrkSocketErrors}: a timeout is most often a connect that waited
   * for SYN retransmits before the window, and the window's requests are the server's own count.
   */
  static void parseWrk(List<String> lines, Cell c) {
    Wrk.parseChecked(lines, c, false);
  }

  /* SIGINT: wrk stops, prints its figures and exits. */
  private static void interrupt(Process p) throws IOException, InterruptedException {
    Process kill = new ProcessBuilder("kill", "-INT", String.valueOf(p.pid())).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    kill.waitFor(10, TimeUnit.SECONDS);
  }

  /* wrk started directly under taskset (which execs it, so the process is wrk's own: its CPU time is wrk's). */
  private static Process start(Path wrk, String url, int connections, long seconds, Path output) throws IOException {
    List<String> cmd = new ArrayList<>(pin(WRK_CPU));
    cmd.addAll(List.of(wrk.toString(), "-t", "1", "-c", String.valueOf(connections), "-d", seconds + "s", "--timeout",
        REQUEST_TIMEOUT.toSeconds() + "s", "--latency",
        url));
    return new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(output.toFile()).start();
  }

  /**
   * Sends one {@code GET /hello} on a fresh connection, as wrk does, and reads the whole answer.
   *
   * @return the answer's size in bytes (head and body)
   * @throws IOException if it is not a 200 with a Content-Length
   */
  static long probe(int port) throws IOException {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress("127.0.0.1", port), PROBE_TIMEOUT_MILLIS);
      s.setSoTimeout(PROBE_TIMEOUT_MILLIS);
      OutputStream out = s.getOutputStream();
      out.write(("GET " + Scenario.HELLO_WRK.path + " HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\n\r\n")
          .getBytes(StandardCharsets.US_ASCII));
      out.flush();
      return responseBytes(s.getInputStream());
    }
  }

  /** @return the size of the one HTTP/1.1 response {@code in} starts with: its head, then Content-Length bytes */
  static long responseBytes(InputStream in) throws IOException {
    StringBuilder head = new StringBuilder();
    while (!head.toString().endsWith("\r\n\r\n")) {
      int b = in.read();
      if (b < 0) {
        throw new IOException("probe: the connection closed within the head: " + head);
      }
      head.append((char) b);
    }
    String h = head.toString();
    if (!h.startsWith("HTTP/1.1 200 ")) {
      throw new IOException("probe: not a 200: " + h.lines().findFirst().orElse(""));
    }
    long length = -1;
    for (String line : h.split("\r\n")) {
      int colon = line.indexOf(':');
      if (colon > 0 && line.substring(0, colon).trim().equalsIgnoreCase("content-length")) {
        length = Long.parseLong(line.substring(colon + 1).trim());
      }
    }
    if (length < 0) {
      throw new IOException("probe: no Content-Length in " + h);
    }
    long body = in.readNBytes((int) length).length;
    if (body != length) {
      throw new IOException("probe: the body ended at " + body + " of " + length + " bytes");
    }
    return h.length() + length;
  }

  /** @return the bytes process {@code pid} has written (its sockets included: {@code wchar} of /proc/PID/io) */
  static long written(long pid) throws IOException {
    for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/io"), StandardCharsets.US_ASCII)) {
      if (line.startsWith("wchar:")) {
        return Long.parseLong(line.substring("wchar:".length()).trim());
      }
    }
    throw new IOException("/proc/" + pid + "/io has no wchar");
  }

  /* Waits until the compilers used under QUIET_JIT_PERCENT of a CPU over one sample, or the deadline. */
  private static void awaitQuietCompilers(long pid, long deadline) throws InterruptedException {
    while (System.nanoTime() < deadline) {
      long j0 = compilerNanos(pid);
      long t0 = System.nanoTime();
      Thread.sleep(JIT_SAMPLE_MILLIS);
      long j1 = compilerNanos(pid);
      if (j0 < 0 || j1 < 0 || 100.0 * (j1 - j0) / (System.nanoTime() - t0) < QUIET_JIT_PERCENT) {
        return;
      }
    }
  }

  /**
   * @return user + system CPU time of the JIT compiler threads of JVM {@code pid} (HotSpot names
   *     them "C1 CompilerThread N" and "C2 CompilerThread N"), in nanoseconds, or -1 where /proc is absent
   */
  static long compilerNanos(long pid) {
    long sum = 0;
    try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc/" + pid + "/task"))) {
      for (Path task : tasks) {
        String stat;
        try {
          stat = Files.readString(task.resolve("stat"), StandardCharsets.US_ASCII);
        } catch (IOException e) {
          continue; // the thread ended
        }
        String comm = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
        if (comm.startsWith("C1 Compiler") || comm.startsWith("C2 Compiler")) {
          long t = ChildProcess.cpuNanos(pid, Long.parseLong(task.getFileName().toString()));
          sum += Math.max(0, t);
        }
      }
    } catch (IOException | RuntimeException e) {
      return -1;
    }
    return sum;
  }

  /** @return how many file descriptors process {@code pid} holds open (its connections among them) */
  static int descriptors(long pid) throws IOException {
    int n = 0;
    try (DirectoryStream<Path> fds = Files.newDirectoryStream(Path.of("/proc/" + pid + "/fd"))) {
      for (Path ignored : fds) {
        n++;
      }
    }
    return n;
  }
}
