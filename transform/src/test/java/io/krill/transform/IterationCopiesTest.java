package io.krill.transform;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.analysis.Analyzer;
import org.objectweb.asm.tree.analysis.AnalyzerException;
import org.objectweb.asm.tree.analysis.BasicInterpreter;
import org.objectweb.asm.tree.analysis.BasicValue;

/**
 * A call site inside loops resumes through a copy of the rest of its iteration: the loops'
 * cycles hold the call and nothing of the restore, so they have no resume test and no restore
 * path returning into them; past the copies' bound a loop resumes through its header.
 */
class IterationCopiesTest {
  private static final String LOOPS = String.join("\n",
      "package t;",
      "import io.krill.fibers.Suspendable;",
      "import io.krill.fibers.Primitive;",
      "public class Loops {",
      "  @Primitive static void park() throws Suspendable {}",
      "  static int step(int x) throws Suspendable { if (x < 0) { park(); } return x + 1; }",
      "  static long tight(int[] a) throws Suspendable {",
      "    long sum = 0;",
      "    for (int i = 0; i < a.length; i++) { sum += step(a[i]); }",
      "    return sum;",
      "  }",
      "  static long caught(int[] a) throws Suspendable {",
      "    long sum = 0;",
      "    for (int i = 0; i < a.length; i++) {",
      "      try { sum += step(a[i]); } catch (IllegalStateException e) { sum -= 1; }",
      "    }",
      "    return sum;",
      "  }",
      "  static long nested(int[] a, int rows) throws Suspendable {",
      "    long sum = 0;",
      "    for (int r = 0; r < rows; r++) { for (int i = 0; i < a.length; i++) { sum += step(a[i] ^ r); } sum *= 3; }",
      "    return sum;",
      "  }",
      "  static long large(int[] a) throws Suspendable {",
      "    long sum = 0;",
      "    for (int i = 0; i < a.length; i++) {",
      largeBody(),
      "    }",
      "    return sum;",
      "  }",
      "}");

  /* Forty call sites in one loop: each copy holds the rest of the iteration, far more than the bound. */
  private static String largeBody() {
    StringBuilder b = new StringBuilder();
    for (int k = 0; k < 40; k++) {
      b.append("      sum += step(a[i] + ").append(k).append(");\n");
    }
    return b.toString();
  }

  private static final String ENTRY_DESC = "(ILio/krill/fibers/Stack;B)I";

  /* The loop's strongly connected part holds the normal call only; the restore's own call lies outside it. */
  @Test
  void weave_callInAnOutermostLoop_restoreLiesOutsideTheLoopsCycle() throws Exception {
    Map<String, byte[]> woven = WeaverTest.weaveAll(TestCompiler.compile(LOOPS));

    for (String name : List.of("tight", "caught", "nested")) {
      MethodNode m = method(woven.get("t/Loops"), name,
          name.equals("nested") ? "([II" + "Lio/krill/fibers/Stack;B)J" : "([I" + "Lio/krill/fibers/Stack;B)J");
      List<Integer> normal = stepCalls(m, 0);
      List<Integer> restores = stepCalls(m, 1);
      assertThat(restores).as(name + ": the restore's own call").hasSize(1);
      BitSet cycle = cycleThrough(m, normal.get(0)); // the original call: copies are appended after the code
      assertThat(cycle.get(restores.get(0))).as(name + ": the restore's call is outside the loops").isFalse();
    }
  }

  /* Copies past the bound: the loop resumes through its header, so the restore's call is in its cycle. */
  @Test
  void weave_copiesPastTheBound_resumeThroughTheHeader() throws Exception {
    Map<String, byte[]> woven = WeaverTest.weaveAll(TestCompiler.compile(LOOPS));

    MethodNode m = method(woven.get("t/Loops"), "large", "([I" + "Lio/krill/fibers/Stack;B)J");
    List<Integer> restores = stepCalls(m, 1);
    assertThat(restores).hasSize(40);
    BitSet cycle = cycleThrough(m, stepCalls(m, 0).get(0));
    assertThat(restores.stream().filter(cycle::get)).as("every restore's call lies in the loop").hasSize(40);
  }

  /* The calls of step's entry that pass the flow given: 0 (a normal call) or 1 (a restore's own call). */
  private static List<Integer> stepCalls(MethodNode m, int flow) {
    List<Integer> out = new ArrayList<>();
    AbstractInsnNode[] code = m.instructions.toArray();
    for (int i = 0; i < code.length; i++) {
      if (code[i] instanceof MethodInsnNode) {
        MethodInsnNode c = (MethodInsnNode) code[i];
        if (c.name.equals("step") && c.desc.equals(ENTRY_DESC) && previous(code[i]).getOpcode() == Opcodes.ICONST_0 + flow) {
          out.add(i);
        }
      }
    }
    return out;
  }

  private static AbstractInsnNode previous(AbstractInsnNode n) {
    AbstractInsnNode p = n.getPrevious();
    while (p.getOpcode() < 0) { // a label of the restore's own try range
      p = p.getPrevious();
    }
    return p;
  }

  /* The instructions on a cycle through instruction from: reachable from it, and reaching it. */
  private static BitSet cycleThrough(MethodNode m, int from) throws AnalyzerException {
    int n = m.instructions.size();
    List<List<Integer>> succ = new ArrayList<>();
    List<List<Integer>> pred = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      succ.add(new ArrayList<>());
      pred.add(new ArrayList<>());
    }
    new Analyzer<BasicValue>(new BasicInterpreter()) {
      @Override
      protected void newControlFlowEdge(int insn, int successor) {
        succ.get(insn).add(successor);
        pred.get(successor).add(insn);
      }

      @Override
      protected boolean newControlFlowExceptionEdge(int insn, int successor) {
        succ.get(insn).add(successor);
        pred.get(successor).add(insn);
        return true;
      }
    }.analyze("t/Loops", m);
    BitSet forward = reach(from, succ);
    forward.and(reach(from, pred));
    return forward;
  }

  private static BitSet reach(int from, List<List<Integer>> edges) {
    BitSet seen = new BitSet();
    java.util.ArrayDeque<Integer> work = new java.util.ArrayDeque<>();
    for (int s : edges.get(from)) {
      if (!seen.get(s)) {
        seen.set(s);
        work.add(s);
      }
    }
    while (!work.isEmpty()) {
      for (int s : edges.get(work.poll())) {
        if (!seen.get(s)) {
          seen.set(s);
          work.add(s);
        }
      }
    }
    return seen;
  }

  private static MethodNode method(byte[] classFile, String name, String desc) {
    ClassNode cn = new ClassNode();
    new ClassReader(classFile).accept(cn, ClassReader.SKIP_DEBUG);
    return cn.methods.stream().filter(x -> x.name.equals(name) && x.desc.equals(desc)).findFirst().orElseThrow();
  }
}
