package io.krill.crawler.frontier;

import io.krill.fibers.Checks;
import java.net.InetAddress;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * The crawl frontier: one queue per host (scheme, name and port), the seen-set, and the
 * politeness gates. {@link #next(long)} hands out the next piece of work whose host delay,
 * host concurrency, IP concurrency and back-off all allow it, in BFS, DFS or random order.
 *
 * <p>Each host goes through RESOLVE (DNS, ahead of the gates, so the per-IP gate knows the
 * address), ROBOTS (fetching robots.txt, gated like a page), then FETCH work for its URLs.
 *
 * <p>Threading: every method is synchronized and short; none suspends or blocks, so fibers
 * and threads may call it alike. Waiting for work is the caller's job ({@link #nanosUntilReady(long)}).
 */
public final class Frontier {
  /*
   * Implementation notes: the politeness model. A host may start a request when
   *   inFlight(host) < perHostConcurrency, inFlight(ip) < perIpConcurrency,
   *   now >= max(lastStart(host), lastEnd(host)) + delay(host), and now >= backoffUntil(host),
   * where delay(host) = max(--delay, min(robots Crawl-delay, --max-crawl-delay)). The delay runs
   * from the later of the last request's start and its end, so with one request per host a
   * server sees each request at least `delay` after it answered the one before. Several hosts on one IP share the IP's in-flight cap.
   * Back-off after 429/503 (and connection failures): min(max, base * 2^(failures-1)) scaled
   * by a random factor in [0.5, 1) (jitter), at least Retry-After, at most backoffMax.
   * `active` holds the hosts with pending or in-flight work (for isIdle).
   *
   * Order of work kinds. A host's DNS lookup and robots.txt fetch come in the crawl order of the
   * URL that needs them: robots.txt is ranked like the host's next page, and in BFS order a new
   * host is resolved when its first URL's turn has come (no ready host ranks before it) or, to
   * hide DNS latency, ahead of its turn while fewer than DEFAULT_RESOLVE_AHEAD hosts are resolving
   * or resolved and waiting for their robots.txt turn.
   * Handing them out first instead (as an earlier version did) made a crawl fetch robots.txt
   * and resolve hosts far ahead of the pages it reached: a crawl stopped by --max-pages did up
   * to 0.6 robots.txt fetches and 1.1 lookups per page, and how many depended on the strands'
   * timing, so the execution modes did different work for the same pages. DFS and RANDOM
   * resolve new hosts as soon as a resolve slot is free (no order to keep).
   *
   * Indexes, so that next() costs O(log hosts) and never scans every host: each host with
   * something to do (robots.txt to fetch, or queued URLs) and a free host slot sits in exactly
   * one place: `timed` (its delay or back-off has not passed, ordered by when it will) or its
   * IP's `ready` set (ordered by rank: the crawl order). `openIps` holds
   * the IPs below their in-flight cap that have a ready host, ordered by their best host's rank,
   * so the best host overall is openIps.first().ready.first(). Hosts at their own in-flight cap
   * sit nowhere until release(). Every change to a host's gates calls place(), which takes the
   * host out of its place and puts it where it now belongs; next() re-checks the time gate of
   * the host it picks, so a host placed with an older clock reading is never handed out early.
   * RANDOM order draws a fresh random rank at each placement.
   */

  /** Crawl order across and within host queues. */
  public enum Order {
    /** Breadth-first: the oldest discovered URL first. */
    BFS,
    /** Depth-first: the newest discovered URL first. */
    DFS,
    /** A random host, a random URL of it. */
    RANDOM
  }

  /** What the caller should do next. */
  public enum WorkKind {
    /** Resolve the host's name. */
    RESOLVE,
    /** Fetch the host's robots.txt. */
    ROBOTS,
    /** Fetch a URL. */
    FETCH
  }

  /**
   * One piece of work handed out by {@link #next(long)}. For ROBOTS and FETCH a host and IP
   * slot is held until {@link #release(String)}.
   *
   * @param kind what to do
   * @param hostKey the host
   * @param url the URL for FETCH, else null
   * @param address the host's address for ROBOTS and FETCH, else null
   */
  public record Work(WorkKind kind, String hostKey, CrawlUrl url, InetAddress address) {}

  /** Politeness settings. */
  public record Politeness(int perHostConcurrency, int perIpConcurrency, Duration delay, Duration maxCrawlDelay,
      Duration backoffBase, Duration backoffMax) {
    /** Checks the fields. */
    public Politeness {
      Checks.positive("perHost", perHostConcurrency);
      Checks.positive("perIp", perIpConcurrency);
      Checks.nonNegative("delay", delay);
      Checks.nonNegative("maxCrawlDelay", maxCrawlDelay);
      Checks.positive("backoffBase", backoffBase);
      Checks.positive("backoffMax", backoffMax);
    }
  }

  /** A host's queue state, for metrics. */
  public record HostStats(String hostKey, String state, int queued, int inFlight, String address,
      long backoffRemainingMillis, long delayMillis) {}

  /**
   * Most hosts resolving at once: DNS lookups are handed out ahead of the gates, and without a cap
   * a crawl seeded with 10,000 hosts would send 10,000 queries at once at one DNS server.
   */
  public static final int DEFAULT_MAX_RESOLVING = 256;
  /**
   * In BFS order, most hosts resolving or resolved and waiting for their robots.txt turn ahead of
   * their crawl order: enough to hide DNS latency behind page fetches, few enough that a crawl
   * stopped by a limit has resolved at most this many hosts it never used.
   */
  public static final int DEFAULT_RESOLVE_AHEAD = 64;

  private enum State { NEW, RESOLVING, NEEDS_ROBOTS, ROBOTS, ROBOTS_WAIT, READY, FAILED }

  private enum Where { NONE, NEW, TIMED, READY }

  /** An IP address's in-flight count and its ready hosts. */
  private static final class Ip {
    final long id;
    final TreeSet<Host> ready = new TreeSet<>(BY_RANK);
    int inFlight;
    boolean open;
    long openRank;

    Ip(long id) {
      this.id = id;
    }
  }

  private static final Comparator<Host> BY_RANK = (a, b) -> a.rank != b.rank ? Long.compare(a.rank, b.rank)
      : Long.compare(a.id, b.id);
  private static final Comparator<Host> BY_READY_AT = (a, b) -> a.readyAt != b.readyAt
      ? Long.compare(a.readyAt, b.readyAt) : Long.compare(a.id, b.id);
  private static final Comparator<Ip> BY_OPEN_RANK = (a, b) -> a.openRank != b.openRank
      ? Long.compare(a.openRank, b.openRank) : Long.compare(a.id, b.id);

  private static final class Host {
    final String key;
    final long id;
    Ip ip;
    Where where = Where.NONE;
    long rank;
    long readyAt;
    final ArrayDeque<CrawlUrl> queue = new ArrayDeque<>();
    State state = State.NEW;
    InetAddress address;
    Predicate<String> allowed = u -> true;
    long delayNanos;
    long nextStart;
    long backoffUntil;
    int failures;
    int inFlight;
    int robotsAttempts;

    Host(String key, long id) {
      this.key = key;
      this.id = id;
    }
  }

  private final Order order;
  private final Politeness politeness;
  private final SeenSet seen;
  private final SplittableRandom random;
  private final Map<String, Host> hosts = new HashMap<>();
  private final Set<Host> active = new LinkedHashSet<>();
  private final Map<InetAddress, Ip> ips = new HashMap<>();
  private final Set<Host> newHosts = new LinkedHashSet<>();
  private final TreeSet<Host> timed = new TreeSet<>(BY_READY_AT);
  private final TreeSet<Ip> openIps = new TreeSet<>(BY_OPEN_RANK);
  private long hostIds;
  private long robotsTickets;
  private long lastNow;
  private int resolving;
  /* Hosts resolved whose robots.txt fetch has not started (state NEEDS_ROBOTS). */
  private int awaitingRobots;
  private final Map<String, CrawlUrl> outstanding = new LinkedHashMap<>();
  private long seq;
  private long queued;
  private final int maxDepth;
  /* The link graph for exact depths; null once the seen-set is a Bloom filter (no URL list to key it). */
  private DepthGraph graph = new DepthGraph();
  /* Set when this frontier is one partition of a crawl across machines; null for a plain crawl. */
  private Router router;

  /**
   * @param order the crawl order
   * @param politeness the gates
   * @param seen the seen-set
   * @param randomSeed seeds the random order and the jitter
   */
  public Frontier(Order order, Politeness politeness, SeenSet seen, long randomSeed) {
    this(order, politeness, seen, randomSeed, UNLIMITED_DEPTH);
  }

  /**
   * @param order the crawl order
   * @param politeness the gates
   * @param seen the seen-set
   * @param randomSeed seeds the random order and the jitter
   * @param maxDepth links found beyond this depth are remembered, not queued, until a shorter
   *     path brings them within it (see {@link #found})
   */
  public Frontier(Order order, Politeness politeness, SeenSet seen, long randomSeed, int maxDepth) {
    this.order = Objects.requireNonNull(order, "order");
    this.politeness = Objects.requireNonNull(politeness, "politeness");
    this.seen = Objects.requireNonNull(seen, "seen");
    this.random = new SplittableRandom(randomSeed);
    this.maxDepth = Checks.nonNegative("maxDepth", maxDepth);
  }

  /** The depth limit of a frontier made without one. */
  public static final int UNLIMITED_DEPTH = Integer.MAX_VALUE / 2;

  /**
   * What recording a page's links changed, for the journal.
   *
   * @param queued URLs queued or lowered while queued (journaled as Q lines)
   * @param deferred URLs found beyond the depth limit and remembered (D lines)
   * @param relaxed URLs already handed out or fetched whose depth dropped (R lines)
   * @param links the page's sequence number, then its targets' (negated: a link that keeps the
   *     depth), or null when the graph is off (E line)
   * @param added URLs newly queued
   */
  public record Found(List<CrawlUrl> queued, List<CrawlUrl> deferred, List<CrawlUrl> relaxed, long[] links, int added) {}

  /**
   * Adds a URL if it was not seen before.
   *
   * @param url the normalized URL
   * @param depth its depth
   * @param parent where it was found, or null
   * @return the queued entry, or null if it was seen already
   */
  public synchronized CrawlUrl offer(String url, int depth, String parent) {
    if (router != null) {
      router.route(url, depth, parent);
      return null;
    }
    int id = graph() ? graph.id(url) : -1;
    if (id > 0) {
      if (graph.state(id) != DepthGraph.DEFERRED) {
        return null;
      }
      CrawlUrl c = new CrawlUrl(url, Math.min(depth, graph.depth(id)), parent, 0, id);
      seen.add(url);
      enqueue(c);
      return c;
    }
    if (!seen.add(url)) {
      return null;
    }
    CrawlUrl c = new CrawlUrl(url, depth, parent, 0, ++seq);
    enqueue(c);
    return c;
  }

  /**
   * Records the links of a page (or the redirect targets of a fetch) and makes every depth the
   * shortest path known: a new target is queued at the page's depth plus {@code step}, or
   * remembered if that is beyond the depth limit; a target known at a greater depth gets the
   * lower one, and so, recursively, does everything reachable from it: a queued URL keeps its
   * place with the lower depth, a remembered one is queued once within the limit, a fetched
   * page passes the drop on to its own links. The caller journals the result with the page's
   * commit. Once the seen-set is a Bloom filter only queued URLs are lowered (the graph is gone).
   *
   * @param from the page, as handed out (its current depth is the frontier's)
   * @param targets normalized URLs in scope (the depth limit aside)
   * @param step 1 for links, 0 for targets that keep the page's depth (redirects, sitemap entries)
   * @param parent the URL the targets were found on, for the journal and output
   * @return what changed
   */
  public synchronized Found found(CrawlUrl from, List<String> targets, int step, String parent) {
    if (router != null) { // one partition of a crawl across machines: the page's owner keeps its links and routes them
      router.found(from, targets, step, parent);
      return new Found(List.of(), List.of(), List.of(), null, 0);
    }
    List<CrawlUrl> q = new ArrayList<>();
    List<CrawlUrl> deferred = new ArrayList<>();
    List<CrawlUrl> relaxed = new ArrayList<>();
    int[] added = new int[1];
    int fromId = graph() ? graph.id(from.url()) : -1;
    int base = fromId > 0 ? graph.depth(fromId) : from.depth();
    int d = base + step;
    int[] out = fromId > 0 ? new int[targets.size()] : null;
    int n = 0;
    for (String t : targets) {
      int id = visit(t, d, parent, q, deferred, relaxed, added);
      if (out != null && id > 0 && graph != null) {
        out[n++] = step == 0 ? -id : id;
      }
    }
    long[] links = null;
    if (out != null && n > 0 && graph != null) {
      int[] kept = java.util.Arrays.copyOf(out, n);
      graph.link(fromId, kept);
      seen.charge((long) DepthGraph.LINK_BYTES * n);
      links = new long[n + 1];
      links[0] = fromId;
      for (int i = 0; i < n; i++) {
        links[i + 1] = kept[i];
      }
    }
    graph();
    return new Found(q, deferred, relaxed, links, added[0]);
  }

  /* One target at depth d: new (queued or remembered), or known (relaxed). Returns its node id, or -1. */
  private int visit(String url, int d, String parent, List<CrawlUrl> q, List<CrawlUrl> deferred, List<CrawlUrl> relaxed,
      int[] added) {
    if (!graph()) {
      if (d > maxDepth) {
        return -1;
      }
      if (seen.add(url)) {
        CrawlUrl c = new CrawlUrl(url, d, parent, 0, ++seq);
        enqueue(c);
        q.add(c);
        added[0]++;
      } else {
        CrawlUrl c = lowerQueued(url, d, parent);
        if (c != null) {
          q.add(c);
        }
      }
      return -1;
    }
    int id = graph.id(url);
    if (id > 0) {
      relax(id, d, parent, q, deferred, relaxed, added);
      return id;
    }
    if (d > maxDepth) {
      CrawlUrl c = new CrawlUrl(url, d, parent, 0, ++seq);
      if (!graph.put(c.seq(), url, parent, d, DepthGraph.DEFERRED)) {
        graph = null;
        return -1;
      }
      seen.charge(DepthGraph.NODE_BYTES);
      deferred.add(c);
      return (int) c.seq();
    }
    if (!seen.add(url)) {
      return -1; // seen before the graph knew it (a journal without link lines)
    }
    CrawlUrl c = new CrawlUrl(url, d, parent, 0, ++seq);
    enqueue(c);
    q.add(c);
    added[0]++;
    return graph() ? (int) c.seq() : -1;
  }

  /* Lowers node id to depth d and everything reachable from it (a worklist; depths only drop, so it ends). */
  private void relax(int id, int d, String parent, List<CrawlUrl> q, List<CrawlUrl> deferred, List<CrawlUrl> relaxed,
      int[] added) {
    ArrayDeque<Object[]> work = new ArrayDeque<>();
    work.add(new Object[] {id, d, parent});
    while (!work.isEmpty() && graph()) {
      Object[] w = work.poll();
      int i = (Integer) w[0];
      int depth = (Integer) w[1];
      String p = (String) w[2];
      if (depth >= graph.depth(i)) {
        continue;
      }
      String url = graph.url(i);
      graph.depth(i, depth);
      graph.parent(i, p);
      switch (graph.state(i)) {
        case DepthGraph.QUEUED: {
          CrawlUrl c = lowerQueued(url, depth, p);
          if (c != null) {
            q.add(c);
          } else {
            relaxed.add(new CrawlUrl(url, depth, p, 0, i)); // claimed by a redirect, not yet fetched
          }
          break;
        }
        case DepthGraph.DEFERRED: {
          CrawlUrl c = new CrawlUrl(url, depth, p, 0, i);
          if (depth <= maxDepth) {
            seen.add(url);
            enqueue(c);
            q.add(c);
            added[0]++;
          } else {
            deferred.add(c);
          }
          break;
        }
        default: {
          relaxed.add(new CrawlUrl(url, depth, p, 0, i));
          for (int t : graph.out(i)) {
            work.add(new Object[] {Math.abs(t), t < 0 ? depth : depth + 1, url});
          }
        }
      }
    }
  }

  /* True while the graph is kept: it goes when the seen-set becomes a Bloom filter. */
  private boolean graph() {
    if (graph != null && seen.isBloom()) {
      graph = null;
    }
    return graph != null;
  }

  /** @return the URL's depth as the frontier knows it now, or -1 if unknown (or the graph is off) */
  public synchronized int depth(String url) {
    int id = graph() ? graph.id(url) : -1;
    return id > 0 ? graph.depth(id) : -1;
  }

  /**
   * Lowers the depth of a URL still waiting in its host queue when it is found again on a
   * shorter path, so that depth is the shortest link distance from a seed and the links of
   * the page, once fetched, get depths from it. The entry keeps its place and sequence number;
   * the caller journals the returned entry as a queued line (replay keeps the last depth of a
   * sequence number). The queued entries are known in both seen-set modes (the Bloom filter
   * only answers "seen"), so lowering works after the switch too; a URL already handed out or
   * fetched keeps the depth it was fetched at.
   *
   * @param url the normalized URL
   * @param depth the depth on the new path
   * @param parent where it was found on the new path
   * @return the lowered entry, or null if the URL is not waiting in a queue at a greater depth
   */
  public synchronized CrawlUrl lower(String url, int depth, String parent) {
    if (graph()) {
      int id = graph.id(url);
      if (id <= 0) {
        return null;
      }
      List<CrawlUrl> q = new ArrayList<>();
      relax(id, depth, parent, q, new ArrayList<>(), new ArrayList<>(), new int[1]);
      for (CrawlUrl c : q) {
        if (c.url().equals(url)) {
          return c;
        }
      }
      return null;
    }
    return lowerQueued(url, depth, parent);
  }

  /* Lowers a URL waiting in its host queue; null if it is not waiting there at a greater depth. */
  private CrawlUrl lowerQueued(String url, int depth, String parent) {
    CrawlUrl old = outstanding.get(url);
    Host h = old == null || old.depth() <= depth ? null : hosts.get(UrlNormalizer.hostKey(url));
    if (h == null) {
      return null;
    }
    CrawlUrl lowered = null;
    // rebuild in place: rare (only a strictly shorter path), O(host queue)
    for (int i = h.queue.size(); i > 0; i--) {
      CrawlUrl c = h.queue.pollFirst();
      if (lowered == null && c.url().equals(url)) {
        c = new CrawlUrl(url, depth, parent, c.attempts(), c.seq());
        lowered = c;
      }
      h.queue.addLast(c);
    }
    if (lowered == null) {
      return null; // handed out already: in flight or waiting for its commit
    }
    outstanding.put(url, lowered);
    return lowered;
  }

  /**
   * Claims a redirect target that the fetching strand follows at once: marks it seen and
   * outstanding (so a checkpoint keeps it until its page is committed) without queueing it.
   *
   * @return the claimed entry, or null if it was seen already
   */
  public synchronized CrawlUrl claim(String url, int depth, String parent) {
    if (router != null) {
      return null; // fetched as its own page by its partition's owner: the caller's found() routes it there
    }
    int id = graph() ? graph.id(url) : -1;
    if (id > 0 && graph.state(id) != DepthGraph.DEFERRED) {
      return null;
    }
    if (!seen.add(url) && id <= 0) {
      return null;
    }
    CrawlUrl c = new CrawlUrl(url, depth, parent, 0, id > 0 ? id : ++seq);
    outstanding.put(url, c);
    node(c, DepthGraph.TAKEN);
    return c;
  }

  /* Records a node in the graph (dropping the graph if its sequence number does not fit). */
  private void node(CrawlUrl c, byte state) {
    if (graph() && graph.id(c.url()) <= 0) {
      seen.charge(DepthGraph.NODE_BYTES);
    }
    if (graph() && !graph.put(c.seq(), c.url(), c.parent(), c.depth(), state)) {
      graph = null;
    }
  }

  /**
   * Restores a completed page from a journal: seen, with its sequence number and depth.
   *
   * @param c the page as last journaled
   */
  public synchronized void restoreCompleted(CrawlUrl c) {
    seen.add(c.url());
    seq = Math.max(seq, c.seq());
    node(c, DepthGraph.TAKEN);
  }

  /** Restores a URL remembered beyond the depth limit from a journal. */
  public synchronized void restoreDeferred(CrawlUrl c) {
    seq = Math.max(seq, c.seq());
    node(c, DepthGraph.DEFERRED);
  }

  /**
   * Restores a page's links from a journal.
   *
   * @param links the page's sequence number, then its targets' (negated: a link that keeps the depth)
   */
  public synchronized void restoreLinks(long[] links) {
    if (!graph() || links.length < 2 || graph.id(urlOrNull(links[0])) <= 0) {
      return;
    }
    int[] t = new int[links.length - 1];
    int n = 0;
    for (int i = 1; i < links.length; i++) {
      long abs = Math.abs(links[i]);
      if (abs < graph.limit() && graph.url((int) abs) != null) {
        t[n++] = (int) links[i];
      }
    }
    graph.link((int) links[0], java.util.Arrays.copyOf(t, n));
    seen.charge((long) DepthGraph.LINK_BYTES * n);
  }

  private String urlOrNull(long id) {
    return id > 0 && id < graph.limit() && graph.url((int) id) != null ? graph.url((int) id) : "";
  }

  /** Forgets completed URLs (their commit is in the journal). */
  public synchronized void completed(java.util.Collection<String> urls) {
    for (String u : urls) {
      outstanding.remove(u);
    }
    if (router != null && !urls.isEmpty()) {
      router.completed(urls);
    }
  }

  /**
   * Where a frontier that is one partition of a crawl across machines sends what it finds: every
   * offered or claimed URL goes to the router (which delivers it to the owner of its host's partition, maybe
   * this node, through {@link #enqueue}), and completions are reported once journaled.
   * Called with the frontier's lock held: implementations hand the work to another thread.
   */
  public interface Router {
    /** A URL offered to this frontier: route it to its partition's owner instead of queueing it here. */
    void route(String url, int depth, String parent);

    /**
     * The links of a page fetched here (or its redirect target): the router keeps them with the
     * page, routes those within {@link #maxDepth()} to their partitions' owners, and routes them
     * again whenever the page's depth drops later (which is what makes a cluster's depths exact).
     *
     * @param from the page, as handed out
     * @param targets normalized URLs in scope (the depth limit aside)
     * @param step 1 for links, 0 for targets that keep the page's depth
     * @param parent the URL the targets were found on
     */
    void found(CrawlUrl from, List<String> targets, int step, String parent);

    /** URLs whose outcome is now in the journal. */
    void completed(java.util.Collection<String> urls);
  }

  /** @return the depth limit: links found beyond it are remembered, not queued */
  public int maxDepth() {
    return maxDepth;
  }

  /**
   * Routes offered URLs through {@code r} from now on (see {@link Router}); set before the crawl starts.
   *
   * @param r the router
   */
  public synchronized void router(Router r) {
    this.router = Objects.requireNonNull(r, "r");
  }

  /**
   * The state a journal checkpoint writes.
   *
   * @param completed URLs seen and no longer outstanding
   * @param outstanding URLs queued, in flight or waiting for their commit
   * @param nodes the completed URLs the link graph knows, with sequence number and depth
   * @param deferred URLs remembered beyond the depth limit
   * @param links every page's links: its sequence number, then its targets'
   */
  public record Checkpoint(List<String> completed, List<CrawlUrl> outstanding, Map<String, CrawlUrl> nodes,
      List<CrawlUrl> deferred, List<long[]> links) {}

  /** @return the checkpoint state, or null once the seen-set is a Bloom filter (no URL list) */
  public synchronized Checkpoint checkpoint() {
    Iterable<String> all = seen.exactUrls();
    if (all == null) {
      return null;
    }
    List<String> done = new ArrayList<>();
    Map<String, CrawlUrl> nodes = new HashMap<>();
    for (String u : all) {
      if (!outstanding.containsKey(u)) {
        done.add(u);
        int id = graph() ? graph.id(u) : -1;
        if (id > 0) {
          nodes.put(u, new CrawlUrl(u, graph.depth(id), graph.parent(id), 0, id));
        }
      }
    }
    List<CrawlUrl> deferred = new ArrayList<>();
    List<long[]> links = new ArrayList<>();
    List<CrawlUrl> open = new ArrayList<>(outstanding.values());
    if (graph()) {
      for (int i = 1; i < graph.limit(); i++) {
        String u = graph.url(i);
        if (u == null) {
          continue;
        }
        if (graph.state(i) == DepthGraph.DEFERRED) {
          deferred.add(new CrawlUrl(u, graph.depth(i), graph.parent(i), 0, i));
        }
        int[] out = graph.out(i);
        if (out.length > 0) {
          long[] l = new long[out.length + 1];
          l[0] = i;
          for (int k = 0; k < out.length; k++) {
            l[k + 1] = out[k];
          }
          links.add(l);
        }
      }
      // in flight or awaiting a commit: journal their current depth (a drop since they were handed out)
      for (int k = 0; k < open.size(); k++) {
        CrawlUrl c = open.get(k);
        int id = graph.id(c.url());
        if (id > 0 && graph.depth(id) < c.depth()) {
          open.set(k, new CrawlUrl(c.url(), graph.depth(id), graph.parent(id), c.attempts(), c.seq()));
        }
      }
    }
    return new Checkpoint(done, open, nodes, deferred, links);
  }

  /** Marks a URL seen without queueing it (resume: completed pages). */
  public synchronized void markSeen(String url) {
    seen.add(url);
  }

  /** Queues a URL again or from a journal, marking it seen. */
  public synchronized void enqueue(CrawlUrl c) {
    seen.add(c.url());
    outstanding.putIfAbsent(c.url(), c);
    seq = Math.max(seq, c.seq());
    node(c, DepthGraph.QUEUED);
    Host h = hosts.computeIfAbsent(UrlNormalizer.hostKey(c.url()), this::newHost);
    h.queue.addLast(c);
    queued++;
    if (h.state == State.FAILED) {
      h.state = State.NEW;
      h.robotsAttempts = 0;
    }
    active.add(h);
    place(h, lastNow);
  }

  private Host newHost(String key) {
    Host h = new Host(key, ++hostIds);
    h.delayNanos = politeness.delay().toNanos();
    return h;
  }

  /** @return true if {@code url} was seen */
  public synchronized boolean seen(String url) {
    return seen.contains(url);
  }

  /**
   * Hands out the next piece of work the gates allow now.
   *
   * @param now {@link System#nanoTime()}
   * @return the work, or null if none is ready now
   */
  public synchronized Work next(long now) {
    lastNow = now;
    while (!timed.isEmpty() && now - timed.first().readyAt >= 0) {
      place(timed.first(), now);
    }
    for (;;) {
      Host best = openIps.isEmpty() ? null : openIps.first().ready.first();
      if (best != null && now - best.readyAt < 0) {
        // placed with an older clock reading: not due yet after all
        unplace(best);
        best.where = Where.TIMED;
        timed.add(best);
        continue;
      }
      Host h = !newHosts.isEmpty() && resolving < DEFAULT_MAX_RESOLVING ? newHosts.iterator().next() : null;
      if (h != null && (best == null || order != Order.BFS || h.queue.isEmpty() || h.queue.peekFirst().seq() < best.rank
          || resolving + awaitingRobots < DEFAULT_RESOLVE_AHEAD)) {
        unplace(h);
        h.state = State.RESOLVING;
        resolving++;
        return new Work(WorkKind.RESOLVE, h.key, null, null);
      }
      if (best == null) {
        return null;
      }
      if (best.state == State.NEEDS_ROBOTS || best.state == State.ROBOTS_WAIT) {
        if (best.state == State.NEEDS_ROBOTS) {
          awaitingRobots--;
        }
        best.state = State.ROBOTS;
        best.robotsAttempts++;
        start(best, now);
        return new Work(WorkKind.ROBOTS, best.key, null, best.address);
      }
      CrawlUrl u = take(best);
      queued--;
      taken(u);
      start(best, now);
      if (best.queue.isEmpty() && best.inFlight == 0) {
        active.remove(best);
      }
      return new Work(WorkKind.FETCH, best.key, u, best.address);
    }
  }

  /* Takes the host out of whichever index holds it. */
  private void unplace(Host h) {
    switch (h.where) {
      case NEW:
        newHosts.remove(h);
        break;
      case TIMED:
        timed.remove(h);
        break;
      case READY: {
        Ip ip = h.ip;
        closeIp(ip);
        ip.ready.remove(h);
        openIp(ip);
        break;
      }
      default:
        break;
    }
    h.where = Where.NONE;
  }

  /* Puts the host where its state and gates say it belongs (see the implementation notes). */
  private void place(Host h, long now) {
    unplace(h);
    if (h.state == State.NEW) {
      if (active.contains(h)) {
        h.where = Where.NEW;
        newHosts.add(h);
      }
      return;
    }
    boolean robots = h.state == State.NEEDS_ROBOTS || h.state == State.ROBOTS_WAIT;
    boolean fetch = h.state == State.READY && !h.queue.isEmpty();
    if ((!robots && !fetch) || h.inFlight >= politeness.perHostConcurrency() || h.ip == null) {
      return;
    }
    h.readyAt = h.backoffUntil - h.nextStart > 0 ? h.backoffUntil : h.nextStart;
    if (h.readyAt - now > 0) {
      h.where = Where.TIMED;
      timed.add(h);
      return;
    }
    if (robots && h.queue.isEmpty()) {
      h.rank = Long.MIN_VALUE + ++robotsTickets; // no page waits for it: first come
    } else if (order == Order.BFS) {
      h.rank = h.queue.peekFirst().seq();
    } else if (order == Order.DFS) {
      h.rank = -h.queue.peekLast().seq();
    } else {
      h.rank = random.nextLong() >>> 2;
    }
    Ip ip = h.ip;
    closeIp(ip);
    ip.ready.add(h);
    h.where = Where.READY;
    openIp(ip);
  }

  private void closeIp(Ip ip) {
    if (ip.open) {
      openIps.remove(ip);
      ip.open = false;
    }
  }

  private void openIp(Ip ip) {
    if (!ip.ready.isEmpty() && ip.inFlight < politeness.perIpConcurrency()) {
      ip.openRank = ip.ready.first().rank;
      ip.open = true;
      openIps.add(ip);
    }
  }

  private CrawlUrl take(Host h) {
    switch (order) {
      case DFS:
        return h.queue.pollLast();
      case RANDOM: {
        int i = random.nextInt(h.queue.size());
        if (i == 0) {
          return h.queue.pollFirst();
        }
        // rotate i entries to the back, then take the head: O(i), rare on short host queues
        for (int k = 0; k < i; k++) {
          h.queue.addLast(h.queue.pollFirst());
        }
        return h.queue.pollFirst();
      }
      default:
        return h.queue.pollFirst();
    }
  }

  private void start(Host h, long now) {
    h.inFlight++;
    Ip ip = h.ip;
    closeIp(ip);
    ip.inFlight++;
    openIp(ip);
    h.nextStart = now + h.delayNanos;
    place(h, now);
  }

  /**
   * @param now {@link System#nanoTime()}
   * @return nanoseconds until a time gate opens for some pending work, or
   *     {@link Long#MAX_VALUE} if only a completion can free work
   */
  public synchronized long nanosUntilReady(long now) {
    if ((!newHosts.isEmpty() && resolving < DEFAULT_MAX_RESOLVING) || !openIps.isEmpty()) {
      return 0;
    }
    // hosts held by a concurrency cap wait for a completion (release re-places them), not for time
    return timed.isEmpty() ? Long.MAX_VALUE : Math.max(0, timed.first().readyAt - now);
  }

  /**
   * Says what the crawl waits for when no work is ready: the host whose gate opens first and
   * why it is shut.
   *
   * @param now {@link System#nanoTime()}
   * @return e.g. {@code robots.txt retry of http://a.test:80 in 28 s}, or null if work is ready
   *     or nothing waits on time (DNS lookups or fetches in flight)
   */
  public synchronized String waitingFor(long now) {
    if (!openIps.isEmpty() || timed.isEmpty()) {
      return resolving > 0 ? "DNS of " + resolving + " host" + (resolving == 1 ? "" : "s") : null;
    }
    Host h = timed.first();
    long secs = Math.max(0, (h.readyAt - now + 999_999_999L) / 1_000_000_000L);
    String in = " in " + secs + " s";
    if (h.state == State.ROBOTS_WAIT) {
      return "robots.txt retry of " + h.key + in;
    }
    if (h.backoffUntil - now > 0 && h.backoffUntil - h.nextStart >= 0) {
      return "back-off of " + h.key + " (" + h.failures + " failure" + (h.failures == 1 ? "" : "s") + ")" + in;
    }
    return "host delay of " + h.key + in;
  }

  /**
   * Adds a URL behind what its host has queued in every order (DFS takes the newest first, so a
   * plain offer would put it ahead): for sitemaps listed in robots.txt, which must not overtake
   * the page that led to the host.
   *
   * @return the queued entry, or null if it was seen already
   */
  public synchronized CrawlUrl offerBehind(String url, int depth, String parent) {
    CrawlUrl c = offer(url, depth, parent);
    if (c != null && order == Order.DFS) {
      Host h = hosts.get(UrlNormalizer.hostKey(url));
      h.queue.removeLastOccurrence(c);
      h.queue.addFirst(c);
      place(h, lastNow);
    }
    return c;
  }

  /** Records the host's address after RESOLVE; robots.txt comes next. */
  public synchronized void resolved(String hostKey, InetAddress address) {
    Host h = hosts.get(hostKey);
    if (h.state == State.RESOLVING) {
      resolving--;
    }
    h.address = address;
    h.ip = ips.computeIfAbsent(address, a -> new Ip(ips.size() + 1L));
    if (h.state != State.NEEDS_ROBOTS) {
      awaitingRobots++;
    }
    h.state = State.NEEDS_ROBOTS;
    place(h, lastNow);
  }

  /**
   * Fails a host for good (DNS failure, blocked address, robots.txt unreachable too often).
   *
   * @return its queued URLs, removed, for the caller to record as failed
   */
  public synchronized List<CrawlUrl> fail(String hostKey) {
    Host h = hosts.get(hostKey);
    if (h.state == State.RESOLVING) {
      resolving--;
    } else if (h.state == State.NEEDS_ROBOTS) {
      awaitingRobots--;
    }
    h.state = State.FAILED;
    List<CrawlUrl> drained = new ArrayList<>(h.queue);
    drained.forEach(this::taken);
    queued -= drained.size();
    h.queue.clear();
    if (h.inFlight == 0) {
      active.remove(h);
    }
    place(h, lastNow);
    return drained;
  }

  /**
   * Records robots.txt rules after ROBOTS succeeded (or was 4xx: allow all).
   *
   * @param allowed the rules
   * @param crawlDelay the robots Crawl-delay, or zero; capped at maxCrawlDelay
   */
  public synchronized void robotsReady(String hostKey, Predicate<String> allowed, Duration crawlDelay) {
    Host h = hosts.get(hostKey);
    h.allowed = Objects.requireNonNull(allowed, "allowed");
    long delay = Math.max(politeness.delay().toNanos(), Math.min(crawlDelay.toNanos(), politeness.maxCrawlDelay().toNanos()));
    h.nextStart += delay - h.delayNanos;
    h.delayNanos = delay;
    h.state = State.READY;
    h.failures = 0;
    place(h, lastNow);
  }

  /**
   * Records that robots.txt was unreachable (5xx, 429, network): the host is fully disallowed
   * until {@code retryIn} passes, then robots.txt is fetched again.
   *
   * @return the number of attempts so far
   */
  public synchronized int robotsUnreachable(String hostKey, Duration retryIn) {
    Host h = hosts.get(hostKey);
    h.state = State.ROBOTS_WAIT;
    h.backoffUntil = System.nanoTime() + retryIn.toNanos();
    place(h, lastNow);
    return h.robotsAttempts;
  }

  /** @return the host's robots.txt rules (allow-all until fetched) */
  public synchronized Predicate<String> robots(String hostKey) {
    Host h = hosts.get(hostKey);
    return h == null ? u -> true : h.allowed;
  }

  /** @return the host's address if resolved, else null */
  public synchronized InetAddress address(String hostKey) {
    Host h = hosts.get(hostKey);
    return h == null ? null : h.address;
  }

  /** @return true if the host's robots.txt is known (fetched, or 4xx) */
  public synchronized boolean robotsKnown(String hostKey) {
    Host h = hosts.get(hostKey);
    return h != null && h.state == State.READY;
  }

  /**
   * Releases the host and IP slot of a ROBOTS or FETCH work item; the host's next request
   * waits its delay from now as well (so the server sees the delay between one response and
   * the next request even when connecting took a while).
   *
   * @param now {@link System#nanoTime()}
   */
  public synchronized void release(String hostKey, long now) {
    Host h = hosts.get(hostKey);
    h.inFlight--;
    if (now + h.delayNanos - h.nextStart > 0) {
      h.nextStart = now + h.delayNanos;
    }
    lastNow = now;
    Ip ip = h.ip;
    closeIp(ip);
    ip.inFlight--;
    openIp(ip);
    if (h.queue.isEmpty() && h.inFlight == 0 && h.state != State.NEEDS_ROBOTS && h.state != State.ROBOTS_WAIT) {
      active.remove(h);
    } else {
      active.add(h);
    }
    place(h, now);
  }

  /** Records a successful response: the host's back-off resets. */
  public synchronized void succeeded(String hostKey) {
    hosts.get(hostKey).failures = 0;
  }

  /**
   * Backs the host off after 429/503 or a connection failure.
   *
   * @param retryAfter what the server asked for, or null
   * @return the back-off applied
   */
  public synchronized Duration backOff(String hostKey, Duration retryAfter) {
    Host h = hosts.get(hostKey);
    h.failures++;
    long base = politeness.backoffBase().toNanos();
    long max = politeness.backoffMax().toNanos();
    long exp = h.failures >= 40 ? max : Math.min(max, base << Math.min(h.failures - 1, 40));
    long wait = (long) (exp * (0.5 + random.nextDouble() * 0.5));
    if (retryAfter != null) {
      wait = Math.max(wait, retryAfter.toNanos());
    }
    wait = Math.min(wait, max);
    h.backoffUntil = Math.max(h.backoffUntil, System.nanoTime() + wait);
    place(h, lastNow);
    return Duration.ofNanos(wait);
  }

  private void taken(CrawlUrl u) {
    int id = graph() ? graph.id(u.url()) : -1;
    if (id > 0) {
      graph.state(id, DepthGraph.TAKEN);
    }
  }

  /** Puts a URL back at the front of its host queue (a retry after back-off). */
  public synchronized void retry(CrawlUrl c) {
    int id = graph() ? graph.id(c.url()) : -1;
    if (id > 0) {
      graph.state(id, DepthGraph.QUEUED);
      if (graph.depth(id) < c.depth()) {
        c = new CrawlUrl(c.url(), graph.depth(id), graph.parent(id), c.attempts(), c.seq());
        outstanding.put(c.url(), c);
      }
    }
    Host h = hosts.get(UrlNormalizer.hostKey(c.url()));
    if (order == Order.DFS) {
      h.queue.addLast(c);
    } else {
      h.queue.addFirst(c);
    }
    queued++;
    active.add(h);
    place(h, lastNow);
  }

  /** @return URLs queued (not yet handed out) */
  public synchronized long queued() {
    return queued;
  }

  /** @return true if no host has queued or pending work (in-flight work may remain) */
  public synchronized boolean isIdle() {
    for (Host h : active) {
      if (h.state != State.FAILED && (h.state != State.READY || !h.queue.isEmpty())) {
        return false;
      }
    }
    return true;
  }

  /** @return the URLs still queued, for a journal checkpoint */
  public synchronized List<CrawlUrl> pending() {
    List<CrawlUrl> out = new ArrayList<>();
    for (Host h : hosts.values()) {
      out.addAll(h.queue);
    }
    return out;
  }

  /** @return hosts known */
  public synchronized int hostCount() {
    return hosts.size();
  }

  /** @return the seen-set's description */
  public synchronized String seenDescription() {
    return seen.describe();
  }

  /** @return true once the seen-set is a Bloom filter */
  public synchronized boolean seenIsBloom() {
    return seen.isBloom();
  }

  /** @return URLs in the seen-set */
  public synchronized long seenCount() {
    return seen.size();
  }

  /**
   * @param limit at most this many hosts, busiest first
   * @return the per-host queue state, for metrics
   */
  public synchronized List<HostStats> hostStats(int limit) {
    if (limit <= 0) {
      return List.of();
    }
    long now = System.nanoTime();
    List<Host> all = new ArrayList<>(hosts.values());
    all.sort((a, b) -> Integer.compare(b.queue.size() + b.inFlight, a.queue.size() + a.inFlight));
    Map<String, HostStats> out = new LinkedHashMap<>();
    for (Host h : all.subList(0, Math.min(limit, all.size()))) {
      out.put(h.key, new HostStats(h.key, h.state.name().toLowerCase(java.util.Locale.ROOT), h.queue.size(), h.inFlight,
          h.address == null ? null : h.address.getHostAddress(), Math.max(0, (h.backoffUntil - now) / 1_000_000),
          h.delayNanos / 1_000_000));
    }
    return new ArrayList<>(out.values());
  }
}
