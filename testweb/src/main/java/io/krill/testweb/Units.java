package io.krill.testweb;

import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Parses and prints the durations and byte sizes of the knobs: {@code 20ms}, {@code 1.5s}, {@code 64MiB}. */
final class Units {
  private static final Pattern DURATION = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*(ms|s|m|h)?");
  private static final Pattern SIZE = Pattern.compile("(\\d+)\\s*(B|KiB|MiB|GiB|k|K|KB|M|MB|G|GB)?");

  private Units() {}

  /** Parses {@code 250ms}, {@code 2s}, {@code 1.5s}, {@code 3m}, {@code 1h}; a bare number is milliseconds. */
  static Duration parseDuration(String name, String text) {
    Matcher m = DURATION.matcher(text.trim());
    if (!m.matches()) {
      throw Args.bad(name, text, "a duration such as 250ms, 2s, 1.5s, 3m");
    }
    double value = Double.parseDouble(m.group(1));
    String unit = m.group(2) == null ? "ms" : m.group(2);
    double nanosPerUnit;
    switch (unit) {
      case "s":
        nanosPerUnit = 1e9;
        break;
      case "m":
        nanosPerUnit = 60e9;
        break;
      case "h":
        nanosPerUnit = 3600e9;
        break;
      default:
        nanosPerUnit = 1e6;
        break;
    }
    double nanos = value * nanosPerUnit;
    if (nanos > Long.MAX_VALUE / 2.0) {
      throw Args.bad(name, text, "a duration below 100 years");
    }
    return Duration.ofNanos(Math.round(nanos));
  }

  /** Parses {@code 4096}, {@code 4KiB}, {@code 64MiB}, {@code 1GiB} (k/M/G are binary too). */
  static long parseSize(String name, String text) {
    Matcher m = SIZE.matcher(text.trim());
    if (!m.matches() || m.group(1).length() > 15) {
      throw Args.bad(name, text, "a byte size such as 4096, 4KiB, 64MiB");
    }
    long value = Long.parseLong(m.group(1));
    String unit = m.group(2) == null ? "B" : m.group(2).substring(0, 1).toUpperCase(Locale.ROOT);
    switch (unit) {
      case "K":
        return value << 10;
      case "M":
        return value << 20;
      case "G":
        return value << 30;
      default:
        return value;
    }
  }

  /** Prints a duration the way {@link #parseDuration} reads it. */
  static String formatDuration(Duration d) {
    long nanos = d.toNanos();
    if (nanos % 1_000_000_000L == 0) {
      return nanos / 1_000_000_000L + "s";
    }
    if (nanos % 1_000_000L == 0) {
      return nanos / 1_000_000L + "ms";
    }
    return String.format(Locale.ROOT, "%.6fms", nanos / 1e6).replaceAll("0+ms$", "ms");
  }

  /** Prints a size the way {@link #parseSize} reads it. */
  static String formatSize(long bytes) {
    if (bytes != 0 && bytes % (1L << 30) == 0) {
      return (bytes >> 30) + "GiB";
    }
    if (bytes != 0 && bytes % (1L << 20) == 0) {
      return (bytes >> 20) + "MiB";
    }
    if (bytes != 0 && bytes % (1L << 10) == 0) {
      return (bytes >> 10) + "KiB";
    }
    return Long.toString(bytes);
  }
}
