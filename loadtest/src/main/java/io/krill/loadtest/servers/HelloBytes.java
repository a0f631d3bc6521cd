package io.krill.loadtest.servers;

import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;

/**
 * What every server under test answers, so that the comparison is of execution models and
 * not of payloads: status 200, {@code content-type: text/plain}, {@code content-length},
 * a {@code date} header cached per second, and the body {@value #BODY_TEXT}. Paths:
 * {@value #HELLO} answers at once, {@value #SLOW} after {@link #SLOW_MILLIS} ms on a timer.
 *
 * <p>Threading: {@link #date()} is safe from any thread.
 */
final class HelloBytes {
  /** The body text. */
  static final String BODY_TEXT = "Hello, World!";
  /** The body bytes. */
  static final byte[] BODY = BODY_TEXT.getBytes(StandardCharsets.US_ASCII);
  /** The content type. */
  static final String CONTENT_TYPE = "text/plain";
  /** Path of the immediate handler. */
  static final String HELLO = "/hello";
  /** Path of the handler that waits on a timer first. */
  static final String SLOW = "/slow";
  /** How long the slow handler waits. */
  static final long SLOW_MILLIS = 100;

  private static volatile long cachedSecond;
  private static volatile String cachedDate = "";

  private HelloBytes() {}

  /** @return the current time as an RFC 7231 date, recomputed at most once a second */
  static String date() {
    long second = System.currentTimeMillis() / 1000;
    if (second != cachedSecond) {
      cachedDate = DateTimeFormatter.RFC_1123_DATE_TIME.format(ZonedDateTime.now(ZoneOffset.UTC));
      cachedSecond = second;
    }
    return cachedDate;
  }

  /** @return the whole response to a hello or slow request, head and body */
  static byte[] response() {
    String head = "HTTP/1.1 200 OK\r\ncontent-type: " + CONTENT_TYPE + "\r\ncontent-length: " + BODY.length
        + "\r\ndate: " + date() + "\r\n\r\n";
    byte[] h = head.getBytes(StandardCharsets.US_ASCII);
    byte[] all = new byte[h.length + BODY.length];
    System.arraycopy(h, 0, all, 0, h.length);
    System.arraycopy(BODY, 0, all, h.length, BODY.length);
    return all;
  }

  /** @return the 404 response for any other path */
  static byte[] notFound() {
    return ("HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\ndate: " + date() + "\r\n\r\n")
        .getBytes(StandardCharsets.US_ASCII);
  }
}
