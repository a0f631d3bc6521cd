package io.krill.crawler;

import java.util.List;
import java.util.Map;

/**
 * A read-only view of a running crawl plus its operator controls, for a console or any other
 * live display: the counters the crawl keeps, the busiest hosts' queue state, recent output
 * lines, and pause, resume, stop and add-seeds. Get one from {@link Crawler#view()}; it is
 * usable before {@link Crawler#run()} starts (empty numbers) and after it returns (final ones).
 *
 * <p>Threading: every method may be called from any thread and never blocks on the crawl; a
 * {@link #snapshot(int)} takes the frontier's lock once, for a copy of at most {@code maxHosts}
 * host rows.
 */
public interface CrawlView {
  /**
   * The crawl as it is now.
   *
   * @param maxHosts host rows at most, busiest first
   * @return a consistent-enough copy (each counter read once)
   */
  Snapshot snapshot(int maxHosts);

  /**
   * The last output lines written, oldest first: a window of fixed size.
   *
   * @param errorsOnly only lines that report an error (a window of its own)
   * @return the lines
   */
  List<Written> recent(boolean errorsOnly);

  /** Stops dispatching new work; fetches in flight finish. Idempotent. */
  void pause();

  /** Dispatches again after {@link #pause()}. Idempotent. */
  void resume();

  /** Ends the crawl as {@code stop()} does: in-flight fetches finish and the summary is written. */
  void stop();

  /**
   * Queues seed URLs (at depth 0, added to the scope like command-line seeds).
   *
   * @param urls the URLs
   * @return how many were valid http or https URLs; those the crawl has seen already are then
   *     skipped like any link to a seen URL
   */
  int addSeeds(List<String> urls);

  /**
   * A crawl's numbers at one moment.
   *
   * @param elapsedSeconds time since the crawl started
   * @param pages pages fetched (final answers), earlier runs of a resumed crawl included (as in
   *     {@code summary.json})
   * @param runPages pages this run fetched
   * @param requests HTTP requests sent
   * @param bytes bytes received
   * @param inFlight work items in flight (DNS lookups included)
   * @param fetching HTTP fetches in flight
   * @param queued URLs queued in the frontier
   * @param statuses final HTTP statuses and counts, earlier runs included
   * @param errors errors by kind, earlier runs included
   * @param robotsFetches robots.txt fetches
   * @param robotsDisallowed URLs refused by robots.txt, earlier runs included
   * @param retries retries after 429/503
   * @param dnsLookups DNS lookups
   * @param dnsCached DNS answers from the cache
   * @param dnsFailures DNS lookups that failed
   * @param dnsMeanMillis mean DNS lookup time
   * @param seen URLs in the seen-set
   * @param seenSet the seen-set's mode and size, as the summary says it
   * @param hostCount hosts known to the frontier
   * @param maxPages the page limit
   * @param paused true while paused
   * @param stoppedBy why the crawl ended, as in the summary; null while it runs
   * @param hosts the busiest hosts
   * @param nodes the cluster's nodes; empty for a single-node crawl
   * @param ownership the cluster's recent partition ownership changes, oldest first; empty for a
   *     single-node crawl
   */
  record Snapshot(double elapsedSeconds, long pages, long runPages, long requests, long bytes, int inFlight, int fetching,
      long queued, Map<Integer, Long> statuses, Map<String, Long> errors, long robotsFetches, long robotsDisallowed,
      long retries, long dnsLookups, long dnsCached, long dnsFailures, long dnsMeanMillis, long seen, String seenSet,
      int hostCount, long maxPages, boolean paused, String stoppedBy, List<Host> hosts, List<Node> nodes,
      List<OwnershipChange> ownership) {}

  /**
   * One host's queue and politeness state.
   *
   * @param host scheme, host and port ({@code https://example.org})
   * @param state {@code new}, {@code resolving}, {@code needs_robots}, {@code robots},
   *     {@code robots_wait}, {@code ready} or {@code failed}
   * @param queued URLs queued
   * @param inFlight requests in flight
   * @param address the IP address, null until resolved
   * @param backoffMillis back-off left after 429/503 or failed connections
   * @param delayMillis the delay between requests (the larger of --delay and Crawl-delay)
   */
  record Host(String host, String state, int queued, int inFlight, String address, long backoffMillis,
      long delayMillis) {}

  /**
   * A cluster node and the partitions it owns (a Kafka crawl fills these; a single node has none).
   *
   * @param id the node's id
   * @param partitions the partitions it owns, as far as the cluster's reports tell
   * @param alive true while it reports that it is crawling
   * @param state {@code crawling}, {@code finished}, {@code left}, or {@code silent} (no report for
   *     a while: killed, or cut off)
   * @param self true for the node this view belongs to
   */
  record Node(String id, List<Integer> partitions, boolean alive, String state, boolean self) {}

  /**
   * The cluster part of a view, kept by a crawl across machines from the nodes' reports; a plain
   * crawl has none. Implementations are thread-safe and bounded in what they keep.
   */
  interface Cluster {
    /** @return the nodes known, by id */
    List<Node> nodes();

    /** @return the latest partition ownership changes, oldest first */
    List<OwnershipChange> ownership();
  }

  /**
   * A partition changing owner: assigned at start, moved by a rebalance, taken over after a node died.
   *
   * @param atSeconds crawl time of the change
   * @param partition the partition
   * @param from the node that owned it, null if none
   * @param to the node that owns it now, null if none yet
   */
  record OwnershipChange(double atSeconds, int partition, String from, String to) {}

  /**
   * One line of the crawl's JSONL output, where it is and where its WARC records are.
   *
   * @param seq increases by one per line this crawl wrote
   * @param line its 1-based line number in {@code crawl.jsonl}
   * @param warcFile the WARC file holding its commit's records, null if none
   * @param warcOffset the byte offset of its commit's first WARC record in that file, -1 if none
   * @param json the line itself
   * @param error true if the line reports an error
   */
  record Written(long seq, long line, String warcFile, long warcOffset, String json, boolean error) {}
}
