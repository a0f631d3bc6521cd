package io.krill.crawler;

import io.krill.crawler.fetch.RedirectCheck;
import io.krill.crawler.frontier.CrawlUrl;
import io.krill.crawler.frontier.Frontier;
import io.krill.crawler.frontier.Scope;
import io.krill.crawler.frontier.UrlNormalizer;
import io.krill.crawler.output.CrawlStats;
import io.krill.fibers.Fiber;
import io.krill.fibers.Suspendable;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Which redirects of one page fetch the crawler follows: a target must normalize, be in scope,
 * be on the page's host (another host's target is queued for that host instead), be allowed by
 * robots.txt and not be seen yet; a followed hop waits the host's delay first, as any request
 * to the host does. Collects what it queued and claimed, for the page's commit.
 *
 * <p>Threading: used by the one strand that fetches the page; may suspend.
 */
final class RedirectPolicy implements RedirectCheck {
  private final Frontier frontier;
  private final Scope scope;
  private final CrawlStats stats;
  private final Duration delay;
  private final CrawlUrl page;
  private final String hostKey;
  private final List<Frontier.Found> found = new ArrayList<>();
  private final List<CrawlUrl> claimed = new ArrayList<>();

  RedirectPolicy(Frontier frontier, Scope scope, CrawlStats stats, Duration delay, CrawlUrl page, String hostKey) {
    this.frontier = frontier;
    this.scope = scope;
    this.stats = stats;
    this.delay = delay;
    int d = frontier.depth(page.url());
    this.page = d >= 0 && d < page.depth() ? new CrawlUrl(page.url(), d, page.parent(), page.attempts(), page.seq()) : page;
    this.hostKey = hostKey;
  }

  @Override
  public String refusal(URI from, URI to) throws Suspendable {
    String n = UrlNormalizer.normalize(to.toString());
    if (n == null) {
      return "invalid target";
    }
    if (scope.refusal(n, page.depth()) != null) {
      return "out of scope";
    }
    if (!UrlNormalizer.hostKey(n).equals(hostKey)) {
      return queueForItsHost(n, from);
    }
    if (!frontier.robots(hostKey).test(n)) {
      stats.robotsDisallowed.increment();
      return "disallowed by robots.txt";
    }
    return claim(n, from);
  }

  /* A redirect target keeps the page's depth: a link of weight 0 in the frontier's graph. */
  private String queueForItsHost(String target, URI from) {
    Frontier.Found f = frontier.found(page, List.of(target), 0, from.toString());
    stats.queued.add(f.added());
    found.add(f);
    return "other host: queued";
  }

  private String claim(String target, URI from) throws Suspendable {
    CrawlUrl c = frontier.claim(target, page.depth(), from.toString());
    // records the link (and lowers the target if it was seen on a longer path)
    found.add(frontier.found(page, List.of(target), 0, from.toString()));
    if (c == null) {
      return "seen";
    }
    claimed.add(c);
    if (!delay.isZero()) {
      Fiber.sleep(delay);
    }
    return null;
  }

  /** @return what the redirect targets changed in the frontier, for the journal */
  List<Frontier.Found> found() {
    return found;
  }

  /** @return the page, at the depth the frontier knows for it now */
  CrawlUrl page() {
    return page;
  }

  /** @return the same-host URLs followed, claimed in the seen-set */
  List<CrawlUrl> claimed() {
    return claimed;
  }
}
