package io.krill.httpd.files;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Locale;

/** HTTP dates (IMF-fixdate, RFC 9110 section 5.6.7). Stateless; thread-safe. */
final class HttpDates {
  private static final DateTimeFormatter FIXDATE =
      DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'", Locale.US).withZone(ZoneOffset.UTC);

  private HttpDates() {}

  static String format(long epochSecond) {
    return FIXDATE.format(Instant.ofEpochSecond(epochSecond));
  }

  /** @return epoch seconds, or {@link Long#MIN_VALUE} for an absent or unreadable date (which is ignored) */
  static long parse(String text) {
    if (text == null) {
      return Long.MIN_VALUE;
    }
    try {
      return ZonedDateTime.parse(text.trim(), DateTimeFormatter.RFC_1123_DATE_TIME).toEpochSecond();
    } catch (DateTimeParseException e) {
      return Long.MIN_VALUE;
    }
  }
}
