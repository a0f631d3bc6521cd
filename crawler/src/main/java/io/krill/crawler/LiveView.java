package io.krill.crawler;

import io.krill.crawler.frontier.Frontier;
import io.krill.crawler.frontier.UrlNormalizer;
import io.krill.crawler.output.CrawlStats;
import io.krill.netio.dns.DnsMetrics;
import io.krill.netio.dns.DnsResolver;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * The {@link CrawlView} of one {@link Crawler}: reads its counters and frontier, and hands the
 * controls to its dispatcher (a pause flag it checks, seeds it drains), so no view thread ever
 * touches the frontier's queues or the output.
 *
 * <p>Thread-safe.
 */
final class LiveView implements CrawlView {
  private static final CrawlSummary.Totals NONE = new CrawlSummary.Totals(0, Map.of(), Map.of(), 0);

  private final Crawler crawler;
  private final CrawlStats stats;
  private final long maxPages;
  private final ConcurrentLinkedQueue<String> seeds = new ConcurrentLinkedQueue<>();
  private volatile boolean paused;
  private volatile String stoppedBy;
  private volatile Frontier frontier;
  private volatile DnsResolver resolver;
  private volatile RecentOutput recent = new RecentOutput(0);
  private volatile CrawlSummary.Totals earlier;
  private volatile Cluster cluster;

  LiveView(Crawler crawler, CrawlStats stats, long maxPages) {
    this.crawler = crawler;
    this.stats = stats;
    this.maxPages = maxPages;
  }

  /**
   * Called by the crawl once its parts exist; returns where the writer reports lines.
   *
   * @param earlier what earlier runs of a resumed crawl made durable, or null
   * @param cluster the cluster's nodes and ownership, or null for a plain crawl
   */
  RecentOutput attach(Frontier frontier, DnsResolver resolver, long jsonlLinesBefore, CrawlSummary.Totals earlier,
      Cluster cluster) {
    this.resolver = resolver;
    this.recent = new RecentOutput(jsonlLinesBefore);
    this.earlier = earlier;
    this.cluster = cluster;
    this.frontier = frontier;
    return recent;
  }

  void ended(String why) {
    stoppedBy = why;
  }

  boolean paused() {
    return paused;
  }

  /** @return the seeds added since the last call, for the dispatcher */
  List<String> takeSeeds() {
    if (seeds.isEmpty()) {
      return List.of(); // the dispatcher asks on every turn: no garbage when there is nothing
    }
    List<String> out = new ArrayList<>();
    for (String s; (s = seeds.poll()) != null; ) {
      out.add(s);
    }
    return out;
  }

  @Override
  public Snapshot snapshot(int maxHosts) {
    Frontier f = frontier;
    DnsResolver r = resolver;
    List<Host> hosts = new ArrayList<>();
    long queued = 0;
    long seen = 0;
    String seenSet = "";
    int hostCount = 0;
    if (f != null) {
      for (Frontier.HostStats h : f.hostStats(maxHosts)) {
        hosts.add(new Host(h.hostKey(), h.state(), h.queued(), h.inFlight(), h.address(), h.backoffRemainingMillis(),
            h.delayMillis()));
      }
      queued = f.queued();
      seen = f.seenCount();
      seenSet = f.seenDescription();
      hostCount = f.hostCount();
    }
    DnsMetrics dns = r == null ? null : r.metrics();
    long runPages = stats.pages.sum();
    // counted like summary.json: a resumed crawl's figures include what its earlier runs made durable
    CrawlSummary.Totals e = earlier;
    CrawlSummary.Totals whole = (e == null ? NONE : e).plus(runPages, stats.statuses(), stats.errors(),
        stats.robotsDisallowed.sum());
    Cluster c = cluster;
    return new Snapshot(stats.elapsedSeconds(), whole.pages(), runPages, stats.requests.sum(), stats.bytes.sum(),
        stats.inFlight.get(), stats.fetching.get(), queued, whole.statuses(), whole.errors(), stats.robotsFetches.sum(),
        whole.robotsDisallowed(), stats.retries.sum(), dns == null ? 0 : dns.lookups(),
        dns == null ? 0 : dns.cacheHits(), dns == null ? 0 : dns.failures(),
        dns == null ? 0 : dns.meanLatency().toMillis(), seen, seenSet, hostCount, maxPages, paused, stoppedBy, hosts,
        c == null ? List.of() : c.nodes(), c == null ? List.of() : c.ownership());
  }

  @Override
  public List<Written> recent(boolean errorsOnly) {
    return recent.window(errorsOnly);
  }

  @Override
  public void pause() {
    paused = true;
  }

  @Override
  public void resume() {
    paused = false;
    crawler.signal();
  }

  @Override
  public void stop() {
    crawler.stop();
  }

  @Override
  public int addSeeds(List<String> urls) {
    int n = 0;
    for (String u : urls) {
      String s = u == null ? null : UrlNormalizer.normalize(u.trim());
      if (s != null && (s.startsWith("http://") || s.startsWith("https://"))) {
        seeds.add(s);
        n++;
      }
    }
    if (n > 0) {
      crawler.signal();
    }
    return n;
  }
}
