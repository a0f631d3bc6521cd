package io.krill.crawler.frontier;

import java.util.Objects;

/**
 * A URL in the frontier: normalized text, link depth from its seed, the page it was found on,
 * how often it was retried, and its discovery sequence number (the crawl order's key).
 * Immutable.
 *
 * @param url the normalized URL
 * @param depth links from the seed (seeds are 0)
 * @param parent the URL it was found on, or null for a seed
 * @param attempts fetches tried so far (retries after 429/503)
 * @param seq discovery order, unique per crawl
 */
public record CrawlUrl(String url, int depth, String parent, int attempts, long seq) {
  /** Checks the fields. */
  public CrawlUrl {
    Objects.requireNonNull(url, "url");
  }

  /** @return the same URL with one more attempt */
  public CrawlUrl retried() {
    return new CrawlUrl(url, depth, parent, attempts + 1, seq);
  }
}
