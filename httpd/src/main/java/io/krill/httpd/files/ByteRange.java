package io.krill.httpd.files;

/**
 * One satisfiable byte range of a representation, parsed from a {@code Range} header
 * (RFC 9110 section 14). Immutable.
 */
final class ByteRange {
  /** The header asks for something we answer with the whole file: absent, malformed, several ranges, or another unit. */
  static final ByteRange WHOLE = new ByteRange(-1, -1);
  /** Every range starts at or past the end: 416. */
  static final ByteRange UNSATISFIABLE = new ByteRange(-2, -2);

  final long first;
  final long last;

  private ByteRange(long first, long last) {
    this.first = first;
    this.last = last;
  }

  long length() {
    return last - first + 1;
  }

  /**
   * Parses {@code bytes=a-b}, {@code bytes=a-} and {@code bytes=-n} against a representation of
   * {@code size} bytes. Several ranges are answered whole (a 200 is always allowed). A malformed
   * header is ignored, as RFC 9110 asks.
   */
  static ByteRange parse(String header, long size) {
    if (header == null) {
      return WHOLE;
    }
    String h = header.trim();
    if (!h.regionMatches(true, 0, "bytes=", 0, 6)) {
      return WHOLE;
    }
    String spec = h.substring(6).trim();
    if (spec.indexOf(',') >= 0) {
      return WHOLE;
    }
    int dash = spec.indexOf('-');
    if (dash < 0) {
      return WHOLE;
    }
    String a = spec.substring(0, dash).trim();
    String b = spec.substring(dash + 1).trim();
    long first;
    long last;
    if (a.isEmpty()) {
      long suffix = digits(b);
      if (suffix < 0) {
        return WHOLE;
      }
      if (suffix == 0 || size == 0) {
        return UNSATISFIABLE;
      }
      first = Math.max(0, size - suffix);
      last = size - 1;
    } else {
      first = digits(a);
      last = b.isEmpty() ? Long.MAX_VALUE : digits(b);
      if (first < 0 || last < 0 || last < first) {
        return WHOLE;
      }
      if (first >= size) {
        return UNSATISFIABLE;
      }
      last = Math.min(last, size - 1);
    }
    return new ByteRange(first, last);
  }

  /** A non-negative decimal, or -1 (empty, signs, overflow, other characters). */
  private static long digits(String s) {
    if (s.isEmpty() || s.length() > 18) {
      return s.length() > 18 && s.chars().allMatch(Character::isDigit) ? Long.MAX_VALUE : -1;
    }
    long v = 0;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c < '0' || c > '9') {
        return -1;
      }
      v = v * 10 + (c - '0');
    }
    return v;
  }
}
