package io.krill.httpd;

import io.krill.fibers.Checks;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.BaseUnits;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.concurrent.atomic.LongAdder;

/**
 * Live counters of one {@link HttpServer}: requests, responses by status class, connections
 * and bytes. Every getter reads the current value.
 *
 * <p>It is also a Micrometer {@link MeterBinder}: {@code server.stats().bindTo(registry)} (or
 * {@link #withTags} when several servers share a registry) publishes the same counters to any
 * registry, as {@value #PREFIX}{@code requests}, {@code responses{status="2xx"}},
 * {@code connections.accepted}, {@code connections.rejected}, {@code connections.open},
 * {@code bytes.in} and {@code bytes.out}. The meters read the counters when the registry
 * scrapes, so serving costs no more with a registry than without.
 *
 * <p>Threading: thread-safe; counters are updated from event loops and handler strands without
 * locks, so a read taken while traffic flows may mix slightly different instants.
 */
public final class HttpServerStats implements MeterBinder {
  /** The prefix of every meter's name. */
  public static final String PREFIX = "httpd.";

  final LongAdder requests = new LongAdder();
  final LongAdder[] statusClasses = {new LongAdder(), new LongAdder(), new LongAdder(), new LongAdder(),
      new LongAdder()};
  final LongAdder accepted = new LongAdder();
  final LongAdder rejected = new LongAdder();
  final LongAdder evicted = new LongAdder();
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
    return statusClasses[Checks.inRange("statusClass", statusClass, 1, 5) - 1].sum();
  }

  /** @return connections open now */
  public long openConnections() {
    return open.sum();
  }

  /** @return connections accepted since start */
  public long acceptedConnections() {
    return accepted.sum();
  }

  /**
   * @return connections refused on accept: with 503 because {@code maxConnections} were open and
   *     none was idle, or closed during shutdown
   */
  public long rejectedConnections() {
    return rejected.sum();
  }

  /** @return idle connections closed to make room for a new one at {@code maxConnections} */
  public long evictedConnections() {
    return evicted.sum();
  }

  /** @return bytes received (after TLS decryption) */
  public long bytesIn() {
    return bytesIn.sum();
  }

  /** @return bytes sent (before TLS encryption): heads, bodies with their chunk framing, interim responses */
  public long bytesOut() {
    return bytesOut.sum();
  }

  @Override
  public void bindTo(MeterRegistry registry) {
    withTags(Tags.empty()).bindTo(registry);
  }

  /**
   * @param tags tags for every meter, such as the server's name
   * @return a binder of these counters whose meters carry {@code tags}
   */
  public MeterBinder withTags(Iterable<Tag> tags) {
    return registry -> {
      counter(registry, "requests", "requests whose head was decoded", requests, tags, null);
      for (int c = 1; c <= 5; c++) {
        counter(registry, "responses", "final responses sent, by status class", statusClasses[c - 1],
            Tags.concat(tags, "status", c + "xx"), null);
      }
      counter(registry, "connections.accepted", "connections accepted", accepted, tags, null);
      counter(registry, "connections.rejected", "connections refused with 503 at maxConnections", rejected, tags, null);
      counter(registry, "connections.evicted", "idle connections closed to make room at maxConnections", evicted,
          tags, null);
      Gauge.builder(PREFIX + "connections.open", open, LongAdder::sum).description("connections open now")
          .tags(tags).register(registry);
      counter(registry, "bytes.in", "bytes received, after TLS decryption", bytesIn, tags, BaseUnits.BYTES);
      counter(registry, "bytes.out", "bytes sent, before TLS encryption", bytesOut, tags, BaseUnits.BYTES);
    };
  }

  private static void counter(MeterRegistry registry, String name, String description, LongAdder value,
      Iterable<Tag> tags, String unit) {
    FunctionCounter.builder(PREFIX + name, value, LongAdder::sum).description(description).tags(tags)
        .baseUnit(unit).register(registry);
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
        + ", accepted=" + acceptedConnections() + ", rejected=" + rejectedConnections() + ", evicted="
        + evictedConnections() + ", bytesIn=" + bytesIn()
        + ", bytesOut=" + bytesOut() + "]";
  }
}
