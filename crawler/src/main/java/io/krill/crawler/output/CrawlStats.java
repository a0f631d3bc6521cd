package io.krill.crawler.output;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * Live counters of a crawl, read by the progress line, the metrics endpoint and the summary.
 * Thread-safe; updates never block.
 */
public final class CrawlStats {
  /** Pages fetched (final answers, not retries). */
  public final LongAdder pages = new LongAdder();
  /** HTTP requests sent, including robots.txt, redirects and retries. */
  public final LongAdder requests = new LongAdder();
  /** Bytes received (response bytes on the wire). */
  public final LongAdder bytes = new LongAdder();
  /** robots.txt fetches. */
  public final LongAdder robotsFetches = new LongAdder();
  /** URLs refused by robots.txt. */
  public final LongAdder robotsDisallowed = new LongAdder();
  /** Retries after 429/503. */
  public final LongAdder retries = new LongAdder();
  /** URLs discovered and queued. */
  public final LongAdder queued = new LongAdder();
  /** Work items in flight. */
  public final AtomicInteger inFlight = new AtomicInteger();
  /** HTTP fetches (robots.txt and pages) in flight: work items other than DNS lookups. */
  public final AtomicInteger fetching = new AtomicInteger();
  /** The most HTTP fetches in flight at once. */
  public final AtomicInteger peakFetching = new AtomicInteger();
  private final Map<Integer, LongAdder> statuses = new ConcurrentHashMap<>();
  private final Map<String, LongAdder> errors = new ConcurrentHashMap<>();
  private final long startNanos = System.nanoTime();

  /** Counts a final HTTP status. */
  public void status(int code) {
    statuses.computeIfAbsent(code, k -> new LongAdder()).increment();
  }

  /** Counts an error by kind. */
  public void error(String kind) {
    errors.computeIfAbsent(kind, k -> new LongAdder()).increment();
  }

  /** @return final statuses and their counts, sorted */
  public Map<Integer, Long> statuses() {
    Map<Integer, Long> m = new TreeMap<>();
    statuses.forEach((k, v) -> m.put(k, v.sum()));
    return m;
  }

  /** @return errors by kind, sorted */
  public Map<String, Long> errors() {
    Map<String, Long> m = new TreeMap<>();
    errors.forEach((k, v) -> m.put(k, v.sum()));
    return m;
  }

  /** @return errors in total */
  public long errorCount() {
    long n = 0;
    for (LongAdder a : errors.values()) {
      n += a.sum();
    }
    return n;
  }

  /** @return seconds since the crawl started */
  public double elapsedSeconds() {
    return (System.nanoTime() - startNanos) / 1e9;
  }
}
