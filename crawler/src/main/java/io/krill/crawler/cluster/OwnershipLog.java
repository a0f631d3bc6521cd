package io.krill.crawler.cluster;

import io.krill.crawler.CrawlView;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The cluster part of a node's {@link CrawlView}: which node owns which partition and how that
 * changed, read only from the node statuses the status topic carries. A partition's owner is the
 * last node whose status claims it; a claim older than the current owner's is ignored (statuses
 * of different nodes may arrive out of order), and a node's status that no longer lists a
 * partition releases it, so the next claim shows the move from the node that gave it up (a
 * cooperative rebalance revokes before it assigns). A node that stops reporting keeps its
 * partitions until another node claims them: that claim is the takeover.
 *
 * <p>Bounded: the last {@link #MAX_CHANGES} changes and at most {@link #MAX_NODES} nodes (the
 * oldest silent ones that own nothing go first). Thread-safe: the status thread reports, any
 * thread reads.
 */
final class OwnershipLog implements CrawlView.Cluster {
  /** Ownership changes kept, newest last. */
  static final int MAX_CHANGES = 200;
  /** Nodes kept; a crawl id restarted many times sees a new node name per run. */
  static final int MAX_NODES = 64;

  private final String self;
  private final long startedMillis;
  private final long liveMillis;
  private final Map<String, Report> latest = new HashMap<>();
  private final Map<Integer, String> owner = new HashMap<>();
  private final Map<Integer, Long> since = new HashMap<>();
  private final Map<Integer, String> released = new HashMap<>();
  private final ArrayDeque<CrawlView.OwnershipChange> changes = new ArrayDeque<>();

  /**
   * @param self this node's name
   * @param startedMillis when this node joined (epoch ms): the zero of the changes' times;
   *     statuses from before it set the owners without being listed as changes
   * @param liveMillis how long a node's last status keeps it alive
   */
  OwnershipLog(String self, long startedMillis, long liveMillis) {
    this.self = self;
    this.startedMillis = startedMillis;
    this.liveMillis = liveMillis;
  }

  /** What the log keeps of a node's status. */
  private record Report(String node, String state, long time, List<Integer> partitions) {}

  /** Takes one status read from the status topic. */
  void seen(NodeStatus s) {
    seen(s.node(), s.state(), s.time(), s.partitions());
  }

  /**
   * Takes one node's report.
   *
   * @param node the node
   * @param state its state ({@code crawling}, {@code finished}, {@code left})
   * @param time when it reported (epoch ms)
   * @param partitions the partitions it owns
   */
  synchronized void seen(String node, String state, long time, List<Integer> partitions) {
    Report s = new Report(node, state, time, List.copyOf(partitions));
    Report prev = latest.get(s.node());
    if (prev != null && prev.time() >= s.time()) {
      return;
    }
    latest.put(s.node(), s);
    Set<Integer> claimed = new HashSet<>(s.partitions());
    for (int p : s.partitions()) {
      String o = owner.get(p);
      Long t = since.get(p);
      if (s.node().equals(o) || (t != null && t > s.time())) {
        continue;
      }
      String from = o != null ? o : released.get(p);
      owner.put(p, s.node());
      since.put(p, s.time());
      released.remove(p);
      if (s.time() >= startedMillis) {
        changes.addLast(new CrawlView.OwnershipChange((s.time() - startedMillis) / 1000.0, p, from, s.node()));
        if (changes.size() > MAX_CHANGES) {
          changes.removeFirst();
        }
      }
    }
    for (Map.Entry<Integer, String> e : new ArrayList<>(owner.entrySet())) {
      if (e.getValue().equals(s.node()) && !claimed.contains(e.getKey())) {
        owner.remove(e.getKey());
        released.put(e.getKey(), s.node());
      }
    }
    if (latest.size() > MAX_NODES) {
      forgetOneNode(System.currentTimeMillis());
    }
  }

  private void forgetOneNode(long now) {
    Report oldest = null;
    for (Report n : latest.values()) {
      if (!alive(n, now) && !owner.containsValue(n.node()) && (oldest == null || n.time() < oldest.time())) {
        oldest = n;
      }
    }
    if (oldest != null) {
      latest.remove(oldest.node());
    }
  }

  private boolean alive(Report s, long now) {
    return s.state().equals("crawling") && now - s.time() < liveMillis;
  }

  @Override
  public synchronized List<CrawlView.Node> nodes() {
    long now = System.currentTimeMillis();
    Map<String, List<Integer>> owns = new TreeMap<>();
    latest.keySet().forEach(n -> owns.put(n, new ArrayList<>()));
    new TreeMap<>(owner).forEach((p, n) -> owns.computeIfAbsent(n, k -> new ArrayList<>()).add(p));
    List<CrawlView.Node> out = new ArrayList<>();
    owns.forEach((n, ps) -> {
      Report s = latest.get(n);
      boolean alive = s != null && alive(s, now);
      String state = s == null ? "silent" : alive || !s.state().equals("crawling") ? s.state() : "silent";
      out.add(new CrawlView.Node(n, List.copyOf(ps), alive, state, n.equals(self)));
    });
    return out;
  }

  @Override
  public synchronized List<CrawlView.OwnershipChange> ownership() {
    return List.copyOf(changes);
  }
}
