package io.krill.crawler.internal;

import java.time.Duration;
import java.util.Objects;

/** Argument checks with one message format: {@code "name: value (expected: rule)"}. Not API. */
public final class Checks {
  private Checks() {}

  /** @return {@code value} if it is positive */
  public static int positive(String name, int value) {
    if (value <= 0) {
      throw new IllegalArgumentException(name + ": " + value + " (expected: > 0)");
    }
    return value;
  }

  /** @return {@code value} if it is positive */
  public static long positive(String name, long value) {
    if (value <= 0) {
      throw new IllegalArgumentException(name + ": " + value + " (expected: > 0)");
    }
    return value;
  }

  /** @return {@code value} if it lies in {@code [min, max]} */
  public static int inRange(String name, int value, int min, int max) {
    if (value < min || value > max) {
      throw new IllegalArgumentException(name + ": " + value + " (expected: " + min + ".." + max + ")");
    }
    return value;
  }

  /** @return {@code value} if it is not negative */
  public static int nonNegative(String name, int value) {
    if (value < 0) {
      throw new IllegalArgumentException(name + ": " + value + " (expected: >= 0)");
    }
    return value;
  }

  /** @return {@code value} if it is not negative */
  public static long nonNegative(String name, long value) {
    if (value < 0) {
      throw new IllegalArgumentException(name + ": " + value + " (expected: >= 0)");
    }
    return value;
  }

  /** @return {@code value} if it is positive */
  public static Duration positive(String name, Duration value) {
    Objects.requireNonNull(value, name);
    if (value.isNegative() || value.isZero()) {
      throw new IllegalArgumentException(name + ": " + value + " (expected: > 0)");
    }
    return value;
  }

  /** @return {@code value} if it is not negative */
  public static Duration nonNegative(String name, Duration value) {
    Objects.requireNonNull(value, name);
    if (value.isNegative()) {
      throw new IllegalArgumentException(name + ": " + value + " (expected: >= 0)");
    }
    return value;
  }

  /** @return {@code value} if it lies strictly between 0 and 1 */
  public static double probability(String name, double value) {
    if (!(value > 0 && value < 1)) {
      throw new IllegalArgumentException(name + ": " + value + " (expected: > 0 and < 1)");
    }
    return value;
  }
}
