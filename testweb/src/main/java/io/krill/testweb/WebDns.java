package io.krill.testweb;

import io.krill.fibers.Checks;
import java.time.Duration;

/**
 * The synthetic web's DNS answers: their TTL and the hosts whose queries fail or go unanswered.
 * Each component is checked when the record is made; {@link #check(int, int)} keeps the seed
 * hosts resolvable.
 *
 * @param dnsTtl TTL of DNS answers, whole seconds 0..1d
 * @param dnsFailureHosts hosts whose DNS answer is SERVFAIL, 0..hosts-1
 * @param dnsTimeoutHosts hosts whose DNS queries go unanswered, 0..hosts-1
 */
public record WebDns(Duration dnsTtl, int dnsFailureHosts, int dnsTimeoutHosts) {
  /** Default TTL of the DNS answers. */
  public static final Duration DEFAULT_DNS_TTL = Duration.ofMinutes(5);
  /** Default number of hosts whose DNS answer is SERVFAIL. */
  public static final int DEFAULT_DNS_FAILURE_HOSTS = 0;
  /** Default number of hosts whose DNS queries get no answer. */
  public static final int DEFAULT_DNS_TIMEOUT_HOSTS = 0;

  /** The default DNS: every host answers. */
  public static final WebDns DEFAULTS = new WebDns(DEFAULT_DNS_TTL, DEFAULT_DNS_FAILURE_HOSTS, DEFAULT_DNS_TIMEOUT_HOSTS);

  /** Checks each component on its own. */
  public WebDns {
    KnobChecks.wholeSeconds("dnsTtl", dnsTtl, Duration.ZERO, Duration.ofDays(1));
    Checks.inRange("dnsFailureHosts", dnsFailureHosts, 0, WebShape.MAX_HOSTS);
    Checks.inRange("dnsTimeoutHosts", dnsTimeoutHosts, 0, WebShape.MAX_HOSTS);
  }

  /** Checks that the failing and silent hosts leave the seed hosts resolvable. */
  void check(int hosts, int seeds) {
    if (dnsFailureHosts + dnsTimeoutHosts > hosts - seeds) {
      throw Checks.bad("dnsFailureHosts + dnsTimeoutHosts", dnsFailureHosts + dnsTimeoutHosts,
          "<= hosts - seeds = " + (hosts - seeds) + ": seed hosts always resolve");
    }
  }
}
