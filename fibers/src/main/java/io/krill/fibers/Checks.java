package io.krill.fibers;

import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Argument checks at API boundaries, with one message format:
 * {@code IllegalArgumentException("maxConnections: 0 (expected: > 0)")}. Each check returns its
 * argument, so a builder can write {@code this.port = Checks.port("port", port);}. Durations print
 * as {@code 250ms} or {@code 2s}.
 */
public final class Checks {
  private Checks() {}

  /** @return {@code value} if it is positive */
  public static int positive(String name, int value) {
    if (value <= 0) {
      throw bad(name, value, "> 0");
    }
    return value;
  }

  /** @return {@code value} if it is positive */
  public static long positive(String name, long value) {
    if (value <= 0) {
      throw bad(name, value, "> 0");
    }
    return value;
  }

  /** @return {@code value} if it is positive */
  public static Duration positive(String name, Duration value) {
    Objects.requireNonNull(value, name);
    if (value.isNegative() || value.isZero()) {
      throw bad(name, format(value), "> 0");
    }
    return value;
  }

  /** @return {@code value} if it is zero or more */
  public static int nonNegative(String name, int value) {
    if (value < 0) {
      throw bad(name, value, ">= 0");
    }
    return value;
  }

  /** @return {@code value} if it is zero or more */
  public static long nonNegative(String name, long value) {
    if (value < 0) {
      throw bad(name, value, ">= 0");
    }
    return value;
  }

  /** @return {@code value} if it is zero or longer */
  public static Duration nonNegative(String name, Duration value) {
    Objects.requireNonNull(value, name);
    if (value.isNegative()) {
      throw bad(name, format(value), ">= 0");
    }
    return value;
  }

  /** @return {@code value} if it lies in {@code [min, max]} */
  public static int inRange(String name, int value, int min, int max) {
    if (value < min || value > max) {
      throw bad(name, value, min + ".." + max);
    }
    return value;
  }

  /** @return {@code value} if it lies in {@code [min, max]} */
  public static long inRange(String name, long value, long min, long max) {
    if (value < min || value > max) {
      throw bad(name, value, min + ".." + max);
    }
    return value;
  }

  /** @return {@code value} if it lies in {@code [min, max]} */
  public static Duration inRange(String name, Duration value, Duration min, Duration max) {
    Objects.requireNonNull(value, name);
    if (value.compareTo(min) < 0 || value.compareTo(max) > 0) {
      throw bad(name, format(value), format(min) + ".." + format(max));
    }
    return value;
  }

  /** @return {@code port} if it is a TCP or UDP port, 0 meaning any */
  public static int port(String name, int port) {
    return inRange(name, port, 0, 65535);
  }

  /** @return {@code value} if it is a rate in {@code [0, 1]} */
  public static double rate(String name, double value) {
    if (!(value >= 0 && value <= 1)) {
      throw bad(name, value, "0..1");
    }
    return value;
  }

  /** @return {@code value} if it lies strictly between 0 and 1 */
  public static double probability(String name, double value) {
    if (!(value > 0 && value < 1)) {
      throw bad(name, value, "> 0 and < 1");
    }
    return value;
  }

  /**
   * Builds the failure for a check that has no method here, in the same format.
   *
   * @param name the argument's name
   * @param value the value as given
   * @param expected what would have been accepted
   * @return the exception, for the caller to throw
   */
  public static IllegalArgumentException bad(String name, Object value, String expected) {
    return new IllegalArgumentException(name + ": " + value + " (expected: " + expected + ")");
  }

  /**
   * Compiles a regular expression given as a setting.
   *
   * @return {@code regex} compiled
   * @throws IllegalArgumentException {@code name: regex (expected: a regular expression (why))} if it is not one
   */
  public static Pattern regex(String name, String regex) {
    try {
      return Pattern.compile(Objects.requireNonNull(regex, name));
    } catch (PatternSyntaxException e) {
      throw bad(name, regex, "a regular expression (" + e.getDescription() + ")");
    }
  }

  /** @return {@code d} as {@code 2s}, {@code 250ms} or {@code 0.5ms} */
  public static String format(Duration d) {
    if (d.getSeconds() > Long.MAX_VALUE / 1_000_000_000L - 1 || d.getSeconds() < Long.MIN_VALUE / 1_000_000_000L + 1) {
      return d.getSeconds() + "s";
    }
    long nanos = d.toNanos();
    if (nanos % 1_000_000_000L == 0) {
      return nanos / 1_000_000_000L + "s";
    }
    if (nanos % 1_000_000L == 0) {
      return nanos / 1_000_000L + "ms";
    }
    return String.format(Locale.ROOT, "%.6fms", nanos / 1e6).replaceAll("0+ms$", "ms");
  }
}
