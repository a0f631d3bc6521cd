package io.krill.crawler.cluster;

import crawlercommons.domains.EffectiveTldFinder;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import org.apache.kafka.common.utils.Utils;

/** What a URL topic is keyed by: every URL with one key goes to one partition, so to one node. */
public enum PartitionBy {
  /** The URL's host name. */
  HOST,
  /** The registrable domain (public suffix plus one label, from crawler-commons' suffix list). */
  DOMAIN,
  /**
   * The host's address (the lowest of its DNS answer): all hosts on one address go to one node, so
   * the per-IP politeness holds across the crawl. The node that finds a URL resolves its host
   * before sending it (the crawler's resolver and cache); see {@link #key}.
   */
  IP;

  /**
   * @param hostKey a frontier host key ({@code scheme://host[:port]}) or a URL
   * @return the partition key; for {@link #IP} the host itself (the caller keys by the address it resolved)
   */
  public String key(String hostKey) {
    String host = URI.create(hostKey).getHost();
    host = host == null ? hostKey : host.toLowerCase(Locale.ROOT);
    if (this == DOMAIN) {
      String d = EffectiveTldFinder.getAssignedDomain(host, true, false);
      return d == null ? host : d;
    }
    return host;
  }

  /**
   * @param hostKey a frontier host key or a URL
   * @param partitions the topic's partitions
   * @return the partition of its key (Kafka's own key hash, as the default partitioner uses)
   */
  public int partition(String hostKey, int partitions) {
    return partitionOfKey(key(hostKey), partitions);
  }

  /**
   * @param key a partition key (for {@link #IP}: an address literal)
   * @param partitions the topic's partitions
   * @return its partition (Kafka's own key hash)
   */
  public static int partitionOfKey(String key, int partitions) {
    return Utils.toPositive(Utils.murmur2(key.getBytes(StandardCharsets.UTF_8))) % partitions;
  }
}
