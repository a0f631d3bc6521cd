package io.krill.testweb;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
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

  /**
   * What a crawl fetched, as this log saw it, against what it should have fetched.
   *
   * @param expected the URLs it should have requested ({@link GroundTruth#urls()})
   * @param missing those it never requested, in order
   * @param answeredTwice URLs answered in full (a status from 200 to 499 but 429) more than once: fetched again for nothing
   * @param retried URLs requested again after a dropped connection, a 429 or a 5xx
   * @param outside URLs requested that are not expected (robots.txt and sitemaps, which the
   *     ground truth leaves out, not counted)
   */
  public record Check(Set<String> expected, List<String> missing, List<String> answeredTwice, List<String> retried,
      List<String> outside) {
    /** @return whether the crawl requested exactly the expected URLs, none answered twice */
    public boolean exact() {
      return missing.isEmpty() && answeredTwice.isEmpty() && outside.isEmpty();
    }

    /** @return one line: {@code fetched all 335 (7 retried), none answered twice, nothing else} or what differed, with an example each */
    public String describe() {
      int fetched = expected.size() - missing.size();
      return "fetched " + (missing.isEmpty() ? "all " + fetched : fetched + " of " + expected.size() + " (not " + missing.get(0) + ")")
          + (retried.isEmpty() ? "" : " (" + retried.size() + " retried)")
          + (answeredTwice.isEmpty() ? ", none answered twice" : ", " + answeredTwice.size() + " answered twice (" + answeredTwice.get(0) + ")")
          + (outside.isEmpty() ? ", nothing else" : ", " + outside.size() + " others (" + outside.get(0) + ")");
    }
  }

  /**
   * Compares the kept requests with a ground truth.
   *
   * @param truth what the crawl should have fetched
   * @return the comparison
   * @throws IllegalStateException if the log dropped requests beyond its limit (nothing to compare then)
   */
  public Check check(GroundTruth truth) {
    if (total.get() > kept.get()) {
      throw new IllegalStateException("the access log kept " + kept.get() + " of " + total.get()
          + " requests (accessLogLimit): nothing to compare");
    }
    List<Entry> sorted = entries();
    sorted.sort(Comparator.comparingLong(Entry::startNanos));
    Map<String, int[]> byUrl = new LinkedHashMap<>(); // {requests, full answers}
    for (Entry e : sorted) {
      if (e.target.equals(SyntheticWeb.ROBOTS_PATH) || e.target.equals(SyntheticWeb.SITEMAP_PATH)) {
        continue;
      }
      int[] n = byUrl.computeIfAbsent(SyntheticWeb.origin(e.host, port) + e.target, u -> new int[2]);
      n[0]++;
      if (e.status >= 200 && e.status < 500 && e.status != 429) {
        n[1]++;
      }
    }
    Set<String> expected = new LinkedHashSet<>(truth.urls());
    List<String> missing = expected.stream().filter(u -> !byUrl.containsKey(u)).toList();
    List<String> twice = new ArrayList<>();
    List<String> retried = new ArrayList<>();
    List<String> outside = new ArrayList<>();
    byUrl.forEach((u, n) -> {
      if (n[1] > 1) {
        twice.add(u);
      } else if (n[0] > 1) {
        retried.add(u);
      }
      if (!expected.contains(u)) {
        outside.add(u);
      }
    });
    return new Check(expected, missing, twice, retried, outside);
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
