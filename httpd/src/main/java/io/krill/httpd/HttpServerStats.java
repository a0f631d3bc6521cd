package io.krill.httpd;

import io.krill.fibers.Checks;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.BaseUnits;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.ToDoubleFunction;

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
  /*
   * Implementation notes.
   *
   * The per-request counters (requests, responses by class, bytes in and out) are bumped four
   * times per keep-alive request, mostly on the connection's event loop. A LongAdder's
   * uncontended add is still a CAS; profiling a hello server put those four at about 1% of its
   * CPU. So each thread that runs connections' codecs has a Cell of plain counts that only it
   * writes (an add is a load and an opaque store, no atomic), found once per connection when its
   * decoder and encoder are made; a read sums the shared adders and every cell. An update from
   * any other thread (a virtual- or platform-thread strand, an HTTP/2 stream, a codec made off
   * its loop) goes to the shared adder, so a count is never lost, only cheaper where it can be.
   * Cells live as long as the server's stats; there is one per thread that made a codec (the
   * carriers), not per connection.
   */

  /** The prefix of every meter's name. */
  public static final String PREFIX = "httpd.";

  /* Slots of the per-request counters, in the shared adders and in each cell. */
  static final int REQUESTS = 0;
  static final int BYTES_IN = 1;
  static final int BYTES_OUT = 2;
  /* Status class c (1..5) is slot STATUS_CLASS + c - 1. */
  static final int STATUS_CLASS = 3;
  private static final int SLOTS = 8;

  /* The per-request counts of threads without a cell of their own. */
  private final LongAdder[] shared = new LongAdder[SLOTS];
  private final ConcurrentHashMap<Thread, Cell> cells = new ConcurrentHashMap<>();
  /* The shared byte counters, for the HTTP/2 codec's counter (any thread). */
  final LongAdder bytesIn;
  final LongAdder bytesOut;
  final LongAdder accepted = new LongAdder();
  final LongAdder rejected = new LongAdder();
  final LongAdder evicted = new LongAdder();
  final LongAdder open = new LongAdder();

  HttpServerStats() {
    for (int i = 0; i < SLOTS; i++) {
      shared[i] = new LongAdder();
    }
    bytesIn = shared[BYTES_IN];
    bytesOut = shared[BYTES_OUT];
  }

  /** @return the current thread's cell, made on its first call. Any thread. */
  Cell cell() {
    return cells.computeIfAbsent(Thread.currentThread(), t -> new Cell(this, t));
  }

  /* The shared adder plus every cell. */
  private long sum(int slot) {
    long n = shared[slot].sum();
    for (Cell c : cells.values()) {
      n += c.get(slot);
    }
    return n;
  }

  /** @return requests whose head was decoded, including those answered with an error */
  public long requests() {
    return sum(REQUESTS);
  }

  /**
   * @param statusClass 1..5 for 1xx..5xx
   * @return final responses sent with a status of that class
   * @throws IllegalArgumentException if {@code statusClass} is not 1..5
   */
  public long responses(int statusClass) {
    return sum(STATUS_CLASS + Checks.inRange("statusClass", statusClass, 1, 5) - 1);
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
    return sum(BYTES_IN);
  }

  /** @return bytes sent (before TLS encryption): heads, bodies with their chunk framing, interim responses */
  public long bytesOut() {
    return sum(BYTES_OUT);
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
      counter(registry, "requests", "requests whose head was decoded", HttpServerStats::requests, tags, null);
      for (int c = 1; c <= 5; c++) {
        int statusClass = c;
        counter(registry, "responses", "final responses sent, by status class", s -> s.responses(statusClass),
            Tags.concat(tags, "status", c + "xx"), null);
      }
      counter(registry, "connections.accepted", "connections accepted", HttpServerStats::acceptedConnections, tags,
          null);
      counter(registry, "connections.rejected", "connections refused with 503 at maxConnections",
          HttpServerStats::rejectedConnections, tags, null);
      counter(registry, "connections.evicted", "idle connections closed to make room at maxConnections",
          HttpServerStats::evictedConnections, tags, null);
      Gauge.builder(PREFIX + "connections.open", open, LongAdder::sum).description("connections open now")
          .tags(tags).register(registry);
      counter(registry, "bytes.in", "bytes received, after TLS decryption", HttpServerStats::bytesIn, tags,
          BaseUnits.BYTES);
      counter(registry, "bytes.out", "bytes sent, before TLS encryption", HttpServerStats::bytesOut, tags,
          BaseUnits.BYTES);
    };
  }

  private void counter(MeterRegistry registry, String name, String description, ToDoubleFunction<HttpServerStats> value,
      Iterable<Tag> tags, String unit) {
    FunctionCounter.builder(PREFIX + name, this, value).description(description).tags(tags).baseUnit(unit)
        .register(registry);
  }

  /** Counts a final or interim response of {@code status}, in {@code cell} if that is the current thread's. */
  void response(Cell cell, int status) {
    int c = status / 100;
    if (c >= 1 && c <= 5) {
      add(cell, STATUS_CLASS + c - 1, 1);
    }
  }

  /** Adds {@code n} to a per-request counter: in {@code cell} if that is the current thread's, else shared. */
  void add(Cell cell, int slot, long n) {
    if (cell != null) {
      cell.count(slot, n);
    } else {
      shared[slot].add(n);
    }
  }

  /**
   * The per-request counts of one thread: only {@link #owner} writes them (a plain add published
   * with an opaque store), any thread reads them.
   */
  static final class Cell {
    private static final VarHandle COUNTS = MethodHandles.arrayElementVarHandle(long[].class);
    /* Unused longs either side keep another thread's counts off this one's cache lines. */
    private static final int PAD = 8;

    final HttpServerStats stats;
    final Thread owner;
    private final long[] counts = new long[PAD + SLOTS + PAD];

    Cell(HttpServerStats stats, Thread owner) {
      this.stats = stats;
      this.owner = owner;
    }

    /* Owner thread only. */
    void add(int slot, long n) {
      int i = PAD + slot;
      COUNTS.setOpaque(counts, i, counts[i] + n);
    }

    /** Adds {@code n} here on the owner thread, else to the shared adder. Any thread. */
    void count(int slot, long n) {
      if (owner == Thread.currentThread()) {
        add(slot, n);
      } else {
        stats.shared[slot].add(n);
      }
    }

    long get(int slot) {
      return (long) COUNTS.getOpaque(counts, PAD + slot);
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
