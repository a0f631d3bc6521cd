package io.krill.loadtest.harness;

import io.krill.loadtest.internal.Reports;
import java.io.File;
import java.io.IOException;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * wrk as a second, independent load generator for the hello scenario: run against the same
 * server JVM right after the built-in generator, so the report can cross-check the two.
 * Used only when {@code wrk} is on the PATH ({@code loadtest/bin/install-wrk.sh} installs it);
 * nothing depends on it.
 */
final class Wrk {
  private static final Pattern RPS = Pattern.compile("Requests/sec:\\s+([0-9.]+)");
  private static final Pattern PERCENTILE = Pattern.compile("^\\s+(50|99)(?:\\.000)?%\\s+([0-9.]+)(us|ms|s)\\s*$");

  /**
   * The most connections a hello cell is cross-checked at. wrk opens its connections inside its
   * measured time: at 10,000 that is an accept storm of seconds (some connects wait for SYN
   * retransmits) within a 3 s run, not keep-alive hello; the hello-wrk scenario measures wrk on
   * connections already open instead.
   */
  static final int MAX_CONNECTIONS = 1_000;

  private Wrk() {}

  /** @return whether a hello cell at {@code connections} is cross-checked with wrk, when it is installed */
  static boolean crossChecks(int connections) {
    return connections <= MAX_CONNECTIONS;
  }

  /** @return true when a {@code wrk} executable is on the PATH */
  static boolean available() {
    String path = System.getenv("PATH");
    if (path == null) {
      return false;
    }
    for (String dir : path.split(File.pathSeparator)) {
      if (new File(dir, "wrk").canExecute()) {
        return true;
      }
    }
    return false;
  }

  /** Runs wrk for the cell's connections and the measured time, and records its figures in the cell. */
  static void run(RunSettings s, int port, Cell c) throws IOException, InterruptedException {
    // A cross-check, not the measurement: a few seconds (a quick run: one) on the already warm server.
    long seconds = s.wrkTime().toSeconds();
    List<String> lines = Reports.exec(command("wrk", Math.min(2, c.connections), c.connections, seconds,
        "http://127.0.0.1:" + port + Scenario.HELLO.path), false);
    parse(lines, c);
  }

  /** @return wrk with its latency distribution, under {@code timeout} a minute past its planned end */
  static List<String> command(String wrk, int threads, int connections, long seconds, String url) {
    return List.of("timeout", String.valueOf(seconds + 60), wrk, "-t", String.valueOf(threads), "-c",
        String.valueOf(connections), "-d", seconds + "s", "--latency", url);
  }

  private static final Pattern NON_2XX = Pattern.compile("Non-2xx or 3xx responses:\\s+(\\d+)");
  private static final Pattern SOCKET_ERRORS = Pattern.compile(
      "Socket errors: connect (\\d+), read (\\d+), write (\\d+), timeout (\\d+)");

  /**
   * Reads wrk's figures ({@link #parse}) and its errors: a non-2xx answer, a failed connect or
   * no rate at all fails the cell; so does any other socket error when {@code anySocketErrorFails},
   * else read, write and timeout errors are kept in {@link Cell#wrkSocketErrors}.
   */
  static void parseChecked(List<String> lines, Cell c, boolean anySocketErrorFails) {
    parse(lines, c);
    for (String l : lines) {
      Matcher m = NON_2XX.matcher(l);
      if (m.find() && Long.parseLong(m.group(1)) > 0 && c.error == null) {
        c.error = "wrk: " + l.trim();
      }
      Matcher e = SOCKET_ERRORS.matcher(l);
      if (e.find()) {
        if ((anySocketErrorFails || !e.group(1).equals("0")) && c.error == null) {
          c.error = "wrk: " + l.trim();
        }
        c.wrkSocketErrors = "read " + e.group(2) + ", write " + e.group(3) + ", timeout " + e.group(4);
      }
    }
    if (Double.isNaN(c.wrkRps) && c.error == null) {
      c.error = "wrk printed no Requests/sec: " + String.join(" | ", lines);
    }
  }

  /** Reads requests per second and the 50th/99th percentiles from wrk's output. */
  static void parse(List<String> lines, Cell c) {
    for (String l : lines) {
      Matcher m = RPS.matcher(l);
      if (m.find()) {
        c.wrkRps = Double.parseDouble(m.group(1));
      }
      Matcher p = PERCENTILE.matcher(l);
      if (p.find()) {
        double micros = Reports.micros(p.group(2), p.group(3));
        if (p.group(1).equals("50")) {
          c.wrkP50Micros = micros;
        } else {
          c.wrkP99Micros = micros;
        }
      }
    }
    if (Double.isNaN(c.wrkRps)) {
      System.err.println("wrk: no 'Requests/sec' in its output: " + String.join(" | ", lines));
    }
  }
}
