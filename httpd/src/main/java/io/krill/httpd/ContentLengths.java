package io.krill.httpd;

import io.netty.util.AsciiString;

/**
 * Content-Length values: small lengths as cached {@link AsciiString}s, so a response's length
 * costs no boxing and no string per response. Thread-safe.
 */
final class ContentLengths {
  /** Lengths below this are cached, each made on first use: at most ~50 KB once all are. */
  static final int CACHED = 1024;

  /*
   * Filled racily: two threads may each make a value for the same length; either is right, and
   * AsciiString's final fields make a value read through the race complete.
   */
  private static final AsciiString[] VALUES = new AsciiString[CACHED];

  private ContentLengths() {}

  /**
   * @param length a body length, not negative
   * @return its decimal text: a cached value below {@link #CACHED}, else a fresh one
   * @throws IllegalArgumentException naming the length if it is negative
   */
  static AsciiString of(long length) {
    if (length < 0) {
      throw new IllegalArgumentException("length: " + length + " (expected: >= 0)");
    }
    if (length >= CACHED) {
      return AsciiString.of(Long.toString(length));
    }
    AsciiString v = VALUES[(int) length];
    if (v == null) {
      v = AsciiString.of(Integer.toString((int) length));
      VALUES[(int) length] = v;
    }
    return v;
  }
}
