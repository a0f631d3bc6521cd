package io.krill.crawler.frontier;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * The link graph of the URLs a crawl knows, kept so that depth is the shortest link distance
 * from a seed whatever order the paths are found in: for every URL its sequence number, depth
 * and state, and for every fetched page its out-links as the sequence numbers of their targets.
 * Not thread-safe: the frontier guards it.
 */
final class DepthGraph {
  /*
   * Implementation notes. Nodes are indexed by their sequence number (the frontier's discovery
   * counter, also the journal's key), so an out-link costs 4 bytes. A link of weight 0 (a
   * redirect, or a sitemap entry, which keeps its parent's depth) is stored as the negated
   * target. When a node's depth drops, the frontier relaxes its out-links (see Frontier.relax);
   * depths only ever decrease, so the relaxation ends, and after it every node holds the
   * smallest depth over the paths known: the shortest-path distance of the graph crawled so far.
   */

  /** Queued in a host queue (or claimed by a redirect and not yet fetched). */
  static final byte QUEUED = 1;
  /** Found beyond --max-depth: remembered, not queued. */
  static final byte DEFERRED = 2;
  /** Handed out, fetched or completed: its depth may still drop, its links are known once committed. */
  static final byte TAKEN = 3;

  /* Bytes charged to the seen-set's budget per node and per link (map node, key reference, arrays). */
  static final int NODE_BYTES = 64;
  static final int LINK_BYTES = 4;

  private static final int[] NONE = new int[0];

  private final Map<String, Integer> ids = new HashMap<>();
  private String[] urls = new String[1024];
  private String[] parents = new String[1024];
  private int[] depth = new int[1024];
  private byte[] state = new byte[1024];
  private int[][] out = new int[1024][];

  /** @return the node's sequence number, or -1 if unknown */
  int id(String url) {
    Integer i = ids.get(url);
    return i == null ? -1 : i;
  }

  /**
   * Adds or updates a node.
   *
   * @return false if the sequence number does not fit (the graph cannot hold it)
   */
  boolean put(long seq, String url, String parent, int d, byte s) {
    if (seq <= 0 || seq >= Integer.MAX_VALUE - 8) {
      return false;
    }
    int i = (int) seq;
    if (i >= urls.length) {
      int n = Math.max(i + 1, urls.length * 2);
      urls = Arrays.copyOf(urls, n);
      parents = Arrays.copyOf(parents, n);
      depth = Arrays.copyOf(depth, n);
      state = Arrays.copyOf(state, n);
      out = Arrays.copyOf(out, n);
    }
    if (urls[i] == null) {
      ids.put(url, i);
      urls[i] = url;
      depth[i] = d;
    } else {
      depth[i] = Math.min(depth[i], d);
    }
    parents[i] = parent;
    state[i] = s;
    return true;
  }

  /** Appends out-links (negated: weight 0). */
  void link(int from, int[] targets) {
    int[] old = out[from];
    if (old == null || old.length == 0) {
      out[from] = targets;
      return;
    }
    int[] all = Arrays.copyOf(old, old.length + targets.length);
    System.arraycopy(targets, 0, all, old.length, targets.length);
    out[from] = all;
  }

  String url(int i) {
    return urls[i];
  }

  String parent(int i) {
    return parents[i];
  }

  void parent(int i, String p) {
    parents[i] = p;
  }

  int depth(int i) {
    return depth[i];
  }

  void depth(int i, int d) {
    depth[i] = d;
  }

  byte state(int i) {
    return state[i];
  }

  void state(int i, byte s) {
    state[i] = s;
  }

  int[] out(int i) {
    int[] o = out[i];
    return o == null ? NONE : o;
  }

  /** @return the highest index in use plus one */
  int limit() {
    return urls.length;
  }
}
