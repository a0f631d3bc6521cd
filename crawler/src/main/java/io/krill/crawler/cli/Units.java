package io.krill.crawler.cli;

import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** picocli converters for durations ({@code 500ms}, {@code 10s}, {@code 2m}, {@code 1h}) and sizes ({@code 64KiB}, {@code 10MiB}, {@code 1GiB}). */
final class Units {
  private static final Pattern DURATION = Pattern.compile("(\\d+)(ms|s|m|h)");
  private static final Pattern SIZE = Pattern.compile("(\\d+)(|b|k|kb|kib|m|mb|mib|g|gb|gib)");

  private Units() {}

  static Duration duration(String s) {
    Matcher m = DURATION.matcher(s.trim().toLowerCase(Locale.ROOT));
    if (!m.matches()) {
      throw new TypeConversionException("'" + s + "' is not a duration (expected e.g. 500ms, 10s, 2m, 1h)");
    }
    long n = Long.parseLong(m.group(1));
    switch (m.group(2)) {
      case "ms":
        return Duration.ofMillis(n);
      case "s":
        return Duration.ofSeconds(n);
      case "m":
        return Duration.ofMinutes(n);
      default:
        return Duration.ofHours(n);
    }
  }

  static long size(String s) {
    Matcher m = SIZE.matcher(s.trim().toLowerCase(Locale.ROOT));
    if (!m.matches()) {
      throw new TypeConversionException("'" + s + "' is not a size (expected e.g. 65536, 64KiB, 10MiB, 1GiB)");
    }
    long n = Long.parseLong(m.group(1));
    String u = m.group(2);
    int shift = u.startsWith("k") ? 10 : u.startsWith("m") ? 20 : u.startsWith("g") ? 30 : 0;
    if (n > (Long.MAX_VALUE >> shift)) {
      throw new TypeConversionException("'" + s + "' is too large");
    }
    return n << shift;
  }

  /** Duration converter. */
  static final class DurationConverter implements ITypeConverter<Duration> {
    @Override
    public Duration convert(String value) {
      return duration(value);
    }
  }

  /** Size converter. */
  static final class SizeConverter implements ITypeConverter<Long> {
    @Override
    public Long convert(String value) {
      return size(value);
    }
  }
}
