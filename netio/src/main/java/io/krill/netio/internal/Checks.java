package io.krill.netio.internal;

import java.time.Duration;
import java.util.Objects;

/** Argument checks in the house format: {@code "name: value (expected: ...)"}. Not API. */
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

  /** @return {@code value} if it is zero or more */
  public static int nonNegative(String name, int value) {
    if (value < 0) {
      throw new IllegalArgumentException(name + ": " + value + " (expected: >= 0)");
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

  /** @return {@code value} if it is a positive duration */
  public static Duration positive(String name, Duration value) {
    Objects.requireNonNull(value, name);
    if (value.isNegative() || value.isZero()) {
      throw new IllegalArgumentException(name + ": " + value + " (expected: > 0)");
    }
    return value;
  }

  /** @return {@code value} if it is zero or a positive duration */
  public static Duration nonNegative(String name, Duration value) {
    Objects.requireNonNull(value, name);
    if (value.isNegative()) {
      throw new IllegalArgumentException(name + ": " + value + " (expected: >= 0)");
    }
    return value;
  }

  /** @return the port if it is a valid TCP port (0 = any) */
  public static int port(String name, int port) {
    return inRange(name, port, 0, 65535);
  }
}
