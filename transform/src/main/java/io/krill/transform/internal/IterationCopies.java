package io.krill.transform.internal;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.FrameNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.JumpInsnNode;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.LookupSwitchInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TableSwitchInsnNode;
import org.objectweb.asm.tree.TryCatchBlockNode;

/**
 * Copies of the rest of a loop iteration, from a suspendable call site inside loops to the
 * outermost loop's back edges, through which a restore resumes that call without entering any
 * loop anywhere but at its header (MethodWeaver, part 5).
 *
 * <p>A call site lies in the loops L0 (outermost) … Lk (innermost). The copy is made in
 * versions k … 0. Version k holds every instruction reachable from the restore's target
 * without passing a header of L0 … Lk: the rest of the iteration of every enclosing loop. A
 * jump in version v to the header of Lj, j ≤ v, goes to version j − 1, which starts at a copy
 * of that header and holds every instruction reachable from it without passing a header of
 * L0 … Lj−1 (the loop Lj whole, entered at its header, and the rest of the outer iterations);
 * a jump to L0's header goes to the original header, and a jump out of L0 to the original
 * code. Each version is entered at one place, and every loop in it at its header, so the
 * woven method keeps its loops reducible, and the original loops keep one entry and no test
 * of a resume index.
 */
final class IterationCopies {
  /** Real instructions a method may gain in copies; beyond it its loops resume through their headers. */
  static final int MAX_COPIED = 600;

  private IterationCopies() {}

  /**
   * @param from the call site's index
   * @param chain the loops around it, outermost first
   * @return the real instructions (opcode ≥ 0) the copies from {@code from} would hold
   */
  static int size(int from, List<Loops.Loop> chain, AbstractInsnNode[] code, List<List<Integer>> succ) {
    int k = chain.size() - 1;
    AbstractInsnNode[] headers = headers(chain, code);
    BitSet outer = chain.get(0).body;
    int n = 0;
    BitSet roots = new BitSet(); // versions to make: k, and j - 1 for each header of Lj a version jumps to
    roots.set(k);
    for (int v = k; v >= 0; v--) {
      if (!roots.get(v)) {
        continue;
      }
      BitSet seen = new BitSet();
      ArrayDeque<Integer> work = new ArrayDeque<>();
      int root = v == k ? from : chain.get(v + 1).header;
      work.add(root);
      seen.set(root);
      while (!work.isEmpty()) {
        int i = work.poll();
        if (code[i].getOpcode() >= 0) {
          n++;
        }
        for (int s : succ.get(i)) {
          int j = excluded(code[s], headers, v);
          if (j > 0) {
            roots.set(j - 1);
          } else if (j < 0 && outer.get(s) && !seen.get(s)) {
            seen.set(s);
            work.add(s);
          }
        }
      }
    }
    return n;
  }

  /**
   * Appends to {@code out} the copies of the iterations' rest from {@code roots}, and their
   * try-catch ranges to the method. Call it on the woven list before the appended blocks are
   * added: a jump to a label outside the list (a capture block) counts as leaving the loop.
   *
   * @param roots where the copy starts: the label the restore jumps to, and the handlers of the
   *     restore's own call (an exception it throws must not enter a loop past its header)
   * @param chain the loops around the call site, outermost first; each header is a label
   * @param original the method's instructions as analysed, whose indices {@code chain} uses
   * @return each label of version k (the one the roots start) mapped to its copy; any other
   *     label to itself
   */
  static Map<LabelNode, LabelNode> copy(MethodNode method, List<LabelNode> roots, List<Loops.Loop> chain,
      AbstractInsnNode[] original, InsnList out) {
    InsnList insns = method.instructions;
    AbstractInsnNode[] list = insns.toArray();
    Map<AbstractInsnNode, Integer> pos = new IdentityHashMap<>();
    for (int p = 0; p < list.length; p++) {
      pos.put(list[p], p);
    }
    // A woven node belongs to the outermost loop when the nearest analysed instruction at or before it does.
    Map<AbstractInsnNode, Integer> analysed = new IdentityHashMap<>();
    for (int i = 0; i < original.length; i++) {
      analysed.put(original[i], i);
    }
    BitSet outerBody = chain.get(0).body;
    boolean[] inBody = new boolean[list.length];
    int owner = -1;
    for (int p = 0; p < list.length; p++) {
      Integer i = analysed.get(list[p]);
      if (i != null) {
        owner = i;
      }
      inBody[p] = owner >= 0 && outerBody.get(owner);
    }
    int k = chain.size() - 1;
    AbstractInsnNode[] headers = headers(chain, original);

    // The versions' regions, innermost first: a version only jumps to lower ones.
    boolean[][] region = new boolean[k + 1][];
    List<Map<LabelNode, LabelNode>> labels = new ArrayList<>();
    for (int v = 0; v <= k; v++) {
      labels.add(new IdentityHashMap<>());
    }
    boolean[] needed = new boolean[k + 1];
    needed[k] = true;
    for (int v = k; v >= 0; v--) {
      if (!needed[v]) {
        continue;
      }
      boolean[] r = new boolean[list.length];
      region[v] = r;
      ArrayDeque<AbstractInsnNode> work = new ArrayDeque<>();
      for (AbstractInsnNode root : v == k ? roots : List.<AbstractInsnNode>of(headers[v + 1])) {
        Integer p = pos.get(root);
        if (p != null && inBody[p] && !r[p] && excluded(root, headers, v) < 0) {
          r[p] = true;
          work.add(root);
        }
      }
      while (!work.isEmpty()) {
        AbstractInsnNode n = work.poll();
        for (AbstractInsnNode s : successors(n, method, pos)) {
          Integer p = pos.get(s);
          if (p == null || !inBody[p] || r[p]) {
            continue;
          }
          int j = excluded(s, headers, v);
          if (j > 0) {
            needed[j - 1] = true;
          } else if (j < 0) {
            r[p] = true;
            work.add(s);
          }
        }
      }
      for (int p = 0; p < list.length; p++) {
        if (r[p] && list[p] instanceof LabelNode) {
          labels.get(v).put((LabelNode) list[p], new LabelNode());
        }
      }
    }

    for (int v = k; v >= 0; v--) {
      if (region[v] != null) {
        copyVersion(method, list, pos, region[v], mapper(labels, headers, v), out);
      }
    }
    Map<LabelNode, LabelNode> top = labels.get(k);
    return new IdentityHashMap<>(top) {
      @Override
      public LabelNode get(Object key) {
        LabelNode l = super.get(key);
        return l != null ? l : (LabelNode) key;
      }
    };
  }

  /* The header instructions of the chain's loops, outermost first. */
  private static AbstractInsnNode[] headers(List<Loops.Loop> chain, AbstractInsnNode[] code) {
    AbstractInsnNode[] headers = new AbstractInsnNode[chain.size()];
    for (int j = 0; j < headers.length; j++) {
      headers[j] = code[chain.get(j).header];
    }
    return headers;
  }

  /* j if n is the header of chain loop Lj with j ≤ v (a header version v does not hold), else -1. */
  private static int excluded(AbstractInsnNode n, AbstractInsnNode[] headers, int v) {
    for (int j = 0; j <= v; j++) {
      if (headers[j] == n) {
        return j;
      }
    }
    return -1;
  }

  /*
   * Where a label used in version v goes: its copy in v, the copy of a header of Lj (j ≤ v, j > 0)
   * in version j - 1, or (L0's header, code outside the loops) the original label.
   */
  private static Map<LabelNode, LabelNode> mapper(List<Map<LabelNode, LabelNode>> labels, AbstractInsnNode[] headers, int v) {
    return new IdentityHashMap<>() {
      @Override
      public LabelNode get(Object key) {
        LabelNode l = labels.get(v).get(key);
        if (l != null) {
          return l;
        }
        int j = excluded((AbstractInsnNode) key, headers, v);
        if (j > 0) {
          return labels.get(j - 1).get(key);
        }
        return (LabelNode) key;
      }
    };
  }

  private static void copyVersion(MethodNode method, AbstractInsnNode[] list, Map<AbstractInsnNode, Integer> pos,
      boolean[] region, Map<LabelNode, LabelNode> labels, InsnList out) {
    InsnList insns = method.instructions;
    List<AbstractInsnNode> from = new ArrayList<>();
    List<AbstractInsnNode> to = new ArrayList<>();
    for (int p = 0; p < list.length; p++) {
      if (!region[p] || list[p] instanceof FrameNode) {
        continue; // frames are recomputed
      }
      AbstractInsnNode c = list[p].clone(labels);
      out.add(c);
      from.add(list[p]);
      to.add(c);
      if (fallsThrough(list[p]) && (p + 1 >= list.length || !region[p + 1])) {
        out.add(new JumpInsnNode(Opcodes.GOTO, labels.get(labelBefore(insns, list[p + 1]))));
      }
    }

    List<TryCatchBlockNode> ranges = new ArrayList<>();
    for (TryCatchBlockNode t : method.tryCatchBlocks) {
      Integer start = pos.get(t.start);
      Integer end = pos.get(t.end);
      if (start == null || end == null) {
        continue; // a range of an earlier copy
      }
      int run = -1;
      for (int q = 0; q <= from.size(); q++) {
        boolean covered = q < from.size() && start <= pos.get(from.get(q)) && pos.get(from.get(q)) < end;
        if (covered && run < 0) {
          run = q;
        } else if (!covered && run >= 0) {
          LabelNode a = new LabelNode();
          LabelNode b = new LabelNode();
          out.insertBefore(to.get(run), a);
          out.insert(to.get(q - 1), b);
          ranges.add(new TryCatchBlockNode(a, b, labels.get(t.handler), t.type));
          run = -1;
        }
      }
    }
    method.tryCatchBlocks.addAll(ranges);
  }

  private static LabelNode labelBefore(InsnList insns, AbstractInsnNode n) {
    if (n instanceof LabelNode) {
      return (LabelNode) n;
    }
    LabelNode l = new LabelNode();
    insns.insertBefore(n, l);
    return l;
  }

  private static boolean fallsThrough(AbstractInsnNode n) {
    int op = n.getOpcode();
    return op != Opcodes.GOTO && op != Opcodes.ATHROW && !(op >= Opcodes.IRETURN && op <= Opcodes.RETURN)
        && !(n instanceof TableSwitchInsnNode) && !(n instanceof LookupSwitchInsnNode);
  }

  private static List<AbstractInsnNode> successors(AbstractInsnNode n, MethodNode method, Map<AbstractInsnNode, Integer> pos) {
    List<AbstractInsnNode> s = new ArrayList<>(2);
    if (n instanceof JumpInsnNode) {
      s.add(((JumpInsnNode) n).label);
    } else if (n instanceof TableSwitchInsnNode) {
      s.add(((TableSwitchInsnNode) n).dflt);
      s.addAll(((TableSwitchInsnNode) n).labels);
    } else if (n instanceof LookupSwitchInsnNode) {
      s.add(((LookupSwitchInsnNode) n).dflt);
      s.addAll(((LookupSwitchInsnNode) n).labels);
    }
    if (fallsThrough(n) && n.getNext() != null) {
      s.add(n.getNext());
    }
    int p = pos.get(n);
    for (TryCatchBlockNode t : method.tryCatchBlocks) {
      Integer start = pos.get(t.start);
      Integer end = pos.get(t.end);
      if (start != null && end != null && start <= p && p < end) { // not a range of an earlier copy
        s.add(t.handler);
      }
    }
    return s;
  }
}
