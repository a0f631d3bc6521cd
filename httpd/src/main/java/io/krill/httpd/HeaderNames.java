package io.krill.httpd;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.util.AsciiString;
import java.util.HashMap;
import java.util.Map;

/**
 * Response header names as they go on the wire: in lower case, always (the case Netty's own
 * names have, and the only one HTTP/2 allows), so a response never mixes {@code Content-Type}
 * with {@code content-length}. Common names map to Netty's cached constants: a header map
 * hashes and validates an {@link AsciiString} name faster than a {@link String} (its hash is
 * cached and it is checked byte by byte). Immutable; thread-safe.
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

  /**
   * @return the cached lower-case name equal to {@code name} ignoring case, or else {@code name}
   *     in lower case (a {@link String}: not checked yet)
   */
  static CharSequence of(String name) {
    AsciiString known = KNOWN.get(name);
    if (known != null) {
      return known;
    }
    String lower = lowerCase(name);
    known = KNOWN.get(lower);
    return known != null ? known : lower;
  }

  /* ASCII lower case; the same instance when there is nothing to change (the common case). */
  private static String lowerCase(String name) {
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (c >= 'A' && c <= 'Z') {
        char[] chars = name.toCharArray();
        for (int j = i; j < chars.length; j++) {
          char d = chars[j];
          if (d >= 'A' && d <= 'Z') {
            chars[j] = (char) (d + ('a' - 'A'));
          }
        }
        return new String(chars);
      }
    }
    return name;
  }
}
