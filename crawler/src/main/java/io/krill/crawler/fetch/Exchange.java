package io.krill.crawler.fetch;

import java.net.InetAddress;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One HTTP request and what came back: the bytes exactly as sent and received (for WARC), the
 * decoded body (for link extraction), timings, and the failure if there was one. An exchange
 * with an {@link #error()} may still carry a status and partial bytes. Immutable.
 */
public final class Exchange {
  final URI uri;
  InetAddress address;
  Instant startedAt;
  int status;
  List<Map.Entry<String, String>> headers = List.of();
  byte[] requestBytes;
  byte[] responseBytes;
  Truncation responseTruncation = Truncation.NONE;
  byte[] body;
  long bodyBytes;
  FetchException error;
  long dnsNanos;
  long connectNanos;
  long firstByteNanos;
  long totalNanos;
  boolean reusedConnection;

  Exchange(URI uri) {
    this.uri = uri;
  }

  /** @return the URL requested */
  public URI uri() {
    return uri;
  }

  /** @return the address connected to, or null if resolution failed */
  public InetAddress address() {
    return address;
  }

  /** @return when the request started */
  public Instant startedAt() {
    return startedAt;
  }

  /** @return the HTTP status, or 0 if no response head arrived */
  public int status() {
    return status;
  }

  /**
   * @param name a header name, any case
   * @return the first value of that response header, or null
   */
  public String header(String name) {
    for (Map.Entry<String, String> h : headers) {
      if (h.getKey().equalsIgnoreCase(name)) {
        return h.getValue();
      }
    }
    return null;
  }

  /** @return the response headers in order */
  public List<Map.Entry<String, String>> headers() {
    return headers;
  }

  /** @return the media type of the response without parameters, lower case, or null */
  public String contentType() {
    String ct = header("Content-Type");
    if (ct == null) {
      return null;
    }
    int semi = ct.indexOf(';');
    return (semi < 0 ? ct : ct.substring(0, semi)).trim().toLowerCase(Locale.ROOT);
  }

  /** @return the request as sent on the wire, or null if nothing was sent */
  public byte[] requestBytes() {
    return requestBytes;
  }

  /** @return the response as received on the wire (head and body, still content-encoded), or null */
  public byte[] responseBytes() {
    return responseBytes;
  }

  /** @return true if the response bytes stop early (body cap, deadline, drip, reset) */
  public boolean responseTruncated() {
    return responseTruncation != Truncation.NONE;
  }

  /** @return why the response bytes stop early, or {@link Truncation#NONE} */
  public Truncation responseTruncation() {
    return responseTruncation;
  }

  /** Why a recorded response stops early, in the terms of WARC's {@code WARC-Truncated} field. */
  public enum Truncation {
    /** The response is whole. */
    NONE,
    /** A size cap (body or capture) cut it. */
    LENGTH,
    /** A deadline or the slow-drip guard cut it. */
    TIME,
    /** The connection failed in another way (reset, closed early). */
    UNSPECIFIED
  }

  /** @return the body after transfer and content decoding, capped, or null */
  public byte[] body() {
    return body;
  }

  /** @return body bytes as received (before content decoding) */
  public long bodyBytes() {
    return bodyBytes;
  }

  /** @return the failure, or null */
  public FetchException error() {
    return error;
  }

  /** @return the time resolving the host took (0 when cached or reused) */
  public Duration dnsTime() {
    return Duration.ofNanos(dnsNanos);
  }

  /** @return the time connecting (and the TLS handshake) took; 0 for a reused connection */
  public Duration connectTime() {
    return Duration.ofNanos(connectNanos);
  }

  /** @return the time from sending the request to the response head */
  public Duration firstByteTime() {
    return Duration.ofNanos(firstByteNanos);
  }

  /** @return the whole exchange's time */
  public Duration totalTime() {
    return Duration.ofNanos(totalNanos);
  }

  /** @return true if a kept-alive connection was reused */
  public boolean reusedConnection() {
    return reusedConnection;
  }

  /** @return true for 301, 302, 303, 307 and 308 with a Location header */
  public boolean isRedirect() {
    return (status == 301 || status == 302 || status == 303 || status == 307 || status == 308)
        && header("Location") != null;
  }

  /** @return the redirect target resolved against this URL, or null if none or invalid */
  public URI location() {
    String loc = isRedirect() ? header("Location") : null;
    if (loc == null) {
      return null;
    }
    try {
      return uri.resolve(new URI(loc.trim())).normalize();
    } catch (java.net.URISyntaxException | IllegalArgumentException e) {
      return null;
    }
  }

  /**
   * @return the delay a 429 or 503 asked for with {@code Retry-After} (seconds or an HTTP
   *     date), or null if absent or unparsable
   */
  public Duration retryAfter() {
    String v = header("Retry-After");
    if (v == null) {
      return null;
    }
    v = v.trim();
    try {
      return Duration.ofSeconds(Math.max(0, Long.parseLong(v)));
    } catch (NumberFormatException e) {
      try {
        Instant when = java.time.ZonedDateTime.parse(v, java.time.format.DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
        Duration d = Duration.between(Instant.now(), when);
        return d.isNegative() ? Duration.ZERO : d;
      } catch (java.time.format.DateTimeParseException e2) {
        return null;
      }
    }
  }

  @Override
  public String toString() {
    return "Exchange[" + uri + " " + status + (error == null ? "" : " " + error.describe()) + "]";
  }
}
