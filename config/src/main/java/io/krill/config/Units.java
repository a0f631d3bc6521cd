package io.krill.config;

import java.time.Duration;

/**
 * The one duration and byte-size grammar, for code that reads or prints such a value outside a
 * schema (messages, logs, reports): the same text a setting of type duration or bytes accepts.
 *
 * <p>Stateless; thread-safe.
 */
public final class Units {
  private Units() {}

  /**
   * Reads a duration: a number and a unit ({@code ns, us, ms, s, m, h, d} or the words), e.g.
   * {@code 30s}, {@code 1.5s}, {@code 500ms}; a bare {@code 0} is zero.
   *
   * @param text the duration's text
   * @return the duration
   * @throws IllegalArgumentException {@code duration: text (expected: ...)} if it is not one
   */
  public static Duration parseDuration(String text) {
    return parse(ValueType.DURATION, "duration", text);
  }

  /**
   * Reads a byte size: a bare number is bytes, {@code k}/{@code K}/{@code KiB} mean 1024,
   * {@code kB} means 1000, and so on for M, G, T.
   *
   * @param text the size's text
   * @return the size in bytes
   * @throws IllegalArgumentException {@code size: text (expected: ...)} if it is not one
   */
  public static long parseBytes(String text) {
    return parse(ValueType.BYTES, "size", text);
  }

  /**
   * Prints a duration so that {@link #parseDuration} reads it back, in the largest exact unit.
   *
   * @param d the duration
   * @return e.g. {@code 1500ms} or {@code 2m}
   */
  public static String format(Duration d) {
    return ValueType.DURATION.format(d);
  }

  /**
   * Prints a byte size so that {@link #parseBytes} reads it back, in the largest exact binary unit.
   *
   * @param bytes the size
   * @return e.g. {@code 64MiB} or {@code 1000B}
   */
  public static String formatBytes(long bytes) {
    return ValueType.BYTES.format(bytes);
  }

  private static <T> T parse(ValueType<T> type, String name, String text) {
    T value = type.parse(text);
    if (value == null) {
      throw new IllegalArgumentException(name + ": " + text + " (expected: " + type.expectation() + ")");
    }
    return value;
  }
}
