package io.krill.httpd;

import java.util.concurrent.atomic.LongAdder;

/**
 * Live counters of one {@link HttpServer}: requests, responses by status class, connections
 * and bytes. Every getter reads the current value.
 *
 * <p>Threading: thread-safe; counters are updated from event loops and handler strands without
 * locks, so a read taken while traffic flows may mix slightly different instants.
 */
public final class HttpServerStats {
  final LongAdder requests = new LongAdder();
  final LongAdder[] statusClasses = {new LongAdder(), new LongAdder(), new LongAdder(), new LongAdder(),
      new LongAdder()};
  final LongAdder accepted = new LongAdder();
  final LongAdder rejected = new LongAdder();
  final LongAdder open = new LongAdder();
  final LongAdder bytesIn = new LongAdder();
  final LongAdder bytesOut = new LongAdder();

  HttpServerStats() {}

  /** @return requests whose head was decoded, including those answered with an error */
  public long requests() {
    return requests.sum();
  }

  /**
   * @param statusClass 1..5 for 1xx..5xx
   * @return final responses sent with a status of that class
   * @throws IllegalArgumentException if {@code statusClass} is not 1..5
   */
  public long responses(int statusClass) {
    if (statusClass < 1 || statusClass > 5) {
      throw new IllegalArgumentException("statusClass: " + statusClass + " (expected: 1..5)");
    }
    return statusClasses[statusClass - 1].sum();
  }

  /** @return connections open now */
  public long openConnections() {
    return open.sum();
  }

  /** @return connections accepted since start */
  public long acceptedConnections() {
    return accepted.sum();
  }

  /** @return connections closed at once because {@code maxConnections} were open */
  public long rejectedConnections() {
    return rejected.sum();
  }

  /** @return bytes received (after TLS decryption) */
  public long bytesIn() {
    return bytesIn.sum();
  }

  /** @return bytes sent (before TLS encryption): heads, bodies with their chunk framing, interim responses */
  public long bytesOut() {
    return bytesOut.sum();
  }

  void response(int status) {
    int c = status / 100;
    if (c >= 1 && c <= 5) {
      statusClasses[c - 1].increment();
    }
  }

  @Override
  public String toString() {
    return "HttpServerStats[requests=" + requests() + ", 1xx=" + responses(1) + ", 2xx=" + responses(2) + ", 3xx="
        + responses(3) + ", 4xx=" + responses(4) + ", 5xx=" + responses(5) + ", open=" + openConnections()
        + ", accepted=" + acceptedConnections() + ", rejected=" + rejectedConnections() + ", bytesIn=" + bytesIn()
        + ", bytesOut=" + bytesOut() + "]";
  }
}
