package io.krill.testweb;

import crawlercommons.filters.basic.BasicURLNormalizer;
import io.krill.fibers.Checks;
import java.net.URI;
import java.util.ArrayDeque;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The exact outcome of crawling the synthetic web within a {@link Scope}: every URL the crawl
 * requests over HTTP with its depth and expected answer, the in-scope URLs it must never request
 * (robots.txt forbids them) or cannot (their host does not resolve), and the hosts whose
 * robots.txt it fetches. URLs are absolute and normalized the way crawler-commons'
 * {@code BasicURLNormalizer} does (with the scope's removed query parameters).
 *
 * <p>It is computed from the model, without the network: a breadth-first search from the
 * seeds that follows what each URL would answer. With {@link Scope#maxPages} below
 * {@link #urls()}'s size, which subset is fetched depends on the crawl order; then
 * {@link #expectedFetches()} says how many, and every fetched URL is one of {@link #urls()}.
 *
 * <p>Threading: immutable and thread-safe.
 */
public final class GroundTruth {
  /* Implementation notes
   *
   * A breadth-first search for smallest depths: links add one to the depth and go to the back
   * of the deque, redirects keep the depth and go to the front. A host is "contacted"
   * (robots.txt fetched) when its first URL leaves the deque; its sitemap's URLs then enter at
   * depth 1, which may be less than the depth of URLs already expanded: such a URL is expanded
   * again with its smaller depth (its fetch is not counted twice). Depths only shrink, so the
   * search ends, with every URL at its smallest depth.
   *
   * Without a depth limit the calendar, the deep path and the session ids (unless the scope
   * removes "sid") never end; TRAP_LIMIT fetches of one trap on one host (deep paths grow by a segment per fetch) stop the search with
   * an exception that says how to bound it.
   */

  static final int TRAP_LIMIT = 1_000;

  /** What one request of the crawl answers. */
  public enum Outcome {
    /** 200 with HTML and links. */
    OK(200),
    /** 429 with Retry-After first ({@code throttleCount} times), then 200 with HTML and links. */
    THROTTLED(200),
    /** 404. */
    NOT_FOUND(404),
    /** 500, every time. */
    SERVER_ERROR(500),
    /** The connection is reset: no status. */
    RESET(0),
    /** 200 whose body drips slowly: a crawler's minimum-speed guard should abort it. */
    SLOW_DRIP(200),
    /** 301 or 302: the {@code location} is requested next (if in scope). */
    REDIRECT(301),
    /** 200 with a gzip body that inflates to {@code gzipBombBytes}: a crawler's bomb guard should stop it. */
    GZIP_BOMB(200);

    private final int status;

    Outcome(int status) {
      this.status = status;
    }

    /** @return the usual status code, 0 for a reset */
    public int status() {
      return status;
    }
  }

  /**
   * One URL the crawl requests.
   *
   * @param url the normalized absolute URL
   * @param depth its smallest depth
   * @param outcome what it answers
   * @param status the final status code (0 for a reset)
   * @param trap the trap it belongs to, or null
   * @param location the normalized redirect target, or null
   */
  public record Fetch(String url, int depth, Outcome outcome, int status, Trap trap, String location) {}

  private final Scope scope;
  private final Map<String, Fetch> fetches;
  private final Set<String> disallowed;
  private final Set<String> unresolvable;
  private final Set<String> hostsContacted;

  private GroundTruth(Scope scope, Map<String, Fetch> fetches, Set<String> disallowed, Set<String> unresolvable,
      Set<String> hostsContacted) {
    this.scope = scope;
    this.fetches = Collections.unmodifiableMap(fetches);
    this.disallowed = Collections.unmodifiableSet(disallowed);
    this.unresolvable = Collections.unmodifiableSet(unresolvable);
    this.hostsContacted = Collections.unmodifiableSet(hostsContacted);
  }

  /** @return the scope this was computed for */
  public Scope scope() {
    return scope;
  }

  /** @return every URL the crawl requests, by URL, in breadth-first order (robots.txt and sitemaps not included) */
  public Map<String, Fetch> fetches() {
    return fetches;
  }

  /** @return the URLs the crawl requests, in breadth-first order */
  public Set<String> urls() {
    return fetches.keySet();
  }

  /** @return the URLs that answer a page with links (outcome OK or THROTTLED) */
  public Set<String> pages() {
    Set<String> out = new LinkedHashSet<>();
    for (Fetch f : fetches.values()) {
      if (f.outcome == Outcome.OK || f.outcome == Outcome.THROTTLED) {
        out.add(f.url);
      }
    }
    return out;
  }

  /** @return the URLs with {@code outcome} */
  public Set<String> urls(Outcome outcome) {
    Set<String> out = new LinkedHashSet<>();
    for (Fetch f : fetches.values()) {
      if (f.outcome == outcome) {
        out.add(f.url);
      }
    }
    return out;
  }

  /** @return the URLs fetched per trap (traps with none are absent) */
  public Map<Trap, Integer> trapFetches() {
    Map<Trap, Integer> out = new EnumMap<>(Trap.class);
    for (Fetch f : fetches.values()) {
      if (f.trap != null) {
        out.merge(f.trap, 1, Integer::sum);
      }
    }
    return out;
  }

  /** @return the in-scope URLs the crawl meets but robots.txt forbids: never requested */
  public Set<String> disallowed() {
    return disallowed;
  }

  /** @return the in-scope URLs whose host does not resolve (NXDOMAIN, SERVFAIL, timeout): never requested */
  public Set<String> unresolvable() {
    return unresolvable;
  }

  /** @return the hosts whose robots.txt the crawl fetches */
  public Set<String> hostsContacted() {
    return hostsContacted;
  }

  /** @return how many URLs the crawl requests: all of them, or maxPages if fewer */
  public long expectedFetches() {
    return Math.min(scope.maxPages, fetches.size());
  }

  /** @return the greatest depth of a requested URL */
  public int maxDepth() {
    int max = 0;
    for (Fetch f : fetches.values()) {
      max = Math.max(max, f.depth);
    }
    return max;
  }

  @Override
  public String toString() {
    return "GroundTruth{" + fetches.size() + " fetches (" + pages().size() + " pages), " + disallowed.size() + " disallowed, "
        + unresolvable.size() + " unresolvable, " + hostsContacted.size() + " hosts, traps " + trapFetches() + "}";
  }

  // ---- the search ----

  private record Node(String url, String host, String target, int depth) {}

  static GroundTruth compute(SyntheticWeb web, Scope scope, int port) {
    return new Search(web, scope, port).run();
  }

  private static final class Search {
    final SyntheticWeb web;
    final Scope scope;
    final int port;
    final BasicURLNormalizer normalizer;
    final Set<String> seedHosts = new HashSet<>();
    final Set<String> seedDomains = new HashSet<>();
    final ArrayDeque<Node> queue = new ArrayDeque<>();
    final Map<String, Integer> best = new HashMap<>();
    /** URL -> the depth it was last expanded at. */
    final Map<String, Integer> done = new HashMap<>();
    final Map<String, Fetch> fetches = new LinkedHashMap<>();
    final Set<String> disallowed = new LinkedHashSet<>();
    final Set<String> unresolvable = new LinkedHashSet<>();
    final Set<String> contacted = new LinkedHashSet<>();
    final Map<String, Integer> trapCounts = new HashMap<>();

    Search(SyntheticWeb web, Scope scope, int port) {
      this.web = web;
      this.scope = scope;
      this.port = Checks.inRange("port", port, 1, 65535);
      this.normalizer = BasicURLNormalizer.newBuilder().queryParamsToRemove(scope.removeQueryParams).build();
    }

    GroundTruth run() {
      for (String seed : scope.seeds != null ? scope.seeds : web.seedUrls(port)) {
        String url = normalize(seed);
        if (url == null) {
          throw Checks.bad("seeds", seed, "http URLs");
        }
        String host = URI.create(url).getHost();
        seedHosts.add(host);
        seedDomains.add(Scope.domainOf(host));
      }
      for (String seed : scope.seeds != null ? scope.seeds : web.seedUrls(port)) {
        offer(normalize(seed), 0, false);
      }
      while (!queue.isEmpty()) {
        Node n = queue.pollFirst();
        Integer expanded = done.get(n.url());
        if (best.get(n.url()) == n.depth() && (expanded == null || n.depth() < expanded)) {
          done.put(n.url(), n.depth());
          if (expanded == null) {
            visit(n);
          } else {
            revisit(n);
          }
        }
      }
      return new GroundTruth(scope, fetches, disallowed, unresolvable, contacted);
    }

    private void visit(Node n) {
      SyntheticWeb.Host host = web.host(n.host());
      if (host == null || host.dnsFault != null) {
        unresolvable.add(n.url());
        return;
      }
      if (contacted.add(host.name) && scope.followSitemaps && host.robots == SyntheticWeb.Robots.NORMAL
          && web.config().sitemaps() && Scope.SITEMAP_DEPTH <= scope.maxDepth) {
        for (String path : Pages.sitemapPaths(web, host)) {
          offer(normalize(SyntheticWeb.origin(host.name, port) + path), Scope.SITEMAP_DEPTH, false);
        }
      }
      if (scope.honourRobots && (host.robots == SyntheticWeb.Robots.ERROR
          || host.robots == SyntheticWeb.Robots.NORMAL && n.target().startsWith(SyntheticWeb.PRIVATE_PREFIX))) {
        disallowed.add(n.url());
        return;
      }
      Resource r = web.resolve(host, n.target());
      fetches.put(n.url(), new Fetch(n.url(), n.depth(), r.kind.outcome, r.status, r.trap,
          r.location == null ? null : normalize(r.location.url(port))));
      if (r.trap != null) {
        countTrap(host, r.trap);
      }
      expand(n, r);
    }

    /* A URL met again at a smaller depth (through a sitemap): its depth and its links' depths shrink. */
    private void revisit(Node n) {
      Fetch f = fetches.get(n.url());
      if (f == null) {
        return; // disallowed or unresolvable: nothing was fetched, nothing follows
      }
      fetches.put(n.url(), new Fetch(f.url, n.depth(), f.outcome, f.status, f.trap, f.location));
      expand(n, web.resolve(web.host(n.host()), n.target()));
    }

    private void expand(Node n, Resource r) {
      if (r.location != null) {
        offer(normalize(r.location.url(port)), n.depth(), true);
      }
      if (r.hasContent() && n.depth() < scope.maxDepth) {
        for (Link l : r.links) {
          offer(normalize(l.url(port)), n.depth() + 1, false);
        }
      }
    }

    private void offer(String url, int depth, boolean front) {
      if (url == null) {
        return;
      }
      Integer known = best.get(url);
      if (known != null && known <= depth) {
        return;
      }
      URI uri = URI.create(url);
      String host = uri.getHost();
      if (!hostAllowed(host) || !scope.patternsAllow(url)) {
        return;
      }
      best.put(url, depth);
      String target = uri.getRawPath() + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
      Node n = new Node(url, host, target, depth);
      if (front) {
        queue.addFirst(n);
      } else {
        queue.addLast(n);
      }
    }

    private boolean hostAllowed(String host) {
      switch (scope.hosts) {
        case SAME_HOST:
          return seedHosts.contains(host);
        case SAME_DOMAIN:
          return seedDomains.contains(Scope.domainOf(host));
        case ALLOW_LIST:
          for (String d : scope.allowDomains) {
            if (host.equals(d) || host.endsWith("." + d)) {
              return true;
            }
          }
          return false;
        default:
          return true;
      }
    }

    private void countTrap(SyntheticWeb.Host host, Trap trap) {
      int count = trapCounts.merge(host.name + " " + trap, 1, Integer::sum);
      if (count > TRAP_LIMIT && scope.maxDepth == Scope.UNLIMITED) {
        throw new IllegalArgumentException("maxDepth: unlimited (expected: a depth limit, because the " + trap.name()
            .toLowerCase(Locale.ROOT) + " trap on " + host.name + " is infinite: set Scope.maxDepth, exclude "
            + SyntheticWeb.trapEntry(trap) + " or disable the trap)");
      }
    }

    private String normalize(String url) {
      return scope.removeQueryParams.isEmpty() && url.startsWith("http://") ? url : normalizer.filter(url);
    }
  }
}
