package io.krill.crawler.cluster;

import io.krill.config.ConfigSchema;
import io.krill.config.Setting;
import java.time.Duration;
import java.util.List;
import java.util.regex.Pattern;

/** The flags of a crawl across machines ({@code krill crawl --kafka ...}). Immutable; thread-safe. */
public final class ClusterSettings {
  /** Partitions of a new crawl's URL topic: the most nodes that can share the crawl. */
  public static final int DEFAULT_PARTITIONS = 12;
  /** How long a node retries an unreachable broker before it gives up. */
  public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(30);
  /** How long a node waits for its fetches of a partition it hands over to finish. */
  public static final Duration DEFAULT_HANDOVER_TIMEOUT = Duration.ofSeconds(30);
  /** Nodes of {@code krill crawl --demo --kafka-demo}. */
  public static final int DEFAULT_DEMO_NODES = 3;

  private static final Pattern CRAWL_ID = Pattern.compile("[A-Za-z0-9._-]{1,100}");

  /** The brokers: joining a crawl across machines. */
  public static final Setting<List<String>> KAFKA = Setting.ofStringList("crawl.kafka").defaultValue(List.of())
      .paramLabel("HOST:PORT").doc("Kafka bootstrap servers: join a crawl across machines (repeatable or comma-separated)").build();
  /** The crawl's name in Kafka: its topics and consumer group. */
  public static final Setting<String> CRAWL_ID_SETTING = Setting.ofString("crawl.crawl-id").flag("--crawl-id")
      .optional().paramLabel("NAME").check(s -> CRAWL_ID.matcher(s).matches(), "1 to 100 of A-Z a-z 0-9 . _ -")
      .doc("Name of the crawl across machines: its topics and consumer group (required with --kafka)").build();
  /** What keeps politeness local. */
  public static final Setting<PartitionBy> PARTITION_BY = Setting.ofEnum("crawl.partition-by", PartitionBy.class)
      .defaultValue(PartitionBy.HOST).doc("Key of the URL topic: every URL of one key goes to one node").build();
  /** Partitions of the URL and changelog topics. */
  public static final Setting<Integer> PARTITIONS = Setting.ofInt("crawl.partitions").defaultValue(DEFAULT_PARTITIONS)
      .range(1, 10_000).doc("Partitions of a new crawl's topics: the most nodes that share the work").build();
  /** Whether a node creates missing topics. */
  public static final Setting<Boolean> CREATE_TOPICS = Setting.ofBoolean("crawl.create-topics").defaultValue(true)
      .doc("Create the crawl's topics when they are missing").build();
  /** How long an unreachable broker is retried. */
  public static final Setting<Duration> CONNECT_TIMEOUT = Setting.ofDuration("crawl.kafka-timeout")
      .defaultValue(DEFAULT_CONNECT_TIMEOUT).atLeast(Duration.ofSeconds(1))
      .doc("How long to retry an unreachable broker at start before giving up").build();
  /** Bound of a hand-over. */
  public static final Setting<Duration> HANDOVER_TIMEOUT = Setting.ofDuration("crawl.handover-timeout")
      .defaultValue(DEFAULT_HANDOVER_TIMEOUT).atLeast(Duration.ofMillis(100))
      .doc("How long a node waits for its fetches of a partition it hands over").build();
  /** Prints the crawl's status and exits. */
  public static final Setting<Boolean> STATUS = Setting.ofBoolean("crawl.status").defaultValue(false)
      .doc("Print the whole crawl's status (nodes, partitions, queued, fetched, errors) and exit").build();
  /** Nodes of the demo. */
  public static final Setting<Integer> NODES = Setting.ofInt("crawl.nodes").defaultValue(DEFAULT_DEMO_NODES)
      .range(1, 16).doc("With --demo: crawl with this many nodes (child JVMs) over an in-process broker, killing one with SIGKILL part-way").build();

  /** Every cluster setting. */
  public static final ConfigSchema SCHEMA = ConfigSchema.builder()
      .add(KAFKA, CRAWL_ID_SETTING, PARTITION_BY, PARTITIONS, CREATE_TOPICS, CONNECT_TIMEOUT, HANDOVER_TIMEOUT, STATUS, NODES)
      .build();

  private ClusterSettings() {}
}
