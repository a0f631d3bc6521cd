package io.krill.testweb;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * Every request the synthetic web's servers answered: when it arrived and ended, who asked
 * which address, host and path, and the status. Crawler tests check politeness against it
 * (the gap between two requests to a host, requests in flight per address) and that robots.txt
 * was obeyed. It keeps at most {@code accessLogLimit} entries and counts the rest.
 *
 * <p>Threading: thread-safe; servers append from their connections' fibers, readers get
 * snapshots.
 */
public final class AccessLog {
  /**
   * One answered request.
   *
   * @param time when it arrived (wall clock)
   * @param startNanos when it arrived ({@link System#nanoTime()}, for intervals)
   * @param endNanos when the handler finished with it ({@link System#nanoTime()})
   * @param client the client's address
   * @param server the loopback address the request came in on
   * @param host the Host header, lower case, without port
   * @param target the request target as sent (path and query)
   * @param status the status sent, 0 if the connection was dropped on purpose before a complete answer
   * @param bytes body bytes written
   */
  public record Entry(Instant time, long startNanos, long endNanos, InetSocketAddress client, InetAddress server, String host,
      String target, int status, long bytes) {
    /** @return how long the server took */
    public Duration duration() {
      return Duration.ofNanos(endNanos - startNanos);
    }
  }

  private final int limit;
  private volatile int port;
  private final ConcurrentLinkedQueue<Entry> entries = new ConcurrentLinkedQueue<>();
  private final AtomicLong kept = new AtomicLong();
  private final AtomicLong total = new AtomicLong();

  AccessLog(int limit) {
    this.limit = limit;
  }

  void port(int port) {
    this.port = port;
  }

  void add(Entry e) {
    total.incrementAndGet();
    if (kept.incrementAndGet() <= limit) {
      entries.add(e);
    } else {
      kept.decrementAndGet();
    }
  }

  /** @return the kept entries, in the order their requests ended */
  public List<Entry> entries() {
    return new ArrayList<>(entries);
  }

  /** @return the kept entries for {@code host}, in the order their requests arrived */
  public List<Entry> entries(String host) {
    List<Entry> out = new ArrayList<>();
    for (Entry e : entries) {
      if (e.host.equals(host)) {
        out.add(e);
      }
    }
    out.sort(Comparator.comparingLong(Entry::startNanos));
    return out;
  }

  /** @return the requests answered, kept or not */
  public long total() {
    return total.get();
  }

  /** @return the requests answered but not kept, because the log was full */
  public long dropped() {
    return total.get() - kept.get();
  }

  /** Forgets every entry and count. */
  public void clear() {
    entries.clear();
    kept.set(0);
    total.set(0);
  }

  /** @return the absolute URLs requested ({@code http://host:port/target}), each once, in order of arrival */
  public Set<String> urls() {
    List<Entry> sorted = entries();
    sorted.sort(Comparator.comparingLong(Entry::startNanos));
    Set<String> out = new LinkedHashSet<>();
    for (Entry e : sorted) {
      out.add(SyntheticWeb.origin(e.host, port) + e.target);
    }
    return out;
  }

  /** @return for each server address, the most requests it was serving at one time */
  public Map<InetAddress, Integer> maxInFlightByAddress() {
    return maxInFlight(Entry::server);
  }

  /** @return for each host, the most requests it was serving at one time */
  public Map<String, Integer> maxInFlightByHost() {
    return maxInFlight(Entry::host);
  }

  /** @return for each host with two or more requests, the shortest time between the arrivals of two of them */
  public Map<String, Duration> minGapByHost() {
    Map<String, List<Entry>> byHost = group(Entry::host);
    Map<String, Duration> out = new HashMap<>();
    for (Map.Entry<String, List<Entry>> g : byHost.entrySet()) {
      List<Entry> list = g.getValue();
      list.sort(Comparator.comparingLong(Entry::startNanos));
      long min = Long.MAX_VALUE;
      for (int i = 1; i < list.size(); i++) {
        min = Math.min(min, list.get(i).startNanos - list.get(i - 1).startNanos);
      }
      if (list.size() > 1) {
        out.put(g.getKey(), Duration.ofNanos(min));
      }
    }
    return out;
  }

  private <K> Map<K, Integer> maxInFlight(Function<Entry, K> key) {
    Map<K, Integer> out = new HashMap<>();
    for (Map.Entry<K, List<Entry>> g : group(key).entrySet()) {
      List<long[]> events = new ArrayList<>();
      for (Entry e : g.getValue()) {
        events.add(new long[] {e.startNanos, 1});
        events.add(new long[] {e.endNanos, -1});
      }
      // At equal times an end comes before a start: back-to-back requests do not overlap.
      events.sort((a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]));
      int now = 0;
      int max = 0;
      for (long[] ev : events) {
        now += (int) ev[1];
        max = Math.max(max, now);
      }
      out.put(g.getKey(), max);
    }
    return out;
  }

  private <K> Map<K, List<Entry>> group(Function<Entry, K> key) {
    Map<K, List<Entry>> out = new HashMap<>();
    for (Entry e : entries) {
      out.computeIfAbsent(key.apply(e), k -> new ArrayList<>()).add(e);
    }
    return out;
  }
}
