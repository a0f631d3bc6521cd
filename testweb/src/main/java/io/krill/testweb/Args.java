package io.krill.testweb;

import io.krill.config.Units;
import java.time.Duration;
import java.util.Objects;

/** Argument checks in the house format: {@code "name: value (expected: ...)"}. */
final class Args {
  private Args() {}

  static int inRange(String name, int value, int min, int max) {
    return (int) inRange(name, (long) value, min, max);
  }

  static long inRange(String name, long value, long min, long max) {
    if (value < min || value > max) {
      throw new IllegalArgumentException(name + ": " + value + " (expected: " + min + ".." + max + ")");
    }
    return value;
  }

  static double rate(String name, double value) {
    if (!(value >= 0 && value <= 1)) {
      throw new IllegalArgumentException(name + ": " + value + " (expected: 0..1)");
    }
    return value;
  }

  static Duration inRange(String name, Duration value, Duration min, Duration max) {
    Objects.requireNonNull(value, name);
    if (value.compareTo(min) < 0 || value.compareTo(max) > 0) {
      throw new IllegalArgumentException(name + ": " + Units.format(value) + " (expected: "
          + Units.format(min) + ".." + Units.format(max) + ")");
    }
    return value;
  }

  static IllegalArgumentException bad(String name, Object value, String expected) {
    return new IllegalArgumentException(name + ": " + value + " (expected: " + expected + ")");
  }
}
