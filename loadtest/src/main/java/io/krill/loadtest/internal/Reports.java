package io.krill.loadtest.internal;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Helpers of the report writers: running a command, reading the machine's load, formatting
 * figures and ratios. Not API.
 */
public final class Reports {
  private Reports() {}

  /**
   * Runs a command, echoing and collecting its output (stderr merged).
   *
   * @param cmd the command
   * @param echo whether to print each line as it comes
   * @return the lines
   * @throws IOException if it cannot start
   * @throws InterruptedException if interrupted while waiting
   */
  public static List<String> exec(List<String> cmd, boolean echo) throws IOException, InterruptedException {
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    List<String> lines = new ArrayList<>();
    try (BufferedReader in = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      for (String l = in.readLine(); l != null; l = in.readLine()) {
        lines.add(l);
        if (echo) {
          System.out.println(l);
        }
      }
    }
    p.waitFor();
    return lines;
  }

  /** @return the output of {@code uptime}: time, uptime and load averages */
  public static String uptime() {
    try {
      List<String> l = exec(List.of("uptime"), false);
      return l.isEmpty() ? "?" : l.get(0).trim();
    } catch (IOException | InterruptedException e) {
      return "? (" + e + ")";
    }
  }

  /** @return the number of CPUs */
  public static int cpus() {
    return Runtime.getRuntime().availableProcessors();
  }

  /**
   * @param home a JDK home
   * @return its JAVA_VERSION from the release file
   * @throws IOException if it has none
   */
  public static String javaVersion(Path home) throws IOException {
    for (String line : Files.readAllLines(home.resolve("release"))) {
      if (line.startsWith("JAVA_VERSION=")) {
        return line.substring("JAVA_VERSION=".length()).replace("\"", "");
      }
    }
    throw new IOException(home + "/release: no JAVA_VERSION");
  }

  /**
   * A duration as wrk and h2load print it.
   *
   * @param value the number, e.g. {@code 2.41}
   * @param unit {@code us}, {@code ms} or {@code s}
   * @return the duration in microseconds
   */
  public static double micros(String value, String unit) {
    double v = Double.parseDouble(value);
    return unit.equals("us") ? v : unit.equals("ms") ? v * 1e3 : v * 1e6;
  }

  /** @return a number with 3 significant digits or so; "—" for NaN (not measured), as {@link #fmtRatio} */
  public static String fmt(double v) {
    if (Double.isNaN(v)) {
      return "—";
    }
    return String.format(Locale.ROOT, v >= 100 ? "%,.0f" : v >= 10 ? "%.1f" : "%.2f", v);
  }

  /** @return a ratio such as "5.20×" */
  public static String fmtRatio(double v) {
    if (Double.isInfinite(v)) {
      return "∞";
    }
    if (Double.isNaN(v)) {
      return "—";
    }
    return String.format(Locale.ROOT, v >= 10 ? "%.1f" : v >= 1 ? "%.2f" : "%.3f", v) + "×";
  }

  /**
   * The median of some values.
   *
   * @param values not empty
   * @return the median (the mean of the middle two for an even count)
   */
  public static double median(List<Double> values) {
    List<Double> v = new ArrayList<>(values);
    v.sort(null);
    int n = v.size();
    return n % 2 == 1 ? v.get(n / 2) : (v.get(n / 2 - 1) + v.get(n / 2)) / 2;
  }
}
