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
  private final List<CrawlUrl> queued = new ArrayList<>();
  private final List<CrawlUrl> claimed = new ArrayList<>();

  RedirectPolicy(Frontier frontier, Scope scope, CrawlStats stats, Duration delay, CrawlUrl page, String hostKey) {
    this.frontier = frontier;
    this.scope = scope;
    this.stats = stats;
    this.delay = delay;
    this.page = page;
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

  private String queueForItsHost(String target, URI from) {
    CrawlUrl c = frontier.offer(target, page.depth(), from.toString());
    if (c != null) {
      queued.add(c);
      stats.queued.increment();
    } else if ((c = frontier.lower(target, page.depth(), from.toString())) != null) {
      queued.add(c); // journaled again: replay keeps the lower depth
    }
    return "other host: queued";
  }

  private String claim(String target, URI from) throws Suspendable {
    CrawlUrl c = frontier.claim(target, page.depth(), from.toString());
    if (c == null) {
      if ((c = frontier.lower(target, page.depth(), from.toString())) != null) {
        queued.add(c); // still queued on a longer path: it waits its turn with the lower depth
      }
      return "seen";
    }
    claimed.add(c);
    if (!delay.isZero()) {
      Fiber.sleep(delay);
    }
    return null;
  }

  /** @return the other hosts' URLs queued instead of followed */
  List<CrawlUrl> queued() {
    return queued;
  }

  /** @return the same-host URLs followed, claimed in the seen-set */
  List<CrawlUrl> claimed() {
    return claimed;
  }
}
