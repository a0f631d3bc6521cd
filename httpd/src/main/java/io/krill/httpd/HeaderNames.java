package io.krill.httpd;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.util.AsciiString;
import java.util.HashMap;
import java.util.Map;

/**
 * Netty's cached names for common response headers, by their lower-case text. A header map
 * hashes and validates an {@link AsciiString} name faster than a {@link String} (its hash is
 * cached and it is checked byte by byte), and the bytes on the wire are the same. Immutable;
 * thread-safe.
 */
final class HeaderNames {
  private static final Map<String, AsciiString> KNOWN = new HashMap<>();

  static {
    for (AsciiString n : new AsciiString[] {HttpHeaderNames.ACCEPT_RANGES, HttpHeaderNames.AGE,
        HttpHeaderNames.ALLOW, HttpHeaderNames.CACHE_CONTROL, HttpHeaderNames.CONNECTION,
        HttpHeaderNames.CONTENT_DISPOSITION, HttpHeaderNames.CONTENT_ENCODING, HttpHeaderNames.CONTENT_LANGUAGE,
        HttpHeaderNames.CONTENT_LENGTH, HttpHeaderNames.CONTENT_LOCATION, HttpHeaderNames.CONTENT_RANGE,
        HttpHeaderNames.CONTENT_TYPE, HttpHeaderNames.DATE, HttpHeaderNames.ETAG, HttpHeaderNames.EXPIRES,
        HttpHeaderNames.LAST_MODIFIED, HttpHeaderNames.LOCATION, HttpHeaderNames.RETRY_AFTER, HttpHeaderNames.SERVER,
        HttpHeaderNames.SET_COOKIE, HttpHeaderNames.TRANSFER_ENCODING, HttpHeaderNames.VARY,
        HttpHeaderNames.WWW_AUTHENTICATE, HttpHeaderNames.ACCESS_CONTROL_ALLOW_ORIGIN}) {
      KNOWN.put(n.toString(), n);
    }
  }

  private HeaderNames() {}

  /** @return the cached name with exactly the text of {@code name}, or {@code name} itself */
  static CharSequence of(String name) {
    AsciiString known = name == null ? null : KNOWN.get(name);
    return known != null ? known : name;
  }
}
