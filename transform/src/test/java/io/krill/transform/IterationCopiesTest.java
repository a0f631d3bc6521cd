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
 * A call site directly inside an outermost loop resumes through a copy of the rest of its
 * iteration: the loop's cycle holds the call and nothing of the restore, so the loop has no
 * resume test and no restore path returning into it.
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
      "    for (int r = 0; r < rows; r++) { for (int i = 0; i < a.length; i++) { sum += step(a[i] ^ r); } }",
      "    return sum;",
      "  }",
      "}");

  private static final String ENTRY_DESC = "(ILio/krill/fibers/Stack;B)I";

  /* The loop's strongly connected part holds the normal call only; the restore's own call lies outside it. */
  @Test
  void weave_callInAnOutermostLoop_restoreLiesOutsideTheLoopsCycle() throws Exception {
    Map<String, byte[]> woven = WeaverTest.weaveAll(TestCompiler.compile(LOOPS));

    for (String name : List.of("tight", "caught")) {
      MethodNode m = method(woven.get("t/Loops"), name, "([I" + "Lio/krill/fibers/Stack;B)J");
      List<Integer> calls = stepCalls(m);
      assertThat(calls).as(name + ": the normal call and the restore's").hasSize(2);
      BitSet cycle = cycleThrough(m, calls.get(0));
      assertThat(cycle.get(calls.get(1))).as(name + ": the restore's call is outside the loop").isFalse();
      assertThat(cycle.get(calls.get(0))).isTrue();
    }
  }

  /* A call in an inner loop still resumes through the headers: the restore's call is in the outer loop's cycle. */
  @Test
  void weave_callInAnInnerLoop_resumesThroughTheHeaders() throws Exception {
    Map<String, byte[]> woven = WeaverTest.weaveAll(TestCompiler.compile(LOOPS));

    MethodNode m = method(woven.get("t/Loops"), "nested", "([II" + "Lio/krill/fibers/Stack;B)J");
    List<Integer> calls = stepCalls(m);
    assertThat(calls).hasSize(2);
    assertThat(cycleThrough(m, calls.get(0)).get(calls.get(1))).isTrue();
  }

  private static List<Integer> stepCalls(MethodNode m) {
    List<Integer> out = new ArrayList<>();
    AbstractInsnNode[] code = m.instructions.toArray();
    for (int i = 0; i < code.length; i++) {
      if (code[i] instanceof MethodInsnNode) {
        MethodInsnNode c = (MethodInsnNode) code[i];
        if (c.name.equals("step") && c.desc.equals(ENTRY_DESC)) {
          out.add(i);
        }
      }
    }
    return out;
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
