package io.krill.testweb;

import io.krill.fibers.Checks;
import java.time.Duration;

/**
 * The faults of the synthetic web: links to missing pages and dead hosts, and the share of pages
 * that answer 500, throttle with 429, reset the connection, drip slowly or redirect. Each
 * component is checked when the record is made; {@link #check()} checks that the shares of a
 * link's or a page's fates add up to at most 1.
 *
 * @param notFoundRate share of links to missing pages, 0..1
 * @param deadHostRate share of links to hosts without DNS, 0..1
 * @param serverErrorRate share of pages answering 500, 0..1
 * @param throttleRate share of pages first answering 429, 0..1
 * @param throttleCount 429 answers before a throttled page answers 200, 1..100
 * @param retryAfter the Retry-After of a 429, whole seconds 1s..1h
 * @param resetRate share of pages whose connection is reset, 0..1
 * @param slowDripRate share of slowly dripping pages, 0..1
 * @param redirectRate share of pages redirecting (301) to another page, 0..1
 */
public record WebFaults(double notFoundRate, double deadHostRate, double serverErrorRate, double throttleRate, int throttleCount,
    Duration retryAfter, double resetRate, double slowDripRate, double redirectRate) {
  /** Default share of links that point to a missing page (404). */
  public static final double DEFAULT_NOT_FOUND_RATE = 0.03;
  /** Default share of links that point to a host with no DNS record (NXDOMAIN). */
  public static final double DEFAULT_DEAD_HOST_RATE = 0.01;
  /** Default share of pages that always answer 500. */
  public static final double DEFAULT_SERVER_ERROR_RATE = 0.02;
  /** Default share of pages that first answer 429 with Retry-After. */
  public static final double DEFAULT_THROTTLE_RATE = 0.03;
  /** Default number of 429 answers a throttled page gives before it answers 200. */
  public static final int DEFAULT_THROTTLE_COUNT = 1;
  /** Default Retry-After of a 429 answer. */
  public static final Duration DEFAULT_RETRY_AFTER = Duration.ofSeconds(1);
  /** Default share of pages whose connection is reset instead of answered. */
  public static final double DEFAULT_RESET_RATE = 0.01;
  /** Default share of pages that drip their body slowly. */
  public static final double DEFAULT_SLOW_DRIP_RATE = 0.01;
  /** Default share of pages that redirect (301) to another page. */
  public static final double DEFAULT_REDIRECT_RATE = 0.03;

  /** The default faults. */
  public static final WebFaults DEFAULTS = new WebFaults(DEFAULT_NOT_FOUND_RATE, DEFAULT_DEAD_HOST_RATE, DEFAULT_SERVER_ERROR_RATE,
      DEFAULT_THROTTLE_RATE, DEFAULT_THROTTLE_COUNT, DEFAULT_RETRY_AFTER, DEFAULT_RESET_RATE, DEFAULT_SLOW_DRIP_RATE,
      DEFAULT_REDIRECT_RATE);

  /** Checks each component on its own. */
  public WebFaults {
    Checks.rate("notFoundRate", notFoundRate);
    Checks.rate("deadHostRate", deadHostRate);
    Checks.rate("serverErrorRate", serverErrorRate);
    Checks.rate("throttleRate", throttleRate);
    Checks.inRange("throttleCount", throttleCount, 1, 100);
    KnobChecks.wholeSeconds("retryAfter", retryAfter, Duration.ofSeconds(1), Duration.ofHours(1));
    Checks.rate("resetRate", resetRate);
    Checks.rate("slowDripRate", slowDripRate);
    Checks.rate("redirectRate", redirectRate);
  }

  /** Checks that a page's fates and a link's fates each add up to at most 1. */
  void check() {
    KnobChecks.sumAtMostOne("serverErrorRate + throttleRate + resetRate + slowDripRate + redirectRate",
        serverErrorRate + throttleRate + resetRate + slowDripRate + redirectRate);
    KnobChecks.sumAtMostOne("notFoundRate + deadHostRate", notFoundRate + deadHostRate);
  }
}
