package io.krill.netio.dns;

import java.time.Duration;

/**
 * A snapshot of a {@link DnsResolver}'s counters since it was created.
 *
 * @param lookups calls of resolve/resolveAll for names (IP literals are not counted)
 * @param cacheHits lookups answered from the cache, positive or negative
 * @param hostsFileHits lookups answered from the hosts file
 * @param queries lookups that went to the DNS servers
 * @param failures lookups that ended in {@link java.net.UnknownHostException}
 * @param totalLatency time spent in lookups that went to the servers, summed
 * @param maxLatency the slowest such lookup
 * @param coalesced lookups that waited for a query of the same name already in flight
 *     instead of sending their own
 */
public record DnsMetrics(long lookups, long cacheHits, long hostsFileHits, long queries, long failures,
    Duration totalLatency, Duration maxLatency, long coalesced) {

  /** @return the mean latency of lookups that went to the servers, zero if none did */
  public Duration meanLatency() {
    return queries == 0 ? Duration.ZERO : totalLatency.dividedBy(queries);
  }
}
