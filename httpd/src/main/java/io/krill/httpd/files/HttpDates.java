package io.krill.httpd.files;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/** Formats HTTP dates (IMF-fixdate, RFC 9110 section 5.6.7). Stateless; thread-safe. */
final class HttpDates {
  private static final DateTimeFormatter FIXDATE =
      DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'", Locale.US).withZone(ZoneOffset.UTC);

  private HttpDates() {}

  static String format(long epochSecond) {
    return FIXDATE.format(Instant.ofEpochSecond(epochSecond));
  }
}
