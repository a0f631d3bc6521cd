package io.krill.crawler.cluster;

import java.util.List;

/**
 * One node's report on the status topic, published every second.
 *
 * @param node the node's name
 * @param state {@code crawling}, {@code finished} (saw the whole crawl drained) or {@code left}
 * @param time when it was published (epoch ms)
 * @param started when the node joined (epoch ms)
 * @param partitions the partitions it owns
 * @param queued URLs of its partitions not yet done
 * @param inFlight fetches running
 * @param fetched pages fetched by this node
 * @param errors pages that ended in an error on this node
 * @param lag URL records not yet consumed from its partitions
 * @param idle nothing queued, in flight, unsent or unconsumed
 * @param bytesSent bytes this node sent to Kafka (keys and values)
 */
record NodeStatus(String node, String state, long time, long started, List<Integer> partitions, long queued,
    long inFlight, long fetched, long errors, long lag, boolean idle, long bytesSent) {}
