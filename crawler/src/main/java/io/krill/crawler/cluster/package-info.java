/**
 * A crawl across machines on Apache Kafka: the nodes of one crawl id form one consumer group,
 * a URL topic partitioned by host (or registrable domain) routes every URL to the one node that
 * owns its partition, and a compacted changelog topic keeps each partition's frontier so that
 * another node takes it over after a failure. {@link io.krill.crawler.cluster.ClusterCrawl} is
 * the entry point; {@link io.krill.crawler.cluster.ClusterSettings} holds its flags.
 *
 * <p>Threading: a node runs one Kafka consumer thread (URLs in, rebalances), one outbox thread
 * (URLs and outcomes out) and one status thread; the crawl itself runs as a plain
 * {@link io.krill.crawler.Crawler} whose frontier they feed.
 */
package io.krill.crawler.cluster;
