package io.krill.testweb;

import io.krill.fibers.Checks;
import java.time.Duration;

/**
 * What the synthetic web's robots.txt and sitemaps say: the disallowed and sitemap-only pages,
 * the hosts whose robots.txt is missing or failing, the Crawl-delay line and the sitemap line.
 * Each component is checked when the record is made; {@link #check()} checks that the missing
 * and failing shares add up to at most 1.
 *
 * @param disallowedRate share of pages under /private/, 0..1
 * @param sitemapOnlyRate share of pages listed only in the sitemap, 0..1
 * @param robotsMissingRate share of hosts without robots.txt, 0..1
 * @param robotsErrorRate share of hosts whose robots.txt answers 503, 0..1
 * @param crawlDelay the Crawl-delay of robots.txt, 0 (no line) or whole milliseconds 1ms..60s
 * @param sitemaps whether robots.txt lists a sitemap
 */
public record WebRobots(double disallowedRate, double sitemapOnlyRate, double robotsMissingRate, double robotsErrorRate,
    Duration crawlDelay, boolean sitemaps) {
  /** Default share of pages under {@code /private/}, which robots.txt disallows. */
  public static final double DEFAULT_DISALLOWED_RATE = 0.1;
  /** Default share of pages no page links to: only the sitemap lists them. */
  public static final double DEFAULT_SITEMAP_ONLY_RATE = 0.1;
  /** Default share of hosts without robots.txt (404: everything allowed). */
  public static final double DEFAULT_ROBOTS_MISSING_RATE = 0.1;
  /** Default share of hosts whose robots.txt answers 503 (RFC 9309: nothing allowed). */
  public static final double DEFAULT_ROBOTS_ERROR_RATE = 0.05;
  /** Default Crawl-delay in robots.txt; 0 leaves the line out. */
  public static final Duration DEFAULT_CRAWL_DELAY = Duration.ofMillis(300);
  /** Default: robots.txt lists a sitemap. */
  public static final boolean DEFAULT_SITEMAPS = true;

  /** The default robots.txt and sitemaps. */
  public static final WebRobots DEFAULTS = new WebRobots(DEFAULT_DISALLOWED_RATE, DEFAULT_SITEMAP_ONLY_RATE,
      DEFAULT_ROBOTS_MISSING_RATE, DEFAULT_ROBOTS_ERROR_RATE, DEFAULT_CRAWL_DELAY, DEFAULT_SITEMAPS);

  /** Checks each component on its own. */
  public WebRobots {
    Checks.rate("disallowedRate", disallowedRate);
    Checks.rate("sitemapOnlyRate", sitemapOnlyRate);
    Checks.rate("robotsMissingRate", robotsMissingRate);
    Checks.rate("robotsErrorRate", robotsErrorRate);
    KnobChecks.wholeMillis("crawlDelay", crawlDelay, Duration.ZERO, Duration.ofSeconds(60));
  }

  /** Checks that the missing and failing robots.txt shares add up to at most 1. */
  void check() {
    KnobChecks.sumAtMostOne("robotsMissingRate + robotsErrorRate", robotsMissingRate + robotsErrorRate);
  }
}
