package io.krill.httpd;

import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;

/**
 * Evaluates a request's conditional header fields against the current state of the selected
 * representation, in the order of RFC 9110 section 13.2.2: {@code If-Match}, else
 * {@code If-Unmodified-Since}; then {@code If-None-Match}, else (GET and HEAD only)
 * {@code If-Modified-Since}. A handler that knows an entity tag or a modification time calls it
 * before acting:
 *
 * <pre>{@code
 * int status = Preconditions.evaluate(req, doc.modifiedMillis(), doc.etag());
 * if (status != Preconditions.PROCEED) {
 *   res.status(status).send(new byte[0]); // 304 or 412
 *   return;
 * }
 * }</pre>
 *
 * <p>Stateless; thread-safe.
 */
public final class Preconditions {
  /** {@link #evaluate}: every condition holds (or none was sent); perform the method. */
  public static final int PROCEED = 0;
  /** A modification time that is not known: date conditions are then ignored, as RFC 9110 asks. */
  public static final long UNKNOWN_TIME = Long.MIN_VALUE;

  private Preconditions() {}

  /**
   * Evaluates the conditions of {@code req}.
   *
   * @param req the request
   * @param lastModifiedMillis the representation's modification time in epoch milliseconds (compared
   *     at the one-second precision of HTTP dates), or {@link #UNKNOWN_TIME}
   * @param entityTags the representation's current entity tags, quoted (e.g. {@code "\"v7\""}); a
   *     condition naming any of them matches; none if it has no tag
   * @return {@link #PROCEED}, 304 (Not Modified; GET and HEAD only) or 412 (Precondition Failed)
   */
  public static int evaluate(Request req, long lastModifiedMillis, String... entityTags) {
    long mtime = lastModifiedMillis == UNKNOWN_TIME ? UNKNOWN_TIME : Math.floorDiv(lastModifiedMillis, 1000L);
    String ifMatch = req.header("If-Match");
    if (ifMatch != null) {
      if (!matches(ifMatch, entityTags, true)) {
        return 412; // 13.1.1
      }
    } else {
      long since = parseDate(req.header("If-Unmodified-Since"));
      if (since != UNKNOWN_TIME && mtime != UNKNOWN_TIME && mtime > since) {
        return 412; // 13.1.4
      }
    }
    String method = req.method();
    boolean safe = method.equals("GET") || method.equals("HEAD");
    String ifNoneMatch = req.header("If-None-Match");
    if (ifNoneMatch != null) {
      if (matches(ifNoneMatch, entityTags, false)) {
        return safe ? 304 : 412; // 13.1.2
      }
    } else if (safe) {
      long since = parseDate(req.header("If-Modified-Since"));
      if (since != UNKNOWN_TIME && mtime != UNKNOWN_TIME && mtime <= since) {
        return 304; // 13.1.3
      }
    }
    return PROCEED;
  }

  /**
   * Whether a range request's {@code If-Range} holds (RFC 9110 section 13.1.5): absent, a strong
   * tag equal to {@code entityTag}, or a date exactly equal to the modification time.
   *
   * @param req the request
   * @param lastModifiedMillis the modification time in epoch milliseconds, or {@link #UNKNOWN_TIME}
   * @param entityTag the representation's strong entity tag, quoted, or null
   * @return true if the range may be served, false if the whole representation must be
   */
  public static boolean ifRange(Request req, long lastModifiedMillis, String entityTag) {
    String header = req.header("If-Range");
    if (header == null) {
      return true;
    }
    String h = header.trim();
    if (h.startsWith("\"") || h.startsWith("W/")) {
      return h.equals(entityTag);
    }
    return lastModifiedMillis != UNKNOWN_TIME && parseDate(h) == Math.floorDiv(lastModifiedMillis, 1000L);
  }

  /** Entity-tag list match; weak comparison unless {@code strong} (If-Match). */
  static boolean matches(String header, String[] entityTags, boolean strong) {
    for (String raw : header.split(",")) {
      String tag = raw.trim();
      if (tag.equals("*")) {
        return true;
      }
      if (tag.startsWith("W/")) {
        if (strong) {
          continue;
        }
        tag = tag.substring(2);
      }
      for (String current : entityTags) {
        if (tag.equals(current)) {
          return true;
        }
      }
    }
    return false;
  }

  /** @return epoch seconds, or {@link #UNKNOWN_TIME} for an absent or unreadable date (which is ignored) */
  static long parseDate(String text) {
    if (text == null) {
      return UNKNOWN_TIME;
    }
    try {
      return ZonedDateTime.parse(text.trim(), DateTimeFormatter.RFC_1123_DATE_TIME).toEpochSecond();
    } catch (DateTimeParseException e) {
      return UNKNOWN_TIME;
    }
  }
}
