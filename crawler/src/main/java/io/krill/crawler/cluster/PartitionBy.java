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
  DOMAIN;

  /**
   * @param hostKey a frontier host key ({@code scheme://host[:port]}) or a URL
   * @return the partition key
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
    return Utils.toPositive(Utils.murmur2(key(hostKey).getBytes(StandardCharsets.UTF_8))) % partitions;
  }
}
