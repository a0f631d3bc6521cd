package io.krill.transform.internal;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Comparator;
import java.util.List;

/**
 * The natural loops of a method's control-flow graph, over instruction indices, with normal
 * and exception edges.
 *
 * <p>The weaver needs them to keep a woven method's loops reducible: a restore must enter a
 * loop through its header, never into its body.
 */
final class Loops {
  /** One natural loop: its header, its members and the loop that encloses it. */
  static final class Loop {
    final int header;
    final BitSet body;
    Loop parent;

    Loop(int header, BitSet body) {
      this.header = header;
      this.body = body;
    }
  }

  private final Loop[] innermost;

  private Loops(Loop[] innermost) {
    this.innermost = innermost;
  }

  /**
   * @return the loops that contain instruction {@code insn}, outermost first (empty if none)
   */
  List<Loop> chain(int insn) {
    List<Loop> out = new ArrayList<>();
    for (Loop l = innermost[insn]; l != null; l = l.parent) {
      out.add(0, l);
    }
    return out;
  }

  /**
   * Finds the natural loops.
   *
   * @param n the number of instructions; instruction 0 is the entry
   * @param normal normal edges {from, to}
   * @param exceptional exception edges {from, handler}
   * @return the loops, or null if the graph is already irreducible (no loop structure to keep)
   */
  static Loops find(int n, List<int[]> normal, List<int[]> exceptional) {
    List<List<Integer>> succ = new ArrayList<>(n);
    List<List<Integer>> pred = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      succ.add(new ArrayList<>(2));
      pred.add(new ArrayList<>(2));
    }
    for (List<int[]> edges : List.of(normal, exceptional)) {
      for (int[] e : edges) {
        succ.get(e[0]).add(e[1]);
        pred.get(e[1]).add(e[0]);
      }
    }

    // Reverse post-order by an iterative depth-first search from the entry.
    int[] rpo = new int[n];
    Arrays.fill(rpo, -1);
    int[] order = new int[n];
    int count = 0;
    if (n > 0) {
      boolean[] seen = new boolean[n];
      int[] stack = new int[n];
      int[] next = new int[n];
      int sp = 0;
      stack[sp++] = 0;
      seen[0] = true;
      List<Integer> post = new ArrayList<>(n);
      while (sp > 0) {
        int v = stack[sp - 1];
        List<Integer> s = succ.get(v);
        if (next[v] < s.size()) {
          int w = s.get(next[v]++);
          if (!seen[w]) {
            seen[w] = true;
            stack[sp++] = w;
          }
        } else {
          sp--;
          post.add(v);
        }
      }
      count = post.size();
      for (int k = 0; k < count; k++) {
        int v = post.get(count - 1 - k);
        order[k] = v;
        rpo[v] = k;
      }
    }

    // Immediate dominators (Cooper, Harvey and Kennedy's iterative algorithm).
    int[] idom = new int[n];
    Arrays.fill(idom, -1);
    if (count > 0) {
      idom[order[0]] = order[0];
    }
    boolean changed = true;
    while (changed) {
      changed = false;
      for (int k = 1; k < count; k++) {
        int v = order[k];
        int d = -1;
        for (int p : pred.get(v)) {
          if (rpo[p] < 0 || idom[p] < 0) {
            continue;
          }
          d = d < 0 ? p : intersect(p, d, idom, rpo);
        }
        if (d >= 0 && idom[v] != d) {
          idom[v] = d;
          changed = true;
        }
      }
    }

    // Back edges: to a dominator. A retreating edge to a non-dominator means irreducible.
    List<List<Integer>> latches = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      latches.add(null);
    }
    for (int u = 0; u < n; u++) {
      if (rpo[u] < 0) {
        continue;
      }
      for (int v : succ.get(u)) {
        if (rpo[v] > rpo[u]) {
          continue;
        }
        if (!dominates(v, u, idom)) {
          return null;
        }
        if (latches.get(v) == null) {
          latches.set(v, new ArrayList<>(1));
        }
        latches.get(v).add(u);
      }
    }

    List<Loop> loops = new ArrayList<>();
    for (int h = 0; h < n; h++) {
      List<Integer> ls = latches.get(h);
      if (ls == null) {
        continue;
      }
      BitSet body = new BitSet(n);
      body.set(h);
      ArrayDeque<Integer> work = new ArrayDeque<>();
      for (int l : ls) {
        if (!body.get(l)) {
          body.set(l);
          work.add(l);
        }
      }
      while (!work.isEmpty()) {
        int v = work.poll();
        for (int p : pred.get(v)) {
          if (rpo[p] >= 0 && !body.get(p)) {
            body.set(p);
            work.add(p);
          }
        }
      }
      loops.add(new Loop(h, body));
    }

    // Nesting: visiting loops from the largest, each instruction's innermost loop is the last
    // that claims it, and a loop's parent is the innermost loop claiming its header before it.
    loops.sort(Comparator.comparingInt((Loop l) -> l.body.cardinality()).reversed());
    Loop[] innermost = new Loop[n];
    for (Loop l : loops) {
      l.parent = innermost[l.header];
      for (int i = l.body.nextSetBit(0); i >= 0; i = l.body.nextSetBit(i + 1)) {
        innermost[i] = l;
      }
    }
    return new Loops(innermost);
  }

  private static int intersect(int a, int b, int[] idom, int[] rpo) {
    while (a != b) {
      while (rpo[a] > rpo[b]) {
        a = idom[a];
      }
      while (rpo[b] > rpo[a]) {
        b = idom[b];
      }
    }
    return a;
  }

  private static boolean dominates(int d, int v, int[] idom) {
    for (int x = v; ; x = idom[x]) {
      if (x == d) {
        return true;
      }
      if (idom[x] == x || idom[x] < 0) {
        return false;
      }
    }
  }
}
