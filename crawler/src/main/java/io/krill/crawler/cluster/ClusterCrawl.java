package io.krill.crawler.cluster;

import io.krill.config.HostPort;
import io.krill.config.Settings;
import io.krill.crawler.CrawlConfig;
import io.krill.crawler.CrawlSummary;
import io.krill.crawler.Crawler;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.CooperativeStickyAssignor;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * A node of a crawl across machines: joins the crawl id on a Kafka cluster (checking the broker,
 * the topics and the crawl's saved settings), then runs a plain {@link Crawler} whose frontier is
 * this node's share of the crawl.
 *
 * <pre>{@code
 * ClusterCrawl node = ClusterCrawl.join(options, fixedSettings, System.err);
 * CrawlSummary s = node.run(config.out(node.outputDir(out)).build(), delay);
 * }</pre>
 *
 * <p>Threading: {@link #join} and {@link #run} block the calling thread.
 */
public final class ClusterCrawl {
  private static final String SETTINGS_KEY = "settings";

  /**
   * Where and what to join.
   *
   * @param bootstrap the brokers, host:port each
   * @param crawlId the crawl's name
   * @param partitionBy the URL topic's key
   * @param partitions partitions of a new crawl's topics
   * @param createTopics create missing topics
   * @param connectTimeout how long an unreachable broker is retried at start
   * @param handoverTimeout how long a hand-over waits for the partition's fetches
   */
  public record Options(List<String> bootstrap, String crawlId, PartitionBy partitionBy, int partitions,
      boolean createTopics, Duration connectTimeout, Duration handoverTimeout) {
    /** Checks the fields. */
    public Options {
      bootstrap = List.copyOf(bootstrap);
      if (bootstrap.isEmpty()) {
        throw new IllegalArgumentException("--kafka: no broker given (expected: HOST:PORT[,...])");
      }
      if (crawlId == null) {
        throw new IllegalArgumentException("--kafka needs --crawl-id NAME (the crawl to join)");
      }
    }

    /**
     * @param s settings of {@link ClusterSettings#SCHEMA}
     * @return the options, or empty when {@code --kafka} is not given
     * @throws IllegalArgumentException when --kafka comes without --crawl-id, or a broker is not HOST:PORT
     */
    public static Optional<Options> of(Settings s) {
      List<String> servers = new ArrayList<>();
      for (String k : s.get(ClusterSettings.KAFKA)) {
        for (String part : k.split(",")) {
          if (!part.isBlank()) {
            servers.add(HostPort.parse(ClusterSettings.KAFKA.flag(), part.trim()).toString());
          }
        }
      }
      if (servers.isEmpty()) {
        if (s.find(ClusterSettings.CRAWL_ID_SETTING).isPresent()) {
          throw new IllegalArgumentException("--crawl-id needs --kafka HOST:PORT (the brokers of the crawl)");
        }
        return Optional.empty();
      }
      return Optional.of(new Options(servers, s.find(ClusterSettings.CRAWL_ID_SETTING).orElse(null),
          s.get(ClusterSettings.PARTITION_BY), s.get(ClusterSettings.PARTITIONS), s.get(ClusterSettings.CREATE_TOPICS),
          s.get(ClusterSettings.CONNECT_TIMEOUT), s.get(ClusterSettings.HANDOVER_TIMEOUT)));
    }
  }

  private final Options options;
  private final String node;
  private final PrintStream console;

  private ClusterCrawl(Options options, String node, PrintStream console) {
    this.options = options;
    this.node = node;
    this.console = console;
  }

  /**
   * Joins a crawl: waits (bounded) for the broker, creates or checks the topics, and saves or
   * compares the crawl's fixed settings.
   *
   * @param options where and what
   * @param fixed the flags every node of the crawl must agree on (name to value)
   * @param console where waiting and ownership lines go
   * @return the joined node, not crawling yet
   * @throws ClusterException UNREACHABLE or MISMATCH, with one line to print
   */
  public static ClusterCrawl join(Options options, Map<String, String> fixed, PrintStream console) throws ClusterException {
    Topics topics = new Topics(options.crawlId());
    Admin admin = Admin.create(common(options, "krill-admin"));
    try {
      awaitBroker(admin, options, console);
      ensureTopics(admin, options, topics);
    } finally {
      admin.close(Duration.ofSeconds(1)); // not the default: it waits out calls to a broker that is gone
    }
    Map<String, String> all = new TreeMap<>(fixed);
    all.put("--partitions", String.valueOf(options.partitions()));
    all.put("--partition-by", options.partitionBy().name().toLowerCase(Locale.ROOT));
    checkSettings(options, topics, all);
    return new ClusterCrawl(options, nodeName(), console);
  }

  /** @return this node's name: host, process id and a random tag */
  public String node() {
    return node;
  }

  /**
   * @param out the crawl's output directory
   * @return this node's own directory under it (a new one per run)
   */
  public Path outputDir(Path out) {
    return out.resolve(node);
  }

  /**
   * Crawls this node's share until the whole crawl is drained (or the crawler is stopped).
   *
   * @param config the crawl's configuration, its output in {@link #outputDir}
   * @param delay the per-host delay (kept across hand-overs)
   * @return this node's summary
   * @throws IOException if the output cannot be written
   * @throws ClusterException if Kafka stopped taking this node's records
   */
  public CrawlSummary run(CrawlConfig config, Duration delay) throws IOException, ClusterException {
    return run(Crawler.create(config), delay);
  }

  /**
   * Like {@link #run(CrawlConfig, Duration)} with a crawler made by the caller (to stop it).
   *
   * @param crawler a crawler not started yet
   * @param delay the per-host delay
   * @return this node's summary
   * @throws IOException if the output cannot be written
   * @throws ClusterException if Kafka stopped taking this node's records
   */
  public CrawlSummary run(Crawler crawler, Duration delay) throws IOException, ClusterException {
    KafkaFrontier shared = new KafkaFrontier(options, node, delay, console);
    shared.counters(() -> crawler.stats().pages.sum(), () -> crawler.stats().errorCount());
    console.println("krill crawl: node " + node + " joined crawl " + options.crawlId() + " on "
        + String.join(",", options.bootstrap()));
    CrawlSummary s;
    try {
      s = crawler.share(shared).run();
    } finally {
      shared.close();
    }
    if (shared.failure() != null) {
      throw new ClusterException(ClusterException.Kind.UNREACHABLE, shared.failure(), null);
    }
    return s;
  }

  // ------------------------------------------------------------------ status

  /**
   * Reads the whole crawl's status from its status topic.
   *
   * @param options where and what
   * @param console where waiting lines go
   * @return the status as text: one summary line, then one line per node
   * @throws ClusterException UNREACHABLE, or MISMATCH when the crawl id has no topics
   */
  public static String status(Options options, PrintStream console) throws ClusterException {
    Topics topics = new Topics(options.crawlId());
    Admin admin = Admin.create(common(options, "krill-admin"));
    try {
      awaitBroker(admin, options, console);
      if (!missing(admin, List.of(topics.status())).isEmpty()) {
        throw new ClusterException(ClusterException.Kind.MISMATCH, "--crawl-id " + options.crawlId()
            + ": no such crawl on " + String.join(",", options.bootstrap()) + " (no topic " + topics.status() + ")", null);
      }
    } finally {
      admin.close(Duration.ofSeconds(1));
    }
    return describe(options, statuses(options).values(), System.currentTimeMillis());
  }

  /**
   * Reads the pages each node of the crawl has fetched, from its status topic.
   *
   * @param options where and what
   * @return node name to pages fetched, as last published (an empty map before the first status)
   * @throws ClusterException UNREACHABLE
   */
  public static Map<String, Long> fetchedByNode(Options options) throws ClusterException {
    Map<String, Long> fetched = new TreeMap<>();
    statuses(options).forEach((node, s) -> fetched.put(node, s.fetched()));
    return fetched;
  }

  /* Each node's last status. */
  static Map<String, NodeStatus> statuses(Options options) throws ClusterException {
    Map<String, NodeStatus> latest = new TreeMap<>();
    for (ConsumerRecord<String, String> r : readAll(options, new Topics(options.crawlId()).status())) {
      NodeStatus s = KafkaFrontier.parse(r.value());
      if (s != null) {
        latest.put(s.node(), s);
      }
    }
    return latest;
  }

  static String describe(Options options, Collection<NodeStatus> nodes, long now) {
    StringBuilder b = new StringBuilder();
    long alive = 0;
    long queued = 0;
    long inFlight = 0;
    long fetched = 0;
    long errors = 0;
    boolean finished = false;
    Set<Integer> covered = new TreeSet<>();
    for (NodeStatus s : nodes) {
      boolean live = now - s.time() < 5000 && s.state().equals("crawling");
      alive += live ? 1 : 0;
      finished |= s.state().equals("finished");
      if (live) {
        covered.addAll(s.partitions());
        queued += s.queued();
        inFlight += s.inFlight();
      }
      fetched += s.fetched();
      errors += s.errors();
    }
    b.append(String.format(Locale.ROOT, "crawl %s: %d node%s crawling, partitions owned %d/%d, queued %d, in flight %d,"
        + " fetched %d, errors %d%s%n", options.crawlId(), alive, alive == 1 ? "" : "s", covered.size(), options.partitions(),
        queued, inFlight, fetched, errors, finished && alive == 0 ? " (finished)" : ""));
    b.append(String.format(Locale.ROOT, "%-32s %-9s %-18s %8s %9s %8s %7s %6s%n", "node", "state", "partitions", "queued",
        "in-flight", "fetched", "errors", "age"));
    for (NodeStatus s : nodes) {
      // a node that stopped publishing while crawling was killed or cut off: its partitions move on
      String state = s.state().equals("crawling") && now - s.time() >= 5000 ? "silent" : s.state();
      b.append(String.format(Locale.ROOT, "%-32s %-9s %-18s %8d %9d %8d %7d %5ds%n", s.node(), state, s.partitions(),
          s.queued(), s.inFlight(), s.fetched(), s.errors(), Math.max(0, (now - s.time()) / 1000)));
    }
    return b.toString();
  }

  // ------------------------------------------------------------------ joining

  /* A bounded retry with the reason on the console: an unreachable broker never hangs a node. */
  private static void awaitBroker(Admin admin, Options options, PrintStream console) throws ClusterException {
    long deadline = System.nanoTime() + options.connectTimeout().toNanos();
    String where = String.join(",", options.bootstrap());
    for (int attempt = 1;; attempt++) {
      String reason;
      try {
        // at most a third of the timeout per attempt: the console sees the reason before the end
        admin.describeCluster().nodes().get(Math.min(2000, options.connectTimeout().toMillis() / 3), TimeUnit.MILLISECONDS);
        return;
      } catch (ExecutionException e) {
        reason = e.getCause().getMessage();
      } catch (TimeoutException e) {
        reason = "no answer";
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        reason = "interrupted";
      }
      if (System.nanoTime() >= deadline || Thread.currentThread().isInterrupted()) {
        throw new ClusterException(ClusterException.Kind.UNREACHABLE, "cannot reach Kafka at " + where + " within "
            + options.connectTimeout().toSeconds() + "s (" + reason + ")", null);
      }
      console.println("krill crawl: waiting for Kafka at " + where + " (attempt " + attempt + ": " + reason
          + "); retrying for up to " + options.connectTimeout().toSeconds() + "s");
      try {
        Thread.sleep(Math.min(1000, options.connectTimeout().toMillis() / 6));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private static void ensureTopics(Admin admin, Options options, Topics topics) throws ClusterException {
    List<String> names = List.of(topics.urls(), topics.state(), topics.status(), topics.settings());
    List<String> missing = missing(admin, names);
    if (!missing.isEmpty() && !options.createTopics()) {
      throw new ClusterException(ClusterException.Kind.MISMATCH, "--no-create-topics: topic" + (missing.size() == 1 ? " " : "s ")
          + String.join(", ", missing) + " of crawl " + options.crawlId() + " do" + (missing.size() == 1 ? "es" : "")
          + " not exist (create the URL and state topics with " + options.partitions()
          + " partitions, state, status and settings compacted; or drop --no-create-topics)", null);
    }
    if (!missing.isEmpty()) {
      Map<String, String> compact = Map.of("cleanup.policy", "compact");
      List<NewTopic> create = new ArrayList<>();
      for (String n : missing) {
        boolean partitioned = n.equals(topics.urls()) || n.equals(topics.state());
        NewTopic t = new NewTopic(n, Optional.of(partitioned ? options.partitions() : 1), Optional.empty());
        create.add(n.equals(topics.urls()) ? t : t.configs(compact));
      }
      admin.createTopics(create).values().forEach((n, f) -> {
        try {
          f.get(30, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
          if (!(e.getCause() instanceof TopicExistsException)) {
            throw new KafkaException("cannot create topic " + n + ": " + e.getCause().getMessage(), e.getCause());
          }
        } catch (InterruptedException | TimeoutException e) {
          throw new KafkaException("cannot create topic " + n + ": " + e, e);
        }
      });
    }
    for (String n : List.of(topics.urls(), topics.state())) {
      int found = partitionCount(admin, n);
      if (found != options.partitions()) {
        throw new ClusterException(ClusterException.Kind.MISMATCH, "--partitions " + options.partitions() + ": topic " + n
            + " of crawl " + options.crawlId() + " has " + found + " partitions (give --partitions " + found + ")", null);
      }
    }
  }

  private static List<String> missing(Admin admin, List<String> names) throws ClusterException {
    List<String> missing = new ArrayList<>();
    Map<String, KafkaFuture<TopicDescription>> found = admin.describeTopics(names).topicNameValues();
    for (String n : names) {
      try {
        found.get(n).get(30, TimeUnit.SECONDS);
      } catch (ExecutionException e) {
        if (e.getCause() instanceof UnknownTopicOrPartitionException) {
          missing.add(n);
        } else {
          throw new ClusterException(ClusterException.Kind.UNREACHABLE, "cannot describe topic " + n + ": "
              + e.getCause().getMessage(), e.getCause());
        }
      } catch (InterruptedException | TimeoutException e) {
        throw new ClusterException(ClusterException.Kind.UNREACHABLE, "cannot describe topic " + n + ": " + e, e);
      }
    }
    return missing;
  }

  /* A topic just created may be unknown to the broker's metadata for a moment: asked again, bounded. */
  private static int partitionCount(Admin admin, String topic) throws ClusterException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    for (;;) {
      try {
        return admin.describeTopics(List.of(topic)).topicNameValues().get(topic).get(30, TimeUnit.SECONDS).partitions().size();
      } catch (ExecutionException e) {
        if (!(e.getCause() instanceof UnknownTopicOrPartitionException) || System.nanoTime() > deadline) {
          throw new ClusterException(ClusterException.Kind.UNREACHABLE, "cannot describe topic " + topic + ": "
              + e.getCause().getMessage(), e.getCause());
        }
      } catch (InterruptedException | TimeoutException e) {
        throw new ClusterException(ClusterException.Kind.UNREACHABLE, "cannot describe topic " + topic + ": " + e, e);
      }
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new ClusterException(ClusterException.Kind.UNREACHABLE, "interrupted describing topic " + topic, e);
      }
    }
  }

  /* The first node saves the crawl's fixed flags; every later node must agree (one line naming each difference). */
  private static void checkSettings(Options options, Topics topics, Map<String, String> mine) throws ClusterException {
    String saved = null;
    for (ConsumerRecord<String, String> r : readAll(options, topics.settings())) {
      if (SETTINGS_KEY.equals(r.key()) && r.value() != null) {
        saved = r.value();
      }
    }
    String text = encode(mine);
    if (saved == null) {
      try (KafkaProducer<String, String> p = producer(options, "krill-settings")) {
        p.send(new ProducerRecord<>(topics.settings(), 0, SETTINGS_KEY, text)).get(30, TimeUnit.SECONDS);
      } catch (ExecutionException | InterruptedException | TimeoutException e) {
        throw new ClusterException(ClusterException.Kind.UNREACHABLE, "cannot save the crawl's settings: " + e, e);
      }
      return;
    }
    Map<String, String> theirs = decode(saved);
    List<String> diffs = new ArrayList<>();
    Set<String> keys = new TreeSet<>(theirs.keySet());
    keys.addAll(mine.keySet());
    for (String k : keys) {
      String a = theirs.get(k);
      String b = mine.get(k);
      if (a == null ? b != null : !a.equals(b)) {
        diffs.add(k + " " + a + " (here " + b + ")");
      }
    }
    if (!diffs.isEmpty()) {
      throw new ClusterException(ClusterException.Kind.MISMATCH, "--crawl-id " + options.crawlId()
          + " was started with other settings: " + String.join(", ", diffs) + "; use those flags or another --crawl-id", null);
    }
  }

  private static String encode(Map<String, String> m) {
    StringBuilder b = new StringBuilder();
    new TreeMap<>(m).forEach((k, v) -> b.append(k).append('=').append(v).append('\n'));
    return b.toString();
  }

  private static Map<String, String> decode(String text) {
    Map<String, String> m = new HashMap<>();
    for (String line : text.split("\n")) {
      int eq = line.indexOf('=');
      if (eq > 0) {
        m.put(line.substring(0, eq), line.substring(eq + 1));
      }
    }
    return m;
  }

  /* Every record of a one-partition topic, read to its end. */
  private static List<ConsumerRecord<String, String>> readAll(Options options, String topic) throws ClusterException {
    List<ConsumerRecord<String, String>> out = new ArrayList<>();
    TopicPartition tp = new TopicPartition(topic, 0);
    try (KafkaConsumer<String, String> c = plainConsumer(options, "krill-read")) {
      c.assign(List.of(tp));
      c.seekToBeginning(List.of(tp));
      long end = c.endOffsets(List.of(tp), Duration.ofSeconds(30)).get(tp);
      long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
      while (c.position(tp, Duration.ofSeconds(30)) < end) {
        if (System.nanoTime() > deadline) {
          throw new ClusterException(ClusterException.Kind.UNREACHABLE, "cannot read topic " + topic + " within 60s", null);
        }
        c.poll(Duration.ofMillis(200)).forEach(out::add);
      }
    } catch (KafkaException e) {
      throw new ClusterException(ClusterException.Kind.UNREACHABLE, "cannot read topic " + topic + ": " + e.getMessage(), e);
    }
    return out;
  }

  private static String nodeName() {
    String host;
    try {
      host = InetAddress.getLocalHost().getHostName();
    } catch (UnknownHostException e) {
      host = "node";
    }
    String pid = ManagementFactory.getRuntimeMXBean().getName().split("@")[0];
    return host.replaceAll("[^A-Za-z0-9.-]", "") + "-" + pid + "-" + Integer.toHexString(ThreadLocalRandom.current().nextInt(0x1000, 0x10000));
  }

  // ------------------------------------------------------------------ clients

  static Properties common(Options options, String clientId) {
    Properties p = new Properties();
    p.put("bootstrap.servers", String.join(",", options.bootstrap()));
    p.put("client.id", clientId);
    p.put("reconnect.backoff.max.ms", "2000");
    p.put("request.timeout.ms", "10000");
    p.put("default.api.timeout.ms", "30000");
    return p;
  }

  /* Idempotent, acks from all replicas; a broker restart is waited out for up to 5 minutes, then the node fails loudly. */
  static KafkaProducer<String, String> producer(Options options, String clientId) {
    Properties p = common(options, clientId);
    p.put("acks", "all");
    p.put("enable.idempotence", "true");
    p.put("linger.ms", "5");
    p.put("delivery.timeout.ms", "300000");
    p.put("max.block.ms", "300000");
    return new KafkaProducer<>(p, new StringSerializer(), new StringSerializer());
  }

  static KafkaConsumer<String, String> groupConsumer(Options options, Topics topics, String clientId) {
    Properties p = common(options, clientId);
    p.put("group.id", topics.group());
    p.put("partition.assignment.strategy", CooperativeStickyAssignor.class.getName());
    p.put("enable.auto.commit", "false");
    p.put("auto.offset.reset", "earliest");
    // a node killed with -9 is noticed in seconds; the broker's minimum is 6 s
    p.put("session.timeout.ms", "6000");
    p.put("heartbeat.interval.ms", "1000");
    p.put("max.poll.interval.ms", "300000");
    return new KafkaConsumer<>(p, new StringDeserializer(), new StringDeserializer());
  }

  static KafkaConsumer<String, String> plainConsumer(Options options, String clientId) {
    Properties p = common(options, clientId);
    p.put("enable.auto.commit", "false");
    p.put("auto.offset.reset", "earliest");
    return new KafkaConsumer<>(p, new StringDeserializer(), new StringDeserializer());
  }
}
