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
 * Copies of the rest of a loop iteration, from a suspendable call site inside the loop to the
 * loop's back edges, through which a restore resumes that call without entering the loop
 * anywhere but at its header (MethodWeaver, note 5).
 *
 * <p>A copy holds every instruction reachable from the call site's resume label without passing
 * the loop's header or leaving its body; its jumps to the header and out of the loop go to the
 * original code. Entered only by the restore, it is straight-line code up to those jumps (an
 * inner loop it holds is copied whole and entered at its own header's copy), so the loop keeps
 * one entry, its header, and no test of a resume index on its iterations.
 */
final class IterationCopies {
  /** Real instructions a method may gain in copies; beyond it its loops resume through their headers. */
  static final int MAX_COPIED = 600;

  private IterationCopies() {}

  /**
   * @param from the call site's index
   * @param loop the loop around it (outermost)
   * @return the real instructions (opcode ≥ 0) a copy from {@code from} would hold
   */
  static int size(int from, Loops.Loop loop, AbstractInsnNode[] code, List<List<Integer>> succ) {
    BitSet seen = new BitSet();
    ArrayDeque<Integer> work = new ArrayDeque<>();
    work.add(from);
    seen.set(from);
    int n = 0;
    while (!work.isEmpty()) {
      int i = work.poll();
      if (code[i].getOpcode() >= 0) {
        n++;
      }
      for (int s : succ.get(i)) {
        if (s != loop.header && loop.body.get(s) && !seen.get(s)) {
          seen.set(s);
          work.add(s);
        }
      }
    }
    return n;
  }

  /**
   * Appends to {@code out} a copy of the iteration's rest from {@code roots}, and the copy's
   * try-catch ranges to the method. Call it on the woven list before the appended blocks are
   * added: a jump to a label outside the list (a capture block) counts as leaving the loop.
   *
   * @param original the method's instructions as analysed, whose indices {@code loop} uses
   * @param roots where the copy starts: the label the restore jumps to, and the handlers of the
   *     restore's own call (an exception it throws must not enter the loop past its header)
   * @return each copied label's copy; a label not copied maps to itself
   */
  static Map<LabelNode, LabelNode> copy(MethodNode method, List<LabelNode> roots, Loops.Loop loop, AbstractInsnNode[] original,
      InsnList out) {
    InsnList insns = method.instructions;
    AbstractInsnNode[] list = insns.toArray();
    Map<AbstractInsnNode, Integer> pos = new IdentityHashMap<>();
    for (int p = 0; p < list.length; p++) {
      pos.put(list[p], p);
    }
    // A woven node belongs to the loop when the nearest analysed instruction at or before it does.
    Map<AbstractInsnNode, Integer> analysed = new IdentityHashMap<>();
    for (int i = 0; i < original.length; i++) {
      analysed.put(original[i], i);
    }
    boolean[] inBody = new boolean[list.length];
    int owner = -1;
    for (int p = 0; p < list.length; p++) {
      Integer i = analysed.get(list[p]);
      if (i != null) {
        owner = i;
      }
      inBody[p] = owner >= 0 && loop.body.get(owner);
    }
    AbstractInsnNode header = original[loop.header];

    boolean[] region = new boolean[list.length];
    ArrayDeque<AbstractInsnNode> work = new ArrayDeque<>();
    for (LabelNode root : roots) {
      Integer p = pos.get(root);
      if (p != null && inBody[p] && !region[p]) {
        region[p] = true;
        work.add(root);
      }
    }
    while (!work.isEmpty()) {
      AbstractInsnNode n = work.poll();
      for (AbstractInsnNode s : successors(n, method, pos)) {
        Integer p = pos.get(s);
        if (p == null || s == header || !inBody[p] || region[p]) {
          continue;
        }
        region[p] = true;
        work.add(s);
      }
    }

    Map<LabelNode, LabelNode> labels = new IdentityHashMap<>() {
      @Override
      public LabelNode get(Object key) {
        LabelNode l = super.get(key);
        return l != null ? l : (LabelNode) key; // outside the copy: the original label
      }
    };
    for (int p = 0; p < list.length; p++) {
      if (region[p] && list[p] instanceof LabelNode) {
        labels.put((LabelNode) list[p], new LabelNode());
      }
    }
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
        out.add(new JumpInsnNode(Opcodes.GOTO, labelBefore(insns, list[p + 1])));
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
      for (int k = 0; k <= from.size(); k++) {
        boolean covered = k < from.size() && start <= pos.get(from.get(k)) && pos.get(from.get(k)) < end;
        if (covered && run < 0) {
          run = k;
        } else if (!covered && run >= 0) {
          LabelNode a = new LabelNode();
          LabelNode b = new LabelNode();
          out.insertBefore(to.get(run), a);
          out.insert(to.get(k - 1), b);
          ranges.add(new TryCatchBlockNode(a, b, labels.get(t.handler), t.type));
          run = -1;
        }
      }
    }
    method.tryCatchBlocks.addAll(ranges);
    return labels;
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
