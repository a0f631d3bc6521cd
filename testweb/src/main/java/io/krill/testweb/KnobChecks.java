package io.krill.testweb;

import io.krill.config.Units;
import io.krill.fibers.Checks;
import java.time.Duration;

/** The checks the knob types share beyond {@link Checks}: whole-unit durations and shares that add up to at most 1. */
final class KnobChecks {
  private static final long NANOS_PER_SECOND = Duration.ofSeconds(1).toNanos();
  private static final long NANOS_PER_MILLI = Duration.ofMillis(1).toNanos();

  private KnobChecks() {}

  /** Checks that {@code d} lies in {@code min..max} and is a whole number of seconds. */
  static void wholeSeconds(String name, Duration d, Duration min, Duration max) {
    whole(name, d, min, max, NANOS_PER_SECOND, "whole seconds");
  }

  /** Checks that {@code d} lies in {@code min..max} and is a whole number of milliseconds. */
  static void wholeMillis(String name, Duration d, Duration min, Duration max) {
    whole(name, d, min, max, NANOS_PER_MILLI, "whole milliseconds");
  }

  private static void whole(String name, Duration d, Duration min, Duration max, long unitNanos, String expected) {
    Checks.inRange(name, d, min, max);
    if (d.toNanos() % unitNanos != 0) {
      throw Checks.bad(name, Units.format(d), expected);
    }
  }

  /** Checks that shares of one population add up to at most 1 (up to rounding). */
  static void sumAtMostOne(String name, double sum) {
    if (sum > 1 + 1e-9) {
      throw Checks.bad(name, sum, "<= 1");
    }
  }
}
