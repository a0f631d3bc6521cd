package io.krill.crawler.fetch;

import io.krill.fibers.Suspendable;
import java.net.URI;

/**
 * Decides whether {@link HttpFetcher#fetchFollowing} follows one redirect: the crawler checks
 * the target against scope, the seen-set and robots.txt here (the fetcher itself re-checks
 * DNS and address safety). Called on the fetching strand.
 */
@FunctionalInterface
public interface RedirectCheck {
  /**
   * May suspend (a robots.txt lookup).
   *
   * @param from the URL that redirected
   * @param to the target, absolute
   * @return null to follow, or why not (the fetcher stops and returns what it has)
   * @throws Suspendable never; marks that this method may suspend
   */
  String refusal(URI from, URI to) throws Suspendable;
}
