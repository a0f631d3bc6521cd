package io.krill.transform.internal;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.IincInsnNode;
import org.objectweb.asm.tree.VarInsnNode;

/** Backward liveness of local variable slots over a method's control-flow graph. */
final class Liveness {
  private Liveness() {}

  /**
   * Computes, for each instruction, the slots that may be read later before being written.
   * An exception edge leaves from before the instruction, so its handler's live slots stay
   * live across the instruction's own store.
   *
   * @return per instruction index, the slots live right after it (over all its successors)
   */
  static BitSet[] liveOut(AbstractInsnNode[] code, List<int[]> normal, List<int[]> exceptional, int maxLocals) {
    int n = code.length;
    List<List<Integer>> succ = new ArrayList<>(n);
    List<List<Integer>> handlers = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      succ.add(new ArrayList<>(2));
      handlers.add(new ArrayList<>(1));
    }
    for (int[] e : normal) {
      succ.get(e[0]).add(e[1]);
    }
    for (int[] e : exceptional) {
      handlers.get(e[0]).add(e[1]);
    }
    BitSet[] in = new BitSet[n];
    BitSet[] out = new BitSet[n];
    for (int i = 0; i < n; i++) {
      in[i] = new BitSet(maxLocals);
      out[i] = new BitSet(maxLocals);
    }
    boolean changed = true;
    while (changed) {
      changed = false;
      for (int i = n - 1; i >= 0; i--) {
        BitSet o = new BitSet(maxLocals);
        for (int s : succ.get(i)) {
          o.or(in[s]);
        }
        BitSet exc = new BitSet(maxLocals);
        for (int h : handlers.get(i)) {
          exc.or(in[h]);
        }
        BitSet newIn = (BitSet) o.clone();
        AbstractInsnNode insn = code[i];
        int op = insn.getOpcode();
        if (insn instanceof VarInsnNode) {
          int var = ((VarInsnNode) insn).var;
          if (op >= Opcodes.ISTORE && op <= Opcodes.ASTORE) {
            newIn.clear(var);
          } else {
            newIn.set(var);
          }
        } else if (insn instanceof IincInsnNode) {
          newIn.set(((IincInsnNode) insn).var);
        }
        newIn.or(exc);
        o.or(exc);
        if (!newIn.equals(in[i]) || !o.equals(out[i])) {
          in[i] = newIn;
          out[i] = o;
          changed = true;
        }
      }
    }
    return out;
  }
}
