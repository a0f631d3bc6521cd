package io.krill.crawler.cluster;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.krill.crawler.CrawlView;
import io.krill.crawler.SharedFrontier;
import io.krill.crawler.frontier.CrawlUrl;
import io.krill.crawler.frontier.Frontier;
import io.krill.crawler.frontier.UrlNormalizer;
import io.krill.fibers.Continuation;
import io.krill.netio.dns.DnsResolver;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntSupplier;
import java.util.function.LongSupplier;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;

/**
 * One node's share of a crawl across machines: it owns the URL-topic partitions the consumer
 * group assigns it, keeps each one's frontier state (URLs with depths, done or not, and each
 * host's last fetch) and mirrors it in the changelog, feeds this node's {@link Frontier} with
 * the URLs of its partitions, and sends every URL the crawl finds to the URL topic.
 *
 * <p>Threading: the consumer thread polls URLs and runs rebalances; the outbox thread sends
 * discovered URLs and outcomes; the status thread publishes and reads node statuses. The
 * {@link SharedFrontier} and {@link Frontier.Router} methods are called by the crawl's
 * strands and writer and only queue work or read atomics.
 */
final class KafkaFrontier implements SharedFrontier, Frontier.Router, CrawlView.Cluster, AutoCloseable {
  /*
   * Implementation notes. Durability order, so that a kill -9 anywhere loses nothing:
   * (1) a URL record consumed from partition p is applied to p's state, its changelog record
   *     ("q depth parent") is sent, and the URL-topic offset is committed only after a producer
   *     flush (the changelog record is acked);
   * (2) a page's links are routed to the URL topic and flushed BEFORE its "done" changelog
   *     record is sent (the outbox sends links, flushes, then outcomes), so a done page's links
   *     are always somewhere durable;
   * (3) a new owner rebuilds p from the changelog (last record per URL wins: compaction keeps
   *     it) and consumes p from the committed offset; queued URLs are fetched again only if
   *     the dead owner had them in flight (their "done" never made it).
   * (4) exact depth: the owner of a page keeps its out-links (in memory and in the page's "d"
   *     changelog record), routes only those within --max-depth, and when the page's depth drops
   *     later (a shorter path found by any node) routes them again at the lower depth; the owner of
   *     each target deduplicates, lowers, and passes the drop on in turn. Depths only drop, so it
   *     ends; links beyond the limit never travel, so a trap web drains. A new owner routes the
   *     links of its done pages once more (the old owner may have died between a page's record and
   *     its links' ack); the targets' owners drop what they know at that depth already.
   * (5) a fetched page holds its fetch slot until its outcome is acked (unsettled()): a node
   *     killed at any moment leaves at most --max-in-flight pages another node fetches again.
   * (6) --partition-by ip: the finder resolves a link's host (the crawl's resolver and cache, once
   *     per host on this node) and keys it by its lowest address; the owner remembers the
   *     partition each host's URLs came from, and the dispatcher's checks read only that map.
   * (7) most links of a page were found before, by this node: a link sent already at the same or a
   *     lower depth is not sent again (the last SENT_MEMORY URLs are remembered). The earlier record
   *     precedes the later page's outcome in the outbox, so it is flushed first.
   * Politeness across a hand-over: the changelog also holds "host -> last fetch" (written with
   * each outcome); a new owner defers a host's URLs until that time plus the delay, and a
   * leaving owner stops handing out p's URLs and waits (bounded) for its fetches of p to end
   * before the group gives p to another node (cooperative rebalancing revokes first).
   * Termination: every node publishes a status each second; a node ends when all live nodes
   * together own every partition and all are idle (nothing queued, in flight, unsent or
   * unconsumed) for STABLE_MS, or when another node has ended so and it is idle itself.
   */
  static final String HOST_PREFIX = "host ";
  private static final String KEEP_DEPTH = "=";
  /** URLs a node remembers having sent (with the depth), so that a link found again is not sent again. */
  static final int SENT_MEMORY = 100_000;
  private static final long STATUS_INTERVAL_MS = 500;
  private static final long STABLE_MS = 3000;
  private static final long LIVE_MS = 5000;
  private static final long DEPTH_SEQ = 1L << 40;
  private static final ObjectMapper JSON = new ObjectMapper();

  private final ClusterCrawl.Options options;
  private final Topics topics;
  private final String node;
  private final long delayMillis;
  private final PrintStream console;
  private final KafkaProducer<String, String> producer;
  private final KafkaConsumer<String, String> consumer;
  private final KafkaConsumer<String, String> restorer;
  private final KafkaConsumer<String, String> statusReader;
  private final Map<Integer, PartitionState> owned = new ConcurrentHashMap<>();
  private final AtomicIntegerArray inFlight;
  private final LinkedBlockingQueue<Object> outbox = new LinkedBlockingQueue<>();
  private final AtomicInteger outboxPending = new AtomicInteger();
  private final AtomicLong bytesSent = new AtomicLong();
  private final AtomicLong seq = new AtomicLong();
  private final AtomicReference<String> failure = new AtomicReference<>();
  private final PriorityQueue<Deferred> deferred = new PriorityQueue<>((a, b) -> Long.compare(a.readyAt, b.readyAt));
  private final Map<String, NodeStatus> statuses = new HashMap<>();
  private final long started = System.currentTimeMillis();
  private final OwnershipLog ownership;
  private volatile Frontier frontier;
  private volatile Runnable wake = () -> { };
  private volatile IntSupplier pendingCommits = () -> 0;
  private volatile LongSupplier fetched = () -> 0;
  private volatile LongSupplier errors = () -> 0;
  private volatile long lag;
  private volatile int maxDepth = Frontier.UNLIMITED_DEPTH;
  private volatile DnsResolver resolver;
  /* --partition-by ip: each host key's partition, as this node resolved it or consumed its URLs (note 6). */
  private final Map<String, Integer> hostPartitions = new ConcurrentHashMap<>();
  /* Note 7: the last SENT_MEMORY URLs this node sent, with the lowest depth sent; guarded by itself. */
  private final Map<String, Integer> sent = new java.util.LinkedHashMap<>(1024, 0.75f, true) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<String, Integer> eldest) {
      return size() > SENT_MEMORY;
    }
  };
  /* Pages fetched here whose outcome Kafka has not acked yet (they hold their fetch slot). */
  private final Set<String> unsettled = ConcurrentHashMap.newKeySet();
  /*
   * A page's outcome is handed to the writer before its fetch's work ends, so the outcome may
   * be acked before finished() runs: such a page must not enter unsettled afterwards (it would
   * hold its slot for good; a node with a few of them stalls). The pages being fetched here, and
   * those of them whose outcome was acked first, guarded by settleLock with unsettled's updates.
   */
  private final Object settleLock = new Object();
  private final Set<String> fetching = new HashSet<>();
  private final Set<String> settledFirst = new HashSet<>();
  private volatile boolean assignedOnce;
  private volatile boolean finished;
  private volatile boolean closing;
  private volatile int deferredCount;
  private long idleSince;
  private Thread consumerThread;
  private Thread outboxThread;
  private Thread statusThread;

  /** Outgoing work of the outbox thread. */
  private record Link(String url, int depth, String parent) {}

  private record Done(Collection<String> urls, long time) {}

  private record Deferred(long readyAt, int partition, CrawlUrl url) {}

  /** The frontier state of one owned partition; guarded by itself. */
  private static final class PartitionState {
    final int partition;
    final Map<String, Entry> urls = new HashMap<>();
    final Map<String, Long> hostLastFetch = new HashMap<>();
    final Set<String> hosts = new HashSet<>();
    long pending;
    volatile boolean revoking;

    PartitionState(int partition) {
      this.partition = partition;
    }
  }

  private static final class Entry {
    int depth;
    String parent;
    boolean done;
    /* The page's out-links ("=" before a target that keeps the depth), once it was fetched; null before. */
    List<String> links;
    /* The depth the links were last routed at, while this node owns the page; MAX_VALUE: not yet. */
    int linkedDepth = Integer.MAX_VALUE;

    Entry(int depth, String parent, boolean done) {
      this.depth = depth;
      this.parent = parent;
      this.done = done;
    }

    void addLinks(List<String> targets, int step) {
      if (links == null) {
        links = new ArrayList<>(targets.size());
      }
      for (String t : targets) {
        links.add(step == 0 ? KEEP_DEPTH + t : t);
      }
    }

    /* The changelog value of a page done: its depth and its links (a new owner routes them again from it). */
    String doneRecord() {
      return "d\t" + depth + (links == null || links.isEmpty() ? "" : "\t" + String.join("\n", links));
    }
  }

  KafkaFrontier(ClusterCrawl.Options options, String node, Duration delay, PrintStream console) {
    this.options = options;
    this.topics = new Topics(options.crawlId());
    this.node = node;
    this.delayMillis = delay.toMillis();
    this.console = console;
    this.inFlight = new AtomicIntegerArray(options.partitions());
    this.producer = ClusterCrawl.producer(options, node);
    this.consumer = ClusterCrawl.groupConsumer(options, topics, node);
    this.restorer = ClusterCrawl.plainConsumer(options, node + "-restore");
    this.statusReader = ClusterCrawl.plainConsumer(options, node + "-status");
    this.ownership = new OwnershipLog(node, started, LIVE_MS);
  }

  /** Sets the counters the status reports; call before the crawl starts. */
  void counters(LongSupplier fetched, LongSupplier errors) {
    this.fetched = fetched;
    this.errors = errors;
  }

  /** @return the first fatal Kafka failure (sends that timed out), or null */
  String failure() {
    return failure.get();
  }

  // ------------------------------------------------------------------ SharedFrontier

  @Override
  public void resolver(DnsResolver r) {
    this.resolver = r;
  }

  @Override
  public void attach(Frontier f, Runnable wakeUp, IntSupplier pending) {
    this.frontier = f;
    this.maxDepth = f.maxDepth();
    this.wake = wakeUp;
    this.pendingCommits = pending;
    f.router(this);
    consumerThread = start("krill-cluster-consumer", this::consumeLoop);
    outboxThread = start("krill-cluster-outbox", this::outboxLoop);
    statusThread = start("krill-cluster-status", this::statusLoop);
  }

  private static Thread start(String name, Runnable body) {
    Thread t = new Thread(body, name);
    t.setDaemon(true);
    t.start();
    return t;
  }

  @Override
  public boolean admit(Frontier.Work work) {
    int p = partition(work.hostKey());
    boolean counted = work.kind() != Frontier.WorkKind.RESOLVE && p >= 0;
    if (counted) {
      inFlight.incrementAndGet(p); // before the check: a hand-over waits for this count
    }
    PartitionState ps = owned.get(p);
    if (ps != null && !ps.revoking && failure.get() == null) {
      if (work.kind() == Frontier.WorkKind.FETCH) {
        synchronized (settleLock) {
          unsettled.remove(work.url().url()); // a page fetched again (a retry) is counted in flight
          fetching.add(work.url().url());
        }
      }
      return true;
    }
    if (counted) {
      inFlight.decrementAndGet(p);
      frontier.release(work.hostKey(), System.nanoTime());
    }
    // the host's URLs are queued in p's changelog: its owner fetches them
    frontier.fail(work.hostKey());
    return false;
  }

  @Override
  public void finished(Frontier.Work work) {
    if (work.kind() == Frontier.WorkKind.FETCH) {
      String url = work.url().url();
      synchronized (settleLock) {
        fetching.remove(url);
        if (!settledFirst.remove(url)) {
          unsettled.add(url); // before the in-flight count drops: the two together bound the re-fetches
        }
      }
    }
    int p = partition(work.hostKey());
    if (work.kind() != Frontier.WorkKind.RESOLVE && p >= 0) {
      inFlight.decrementAndGet(p);
    }
  }

  @Override
  public int unsettled() {
    return unsettled.size();
  }

  @Override
  public boolean drained() {
    return finished || failure.get() != null;
  }

  @Override
  public String metrics() {
    StringBuilder b = new StringBuilder();
    metric(b, "krill_crawl_cluster_partitions_owned", "Partitions of the URL topic this node owns.", owned.size());
    metric(b, "krill_crawl_cluster_queued", "URLs of this node's partitions not yet done.", queued());
    metric(b, "krill_crawl_cluster_lag", "URL records not yet consumed from this node's partitions.", lag);
    metric(b, "krill_crawl_cluster_bytes_sent", "Bytes this node sent to Kafka.", bytesSent.get());
    synchronized (statuses) {
      long now = System.currentTimeMillis();
      long nodes = statuses.values().stream().filter(s -> now - s.time() < LIVE_MS && !s.state().equals("left")).count();
      metric(b, "krill_crawl_cluster_nodes", "Nodes of the crawl seen alive.", nodes);
      metric(b, "krill_crawl_cluster_fetched", "Pages fetched by every live node.",
          statuses.values().stream().mapToLong(NodeStatus::fetched).sum());
    }
    return b.toString();
  }

  private static void metric(StringBuilder b, String name, String help, long value) {
    b.append("# HELP ").append(name).append(' ').append(help).append('\n');
    b.append("# TYPE ").append(name).append(" gauge\n");
    b.append(name).append(' ').append(value).append('\n');
  }

  // ------------------------------------------------------------------ CrawlView.Cluster (read only, for a console)

  @Override
  public List<CrawlView.Node> nodes() {
    return ownership.nodes();
  }

  @Override
  public List<CrawlView.OwnershipChange> ownership() {
    return ownership.ownership();
  }

  // ------------------------------------------------------------------ Router (under the frontier's lock)

  @Override
  public void route(String url, int depth, String parent) {
    outboxPending.incrementAndGet();
    outbox.add(new Link(url, depth, parent));
  }

  /* Note 4: the page's owner keeps its links, so a later drop of its depth routes them again. */
  @Override
  public void found(CrawlUrl from, List<String> targets, int step, String parent) {
    PartitionState ps = owned.get(partition(from.url()));
    int depth = from.depth();
    if (ps != null) {
      synchronized (ps) {
        Entry e = ps.urls.get(from.url());
        if (e != null) {
          depth = Math.min(depth, e.depth); // lowered while it was being fetched
          e.addLinks(targets, step);
          e.linkedDepth = Math.min(e.linkedDepth, depth);
        }
      }
    }
    if (depth + step <= maxDepth) { // beyond the limit: kept with the page, never sent (a trap web drains)
      for (String t : targets) {
        route(t, depth + step, parent);
      }
    }
  }

  /* The page's links at its current depth, if it is lower than the one they were routed at; call holding ps. */
  private List<Link> relink(String url, Entry e) {
    if (e.links == null || e.depth >= e.linkedDepth) {
      return List.of();
    }
    List<Link> out = new ArrayList<>();
    for (String l : e.links) {
      boolean keep = l.startsWith(KEEP_DEPTH);
      int d = e.depth + (keep ? 0 : 1);
      if (d <= maxDepth) {
        out.add(new Link(keep ? l.substring(KEEP_DEPTH.length()) : l, d, url));
      }
    }
    e.linkedDepth = e.depth;
    return out;
  }

  private void sendLinks(List<Link> links) {
    for (Link l : links) {
      synchronized (sent) {
        Integer before = sent.get(l.url());
        if (before != null && before <= l.depth()) {
          continue; // sent already at this depth or lower: its owner has it (a failed send stops the node)
        }
        sent.put(l.url(), l.depth());
      }
      send(topics.urls(), destination(l.url()), l.url(), l.depth() + "\t" + (l.parent() == null ? "" : l.parent()));
    }
  }

  @Override
  public void completed(Collection<String> urls) {
    outboxPending.incrementAndGet();
    outbox.add(new Done(List.copyOf(urls), System.currentTimeMillis()));
  }

  // ------------------------------------------------------------------ outbox thread

  private void outboxLoop() {
    List<Object> batch = new ArrayList<>();
    while (!closing || !outbox.isEmpty()) {
      Object first;
      try {
        first = outbox.poll(100, TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        return;
      }
      if (first == null) {
        continue;
      }
      batch.clear();
      batch.add(first);
      outbox.drainTo(batch, 4095);
      try {
        sendBatch(batch);
      } catch (KafkaException e) {
        fail("cannot send to Kafka: " + e.getMessage());
      } finally {
        outboxPending.addAndGet(-batch.size());
      }
    }
  }

  /* Links first, flushed; only then the outcomes of the pages they came from (note 2). */
  private void sendBatch(List<Object> batch) {
    boolean anyDone = false;
    List<String> settled = new ArrayList<>();
    for (Object o : batch) {
      if (o instanceof Link l) {
        sendLinks(List.of(l));
      } else {
        anyDone = true;
      }
    }
    producer.flush();
    if (!anyDone) {
      return;
    }
    for (Object o : batch) {
      if (o instanceof Done d) {
        Set<String> hosts = new HashSet<>();
        for (String url : d.urls()) {
          String hostKey = UrlNormalizer.hostKey(url);
          if (markDone(partition(hostKey), url, hostKey, d.time())) {
            hosts.add(hostKey);
          }
          settled.add(url);
        }
        for (String h : hosts) {
          send(topics.state(), partition(h), HOST_PREFIX + h, "t\t" + d.time());
        }
      }
    }
    producer.flush();
    boolean freed = false;
    synchronized (settleLock) {
      for (String url : settled) {
        if (unsettled.remove(url)) {
          freed = true;
        } else if (fetching.contains(url)) {
          settledFirst.add(url); // acked before its fetch's work ended: finished() must not hold its slot
        }
      }
    }
    if (freed) {
      wake.run(); // their slots are free
    }
  }

  /*
   * Records a page done (with its links) in the partition's changelog. A partition no longer
   * owned gets nothing: its new owner fetches the page again (it was in flight at the loss).
   */
  private boolean markDone(int p, String url, String hostKey, long time) {
    PartitionState ps = owned.get(p);
    if (ps == null) {
      return false;
    }
    List<Link> again;
    synchronized (ps) {
      Entry e = ps.urls.get(url);
      if (e == null) {
        e = new Entry(0, null, true);
        ps.urls.put(url, e);
      } else if (!e.done) {
        e.done = true;
        e.parent = null;
        ps.pending--;
      }
      ps.hostLastFetch.put(hostKey, time);
      again = relink(url, e); // lowered after its links were routed
      sendLinks(again);
      send(topics.state(), p, url, e.doneRecord()); // under the lock: the changelog's last record is the latest state
    }
    return true;
  }

  private void send(String topic, int partition, String key, String value) {
    bytesSent.addAndGet(key.getBytes(StandardCharsets.UTF_8).length + value.getBytes(StandardCharsets.UTF_8).length);
    producer.send(new ProducerRecord<>(topic, partition, key, value), (md, e) -> {
      if (e != null) {
        fail("Kafka did not take a record of " + topic + "-" + partition + ": " + e.getMessage());
      }
    });
  }

  private void fail(String reason) {
    if (failure.compareAndSet(null, reason)) {
      console.println("krill crawl: node " + node + ": " + reason + " (stopping; the other nodes or a restart continue)");
      wake.run();
    }
  }

  // ------------------------------------------------------------------ consumer thread

  private void consumeLoop() {
    consumer.subscribe(List.of(topics.urls()), new Rebalance());
    long lastLag = 0;
    try {
      while (!closing) {
        ConsumerRecords<String, String> records = consumer.poll(Duration.ofMillis(100));
        if (!records.isEmpty()) {
          accept(records);
        }
        releaseDeferred();
        long now = System.currentTimeMillis();
        if (now - lastLag >= STATUS_INTERVAL_MS / 2) {
          lastLag = now;
          updateLag();
        }
      }
    } catch (WakeupException e) {
      // closing
    } catch (KafkaException e) {
      fail("consumer failed: " + e.getMessage());
    }
  }

  private void accept(ConsumerRecords<String, String> records) {
    Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
    for (ConsumerRecord<String, String> r : records) {
      int tab = r.value().indexOf('\t');
      int depth = Integer.parseInt(r.value().substring(0, tab));
      String parent = tab + 1 < r.value().length() ? r.value().substring(tab + 1) : null;
      offer(r.partition(), r.key(), depth, parent);
      offsets.put(new TopicPartition(r.topic(), r.partition()), new OffsetAndMetadata(r.offset() + 1));
    }
    try {
      producer.flush(); // note 1: the changelog has these URLs before their offsets are committed
      consumer.commitSync(offsets);
    } catch (KafkaException e) {
      // a rebalance or an outage: the records come again and are deduplicated against the state
    }
    wake.run();
  }

  /* The owner's dedup: a URL is new, or found again on a shorter path, or nothing to do. */
  private void offer(int p, String url, int depth, String parent) {
    PartitionState ps = owned.get(p);
    if (ps == null) {
      return;
    }
    if (options.partitionBy() == PartitionBy.IP) {
      hostPartitions.put(UrlNormalizer.hostKey(url), p); // where its owner holds it wins over a lookup here
    }
    boolean lower;
    boolean done;
    synchronized (ps) {
      Entry e = ps.urls.get(url);
      if (e != null && e.depth <= depth) {
        return;
      }
      lower = e != null;
      done = lower && e.done;
      if (lower) {
        // a shorter path: a page fetched (or being fetched) with its links passes the drop on to them
        e.depth = depth;
        if (!e.done) {
          e.parent = parent;
        }
        sendLinks(relink(url, e));
      } else {
        e = new Entry(depth, parent, false);
        ps.urls.put(url, e);
        ps.pending++;
      }
      send(topics.state(), p, url, done ? e.doneRecord() : "q\t" + depth + "\t" + (parent == null ? "" : parent));
    }
    if (done) {
      return;
    }
    if (lower) {
      frontier.lower(url, depth, parent);
    } else {
      schedule(ps, new CrawlUrl(url, depth, parent, 0, depth * DEPTH_SEQ + seq.incrementAndGet()));
    }
  }

  /* A host fetched by the previous owner waits out the delay from that fetch (politeness across a hand-over). */
  private void schedule(PartitionState ps, CrawlUrl c) {
    String hostKey = UrlNormalizer.hostKey(c.url());
    Long last;
    synchronized (ps) {
      last = ps.hostLastFetch.get(hostKey);
    }
    long readyAt = last == null ? 0 : last + delayMillis;
    if (readyAt > System.currentTimeMillis()) {
      deferred.add(new Deferred(readyAt, ps.partition, c));
      deferredCount = deferred.size();
      return;
    }
    enqueue(ps, c);
  }

  /* The host joins the partition's hosts first: a hand-over fails every host the frontier knows for it. */
  private void enqueue(PartitionState ps, CrawlUrl c) {
    synchronized (ps) {
      ps.hosts.add(UrlNormalizer.hostKey(c.url()));
    }
    frontier.enqueue(c);
  }

  private void releaseDeferred() {
    long now = System.currentTimeMillis();
    boolean any = false;
    while (!deferred.isEmpty() && deferred.peek().readyAt <= now) {
      Deferred d = deferred.poll();
      PartitionState ps = owned.get(d.partition);
      if (ps != null && !ps.revoking) {
        enqueue(ps, d.url);
        any = true;
      }
    }
    deferredCount = deferred.size();
    if (any) {
      wake.run();
    }
  }

  private void updateLag() {
    Set<TopicPartition> assigned = consumer.assignment();
    if (assigned.isEmpty()) {
      lag = 0;
      return;
    }
    try {
      Map<TopicPartition, Long> ends = consumer.endOffsets(assigned, Duration.ofSeconds(5));
      long sum = 0;
      for (TopicPartition tp : assigned) {
        sum += Math.max(0, ends.getOrDefault(tp, 0L) - consumer.position(tp, Duration.ofSeconds(5)));
      }
      lag = sum;
    } catch (KafkaException e) {
      lag = Long.MAX_VALUE; // unknown: not idle
    }
  }

  /** Rebalances run on the consumer thread, inside poll. */
  private final class Rebalance implements ConsumerRebalanceListener {
    @Override
    public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
      assignedOnce = true;
      if (partitions.isEmpty()) {
        return;
      }
      List<Integer> ps = partitions.stream().map(TopicPartition::partition).sorted().toList();
      long pending = restore(ps);
      console.println("krill crawl: node " + node + " took partitions " + ps + " (" + pending
          + " URLs queued there); owns " + new TreeSet<>(owned.keySet()));
      wake.run();
    }

    @Override
    public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
      if (!partitions.isEmpty()) {
        handOver(partitions, true);
      }
    }

    @Override
    public void onPartitionsLost(Collection<TopicPartition> partitions) {
      if (!partitions.isEmpty()) {
        handOver(partitions, false);
      }
    }
  }

  /* Note 3: the changelog of each partition, read to its end, is the partition's frontier. */
  private long restore(List<Integer> partitions) {
    Map<Integer, PartitionState> fresh = new HashMap<>();
    List<TopicPartition> tps = new ArrayList<>();
    for (int p : partitions) {
      fresh.put(p, new PartitionState(p));
      tps.add(new TopicPartition(topics.state(), p));
    }
    restorer.assign(tps);
    restorer.seekToBeginning(tps);
    Map<TopicPartition, Long> ends = restorer.endOffsets(tps, Duration.ofSeconds(30));
    Set<TopicPartition> open = new HashSet<>();
    for (TopicPartition tp : tps) {
      if (restorer.position(tp, Duration.ofSeconds(30)) < ends.get(tp)) {
        open.add(tp);
      }
    }
    while (!open.isEmpty()) {
      for (ConsumerRecord<String, String> r : restorer.poll(Duration.ofMillis(200))) {
        apply(fresh.get(r.partition()), r.key(), r.value());
      }
      open.removeIf(tp -> restorer.position(tp, Duration.ofSeconds(30)) >= ends.get(tp));
    }
    restorer.assign(List.of());
    if (options.partitionBy() == PartitionBy.IP) { // the hosts of a partition taken over are its
      for (PartitionState ps : fresh.values()) {
        ps.urls.keySet().forEach(u -> hostPartitions.put(UrlNormalizer.hostKey(u), ps.partition));
        ps.hostLastFetch.keySet().forEach(h -> hostPartitions.put(h, ps.partition));
      }
    }
    long pending = 0;
    for (PartitionState ps : fresh.values()) {
      List<CrawlUrl> queued = new ArrayList<>();
      synchronized (ps) {
        for (Map.Entry<String, Entry> e : ps.urls.entrySet()) {
          // note 4: the previous owner may have died between a page's record and its links' ack
          sendLinks(relink(e.getKey(), e.getValue()));
          if (!e.getValue().done) {
            ps.pending++;
            queued.add(new CrawlUrl(e.getKey(), e.getValue().depth, e.getValue().parent, 0,
                e.getValue().depth * DEPTH_SEQ + seq.incrementAndGet()));
          }
        }
      }
      pending += queued.size();
      owned.put(ps.partition, ps);
      queued.forEach(c -> schedule(ps, c));
    }
    return pending;
  }

  private static void apply(PartitionState ps, String key, String value) {
    if (value == null) {
      return;
    }
    String[] f = value.split("\t", 3);
    if (key.startsWith(HOST_PREFIX)) {
      ps.hostLastFetch.merge(key.substring(HOST_PREFIX.length()), Long.parseLong(f[1]), Math::max);
      return;
    }
    int depth = Integer.parseInt(f[1]);
    if (f[0].equals("d")) {
      Entry e = new Entry(depth, null, true);
      if (f.length > 2 && !f[2].isEmpty()) {
        e.links = new ArrayList<>(List.of(f[2].split("\n")));
      }
      ps.urls.put(key, e);
    } else {
      Entry e = ps.urls.get(key);
      if (e == null || !e.done) {
        ps.urls.put(key, new Entry(depth, f.length > 2 && !f[2].isEmpty() ? f[2] : null, false));
      }
    }
  }

  /*
   * Stops handing out the partitions' URLs, then (on a revocation, not a loss) waits a bounded
   * time for their fetches to end and their outcomes to be acked, so that the next owner starts
   * from the last outcome and no host is fetched by two nodes at once.
   */
  private void handOver(Collection<TopicPartition> partitions, boolean wait) {
    List<PartitionState> leaving = new ArrayList<>();
    for (TopicPartition tp : partitions) {
      PartitionState ps = owned.get(tp.partition());
      if (ps != null) {
        ps.revoking = true;
        leaving.add(ps);
      }
    }
    deferred.removeIf(d -> partitions.stream().anyMatch(tp -> tp.partition() == d.partition));
    deferredCount = deferred.size();
    for (PartitionState ps : leaving) {
      List<String> hosts;
      synchronized (ps) {
        hosts = new ArrayList<>(ps.hosts);
      }
      hosts.forEach(frontier::fail);
    }
    wake.run();
    if (wait) {
      long deadline = System.nanoTime() + options.handoverTimeout().toNanos();
      while (System.nanoTime() < deadline && !(leaving.stream().allMatch(ps -> inFlight.get(ps.partition) == 0)
          && pendingCommits.getAsInt() == 0 && outboxPending.get() == 0)) {
        try {
          Thread.sleep(20);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          break;
        }
      }
      try {
        producer.flush();
      } catch (KafkaException e) {
        // the next owner fetches what was not acked again
      }
    }
    leaving.forEach(ps -> owned.remove(ps.partition));
    // outcomes not acked by now are the next owner's to fetch again: they no longer hold a slot here
    unsettled.removeIf(url -> leaving.stream().anyMatch(ps -> ps.partition == partition(UrlNormalizer.hostKey(url))));
    wake.run();
    console.println("krill crawl: node " + node + " handed over partitions "
        + partitions.stream().map(TopicPartition::partition).sorted().toList() + "; owns " + new TreeSet<>(owned.keySet()));
  }

  // ------------------------------------------------------------------ status thread

  private void statusLoop() {
    statusReader.assign(List.of(new TopicPartition(topics.status(), 0)));
    statusReader.seekToBeginning(List.of(new TopicPartition(topics.status(), 0)));
    while (!closing) {
      try {
        publish(finished ? "finished" : "crawling");
        readStatuses(Duration.ofMillis(STATUS_INTERVAL_MS));
        decide();
      } catch (KafkaException e) {
        idleSince = 0; // an outage: decide nothing until Kafka answers again
      }
    }
  }

  NodeStatus status(String state) {
    long fl = 0;
    for (int i = 0; i < inFlight.length(); i++) {
      fl += inFlight.get(i);
    }
    long q = queued();
    boolean idle = assignedOnce && q == 0 && fl == 0 && lag == 0 && outboxPending.get() == 0
        && pendingCommits.getAsInt() == 0 && deferredCount == 0;
    return new NodeStatus(node, state, System.currentTimeMillis(), started, new ArrayList<>(new TreeSet<>(owned.keySet())),
        q, fl, fetched.getAsLong(), errors.getAsLong(), lag == Long.MAX_VALUE ? -1 : lag, idle, bytesSent.get());
  }

  private long queued() {
    long q = 0;
    for (PartitionState ps : owned.values()) {
      synchronized (ps) {
        q += ps.pending;
      }
    }
    return q;
  }

  void publish(String state) {
    try {
      String json = JSON.writeValueAsString(status(state));
      producer.send(new ProducerRecord<>(topics.status(), 0, node, json));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  private void readStatuses(Duration wait) {
    for (ConsumerRecord<String, String> r : statusReader.poll(wait)) {
      NodeStatus s = parse(r.value());
      if (s != null) {
        synchronized (statuses) {
          statuses.put(s.node(), s);
        }
        ownership.seen(s);
      }
    }
  }

  static NodeStatus parse(String json) {
    if (json == null) {
      return null;
    }
    try {
      return JSON.readValue(json, NodeStatus.class);
    } catch (JsonProcessingException e) {
      return null; // not ours: ignored
    }
  }

  private void decide() {
    long now = System.currentTimeMillis();
    NodeStatus me = status("crawling");
    List<NodeStatus> live = new ArrayList<>();
    boolean someoneFinished = false;
    synchronized (statuses) {
      for (NodeStatus s : statuses.values()) {
        if (s.node().equals(node)) {
          continue;
        }
        if (s.state().equals("finished") && s.time() > started) {
          someoneFinished = true;
        }
        if (now - s.time() < LIVE_MS && s.state().equals("crawling")) {
          live.add(s);
        }
      }
    }
    live.add(me);
    Set<Integer> covered = new HashSet<>();
    boolean allIdle = true;
    long oldest = Long.MAX_VALUE;
    for (NodeStatus s : live) {
      covered.addAll(s.partitions());
      allIdle &= s.idle();
      oldest = Math.min(oldest, s.time());
    }
    if (me.idle() && someoneFinished) {
      finish();
      return;
    }
    if (allIdle && covered.size() == options.partitions()) {
      if (idleSince == 0) {
        idleSince = now;
      } else if (now - idleSince >= STABLE_MS && oldest > idleSince) {
        // every live node said "idle" again after the quiet period began: a node that died while
        // looking idle cannot confirm, so its partitions wait for their next owner
        finish();
      }
    } else {
      idleSince = 0;
    }
  }

  private void finish() {
    if (!finished) {
      finished = true;
      publish("finished");
      wake.run();
    }
  }

  // ------------------------------------------------------------------ lifecycle

  /**
   * The partition of a host key or URL this node holds or fetches: for {@code ip}, the one its
   * URLs were consumed from (never a DNS lookup: the dispatcher's strands call this).
   *
   * @return the partition, or -1 for a host of no partition seen here ({@code ip} only)
   */
  int partition(String hostKeyOrUrl) {
    if (options.partitionBy() != PartitionBy.IP) {
      return options.partitionBy().partition(hostKeyOrUrl, options.partitions());
    }
    return hostPartitions.getOrDefault(UrlNormalizer.hostKey(hostKeyOrUrl), -1);
  }

  /* The partition to send a URL to: for ip, its host resolved (once per host on this node) by the crawl's resolver. */
  private int destination(String url) {
    if (options.partitionBy() != PartitionBy.IP) {
      return options.partitionBy().partition(url, options.partitions());
    }
    String hostKey = UrlNormalizer.hostKey(url);
    Integer known = hostPartitions.get(hostKey);
    if (known != null) {
      return known;
    }
    String host = java.net.URI.create(hostKey).getHost();
    String bare = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
    String[] key = {bare}; // a host that does not resolve is keyed by its name: its owner records the DNS error
    DnsResolver resolver = this.resolver;
    try {
      Continuation.runOnThread(() -> {
        try {
          key[0] = resolver == null ? bare : resolver.resolveAll(bare).stream().map(InetAddress::getHostAddress).min(String::compareTo).orElse(bare);
        } catch (UnknownHostException e) {
          // keyed by name
        }
      });
    } catch (RuntimeException e) {
      // keyed by name
    }
    int p = PartitionBy.partitionOfKey(key[0], options.partitions());
    Integer first = hostPartitions.putIfAbsent(hostKey, p);
    return first != null ? first : p;
  }

  /** Publishes the last status, leaves the group (its partitions go to the other nodes) and closes the clients. */
  @Override
  public void close() {
    closing = true;
    join(outboxThread);
    if (statusThread != null) {
      join(statusThread);
    }
    consumer.wakeup();
    join(consumerThread);
    try {
      publish(finished ? "finished" : "left");
      producer.flush();
    } catch (KafkaException e) {
      // the broker is gone: the status ages out
    }
    closeQuietly(consumer);
    closeQuietly(restorer);
    closeQuietly(statusReader);
    producer.close(Duration.ofSeconds(10));
  }

  private static void join(Thread t) {
    if (t == null) {
      return;
    }
    try {
      t.join(TimeUnit.SECONDS.toMillis(60));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static void closeQuietly(KafkaConsumer<?, ?> c) {
    try {
      c.close(Duration.ofSeconds(10));
    } catch (KafkaException e) {
      // closing anyway
    }
  }
}
