package io.krill.transform.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.IincInsnNode;
import org.objectweb.asm.tree.InsnNode;
import org.objectweb.asm.tree.VarInsnNode;

class LivenessTest {
  @Test
  void liveOut_straightLine_slotLiveFromStoreToLastRead() {
    AbstractInsnNode[] code = {
      new InsnNode(Opcodes.ICONST_1),          // 0
      new VarInsnNode(Opcodes.ISTORE, 1),      // 1
      new VarInsnNode(Opcodes.ILOAD, 1),       // 2
      new VarInsnNode(Opcodes.ISTORE, 2),      // 3
      new VarInsnNode(Opcodes.ILOAD, 2),       // 4
      new InsnNode(Opcodes.IRETURN),           // 5
    };

    BitSet[] out = Liveness.liveOut(code, sequential(code.length), List.of(), 3);

    assertThat(out[0]).isEqualTo(slots());
    assertThat(out[1]).isEqualTo(slots(1));
    assertThat(out[2]).isEqualTo(slots());
    assertThat(out[3]).isEqualTo(slots(2));
    assertThat(out[5]).isEqualTo(slots());
  }

  @Test
  void liveOut_loopBackEdge_keepsCounterLiveAroundLoop() {
    AbstractInsnNode[] code = {
      new VarInsnNode(Opcodes.ILOAD, 1),       // 0: loop head reads the counter
      new InsnNode(Opcodes.POP),               // 1: (ifeq 4 in the CFG below)
      new IincInsnNode(1, -1),                 // 2
      new InsnNode(Opcodes.NOP),               // 3: goto 0
      new InsnNode(Opcodes.RETURN),            // 4
    };
    List<int[]> edges = new ArrayList<>();
    edges.add(new int[] {0, 1});
    edges.add(new int[] {1, 2});
    edges.add(new int[] {1, 4});
    edges.add(new int[] {2, 3});
    edges.add(new int[] {3, 0});

    BitSet[] out = Liveness.liveOut(code, edges, List.of(), 2);

    assertThat(out[2]).as("after iinc, the back edge reaches the read").isEqualTo(slots(1));
    assertThat(out[3]).isEqualTo(slots(1));
    assertThat(out[4]).isEqualTo(slots());
  }

  @Test
  void liveOut_storeCoveredByHandlerThatReadsSlot_keepsSlotLive() {
    AbstractInsnNode[] code = {
      new InsnNode(Opcodes.ACONST_NULL),       // 0: try
      new VarInsnNode(Opcodes.ASTORE, 3),      // 1: try, overwrites slot 3
      new InsnNode(Opcodes.RETURN),            // 2
      new VarInsnNode(Opcodes.ALOAD, 3),       // 3: handler reads slot 3
      new InsnNode(Opcodes.ARETURN),           // 4
    };
    List<int[]> normal = List.of(new int[] {0, 1}, new int[] {1, 2}, new int[] {3, 4});
    List<int[]> exceptional = List.of(new int[] {0, 3}, new int[] {1, 3});

    BitSet[] out = Liveness.liveOut(code, normal, exceptional, 4);

    assertThat(out[0]).isEqualTo(slots(3));
    assertThat(out[1]).as("the handler may run before the store completes").isEqualTo(slots(3));
    assertThat(out[2]).isEqualTo(slots());
  }

  private static List<int[]> sequential(int n) {
    List<int[]> edges = new ArrayList<>();
    for (int i = 0; i + 1 < n; i++) {
      edges.add(new int[] {i, i + 1});
    }
    return edges;
  }

  private static BitSet slots(int... indexes) {
    BitSet b = new BitSet();
    for (int i : indexes) {
      b.set(i);
    }
    return b;
  }
}
