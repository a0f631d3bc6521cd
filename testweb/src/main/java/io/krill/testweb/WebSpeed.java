package io.krill.testweb;

import io.krill.fibers.Checks;
import java.time.Duration;

/**
 * The speed of the synthetic web: how long a server waits before the first byte, how fast it
 * sends, how much hosts differ, and how slowly a dripping page drips. Each component is checked
 * when the record is made.
 *
 * @param latency server time before the first byte, 0..60s
 * @param latencyJitter spread of latency and bandwidth between hosts, 0..0.9
 * @param bandwidth bytes per second of one response, 0 (unlimited) or 1KiB..1GiB
 * @param slowDripBandwidth drip speed of a slow page in bytes per second, 1..1024
 * @param slowDripDuration how long a slow page drips before completing, 1s..10m
 * @param slowHosts hosts (never a seed) that answer after {@code slowLatency} instead, 0..hosts
 *     minus seeds: the short paths through them are found after longer ones elsewhere
 * @param slowLatency the latency of the slow hosts, 0..60s
 */
public record WebSpeed(Duration latency, double latencyJitter, long bandwidth, long slowDripBandwidth, Duration slowDripDuration,
    int slowHosts, Duration slowLatency) {
  /** Default server latency per request, before the first byte. */
  public static final Duration DEFAULT_LATENCY = Duration.ofMillis(20);
  /** Default spread of latency and bandwidth between hosts: each host gets {@code value * (1 +- jitter)}. */
  public static final double DEFAULT_LATENCY_JITTER = 0.5;
  /** Default bytes per second of one response; 0 for unlimited. */
  public static final long DEFAULT_BANDWIDTH = 1L << 20;
  /** Default drip speed of a slow page, bytes per second. */
  public static final long DEFAULT_SLOW_DRIP_BANDWIDTH = 16;
  /** Default time a slow page drips before it completes. */
  public static final Duration DEFAULT_SLOW_DRIP_DURATION = Duration.ofSeconds(30);

  /** Default number of slow hosts. */
  public static final int DEFAULT_SLOW_HOSTS = 0;
  /** Default latency of a slow host. */
  public static final Duration DEFAULT_SLOW_LATENCY = Duration.ofMillis(500);

  /** The default speed. */
  public static final WebSpeed DEFAULTS = new WebSpeed(DEFAULT_LATENCY, DEFAULT_LATENCY_JITTER, DEFAULT_BANDWIDTH,
      DEFAULT_SLOW_DRIP_BANDWIDTH, DEFAULT_SLOW_DRIP_DURATION, DEFAULT_SLOW_HOSTS, DEFAULT_SLOW_LATENCY);

  /** Checks each component. */
  public WebSpeed {
    Checks.inRange("latency", latency, Duration.ZERO, Duration.ofSeconds(60));
    if (!(latencyJitter >= 0 && latencyJitter <= 0.9)) {
      throw Checks.bad("latencyJitter", latencyJitter, "0..0.9");
    }
    if (bandwidth != 0) {
      Checks.inRange("bandwidth", bandwidth, 1024, 1L << 30);
    }
    Checks.inRange("slowDripBandwidth", slowDripBandwidth, 1, 1024);
    Checks.inRange("slowDripDuration", slowDripDuration, Duration.ofSeconds(1), Duration.ofMinutes(10));
    Checks.inRange("slowHosts", slowHosts, 0, WebShape.MAX_HOSTS);
    Checks.inRange("slowLatency", slowLatency, Duration.ZERO, Duration.ofSeconds(60));
  }
}
