package io.krill.httpd;

import java.nio.charset.StandardCharsets;

/** Splitting and percent-decoding of request paths and queries. Stateless; thread-safe. */
final class Paths {
  private static final String[] EMPTY = new String[0];

  private Paths() {}

  /** @return {@code path} split at '/', without the empty segment before the leading '/' */
  static String[] split(String path) {
    int start = path.startsWith("/") ? 1 : 0;
    if (start == path.length()) {
      return EMPTY;
    }
    int n = 1;
    for (int i = start; i < path.length(); i++) {
      if (path.charAt(i) == '/') {
        n++;
      }
    }
    String[] parts = new String[n];
    for (int k = 0, i = start; k < n; k++) {
      int slash = path.indexOf('/', i);
      int end = slash < 0 ? path.length() : slash;
      parts[k] = path.substring(i, end);
      i = end + 1;
    }
    return parts;
  }

  /**
   * Decodes %XX escapes as UTF-8; with {@code plusIsSpace}, '+' too. A malformed escape is
   * kept as it is.
   */
  static String decode(String s, boolean plusIsSpace) {
    int first = -1;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '%' || plusIsSpace && c == '+') {
        first = i;
        break;
      }
    }
    if (first < 0) {
      return s;
    }
    byte[] out = new byte[s.length() * 3];
    int n = 0;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '%' && i + 2 < s.length() && hex(s.charAt(i + 1)) >= 0 && hex(s.charAt(i + 2)) >= 0) {
        out[n++] = (byte) (hex(s.charAt(i + 1)) << 4 | hex(s.charAt(i + 2)));
        i += 2;
      } else if (plusIsSpace && c == '+') {
        out[n++] = ' ';
      } else {
        byte[] b = String.valueOf(c).getBytes(StandardCharsets.UTF_8);
        if (Character.isHighSurrogate(c) && i + 1 < s.length()) {
          b = s.substring(i, i + 2).getBytes(StandardCharsets.UTF_8);
          i++;
        }
        System.arraycopy(b, 0, out, n, b.length);
        n += b.length;
      }
    }
    return new String(out, 0, n, StandardCharsets.UTF_8);
  }

  static String decode(String s) {
    return decode(s, false);
  }

  private static int hex(char c) {
    if (c >= '0' && c <= '9') {
      return c - '0';
    }
    if (c >= 'a' && c <= 'f') {
      return c - 'a' + 10;
    }
    if (c >= 'A' && c <= 'F') {
      return c - 'A' + 10;
    }
    return -1;
  }
}
