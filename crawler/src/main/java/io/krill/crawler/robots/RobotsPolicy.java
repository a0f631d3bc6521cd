package io.krill.crawler.robots;

import crawlercommons.robots.BaseRobotRules;
import crawlercommons.robots.SimpleRobotRulesParser;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Predicate;

/**
 * Turns a robots.txt fetch into a decision, following RFC 9309 and parsing with
 * crawler-commons' {@link SimpleRobotRulesParser}:
 * <ul>
 *   <li>2xx: the rules for our product token (first {@value #MAX_ROBOTS_BYTES} bytes parsed);</li>
 *   <li>4xx other than 429 ("unavailable"): allow everything;</li>
 *   <li>429, 5xx or no response ("unreachable"): disallow everything for now; the crawler
 *       fetches robots.txt again later (RFC 9309 section 2.3.1.4 treats server errors so; a
 *       429 is a server asking us to slow down, not a missing file, so it counts as
 *       unreachable, as Google and crawler-commons' users do).</li>
 * </ul>
 * Redirects are followed by the fetcher (RFC 9309 asks for at least five hops). Stateless
 * and thread-safe.
 */
public final class RobotsPolicy {
  /** The number of robots.txt bytes parsed; RFC 9309 asks for at least 500 KiB. */
  public static final int MAX_ROBOTS_BYTES = 500 * 1024;

  /** What a robots.txt fetch means for the host. */
  public enum Kind {
    /** Rules parsed from the file. */
    RULES,
    /** No file (4xx): everything allowed. */
    ALLOW_ALL,
    /** Unreachable (5xx, 429, network): everything disallowed until fetched again. */
    UNREACHABLE
  }

  /**
   * The decision.
   *
   * @param kind what it is
   * @param allowed URL predicate (false for everything while unreachable)
   * @param crawlDelay the Crawl-delay for our agent, or zero
   * @param sitemaps Sitemap URLs listed in the file
   */
  public record Decision(Kind kind, Predicate<String> allowed, Duration crawlDelay, List<String> sitemaps) {}

  private final String agent;

  /**
   * @param agent the product token matched against User-agent lines (e.g. {@code krill})
   */
  public RobotsPolicy(String agent) {
    Objects.requireNonNull(agent, "agent");
    if (agent.isBlank()) {
      throw new IllegalArgumentException("robotsAgent: \"\" (expected: a product token)");
    }
    this.agent = agent.toLowerCase(Locale.ROOT);
  }

  /** @return the product token */
  public String agent() {
    return agent;
  }

  /**
   * @param robotsUrl the robots.txt URL (after redirects)
   * @param status the final HTTP status, or 0 if no response came
   * @param body the body, or null
   * @param contentType the Content-Type, or null
   * @return the decision
   */
  public Decision decide(String robotsUrl, int status, byte[] body, String contentType) {
    if (status >= 200 && status < 300) {
      byte[] b = body == null ? new byte[0] : body.length > MAX_ROBOTS_BYTES ? Arrays.copyOf(body, MAX_ROBOTS_BYTES) : body;
      SimpleRobotRulesParser parser = new SimpleRobotRulesParser(Long.MAX_VALUE, 5);
      BaseRobotRules rules = parser.parseContent(robotsUrl, b, contentType == null ? "text/plain" : contentType, List.of(agent));
      long delayMs = rules.getCrawlDelay();
      Duration delay = delayMs > 0 ? Duration.ofMillis(delayMs) : Duration.ZERO;
      return new Decision(Kind.RULES, rules::isAllowed, delay, List.copyOf(rules.getSitemaps()));
    }
    if (status >= 400 && status < 500 && status != 429) {
      return new Decision(Kind.ALLOW_ALL, u -> true, Duration.ZERO, List.of());
    }
    return new Decision(Kind.UNREACHABLE, u -> false, Duration.ZERO, List.of());
  }
}
