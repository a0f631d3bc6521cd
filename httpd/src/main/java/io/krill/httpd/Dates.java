package io.krill.httpd;

import io.netty.handler.codec.DateFormatter;
import io.netty.util.AsciiString;
import java.util.Date;

/** The {@code Date} header value, formatted at most once a second. Thread-safe. */
final class Dates {
  private static volatile Cached cached = new Cached(-1, AsciiString.EMPTY_STRING);

  private Dates() {}

  /** @return the current time as an IMF-fixdate */
  static AsciiString now() {
    long second = System.currentTimeMillis() / 1000;
    Cached c = cached;
    if (c.second != second) {
      c = new Cached(second, AsciiString.of(DateFormatter.format(new Date(second * 1000))));
      cached = c; // racing threads format the same second; either result is right
    }
    return c.value;
  }

  /** @return the value {@link #now()} returned last (any thread's), for identity checks */
  static AsciiString cachedValue() {
    return cached.value;
  }

  private static final class Cached {
    final long second;
    final AsciiString value;

    Cached(long second, AsciiString value) {
      this.second = second;
      this.value = value;
    }
  }
}
