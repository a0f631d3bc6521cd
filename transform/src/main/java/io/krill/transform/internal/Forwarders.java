package io.krill.transform.internal;

import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.VarInsnNode;

/**
 * Recognizes a pure forwarding method: one that needs no saved frame and is left as compiled.
 */
final class Forwarders {
  /*
   * Implementation notes.
   *
   * A forwarding method loads its own parameters (each at most cast or widened), makes its only
   * suspendable call and returns the result (at most cast or boxed). Such a method has nothing
   * to save: on a resume it simply runs again up to the call, which restores itself from its
   * own frame; the parameters it passes on are the dummies its caller passed, which the callee
   * ignores as every woven callee does. Two things would make the rerun differ:
   * - A receiver computed from a parameter: on a resume the parameters are zeros and nulls. So
   *   the call is static or its receiver is `this` (slot 0, never written here), which the
   *   caller supplies on a resume as on the first call.
   * - A side effect or a failure that depends on the dummies (a field read, an unboxing of a
   *   null, an allocation): only loads, casts and primitive widenings pass. A constant is not
   *   a parameter: a lambda that passes one (`() -> park("the left fork")`) is code whose name
   *   a fiber dump should show, so it keeps its frame.
   * After the call, a capture returns the callee's dummy result (a null passes a cast; boxing a
   * zero takes a cached box) straight to the caller, which saves its own frame.
   * The method is still listed in the class's woven marker, so the runtime verifier accepts a
   * suspension through it.
   */
  private static final java.util.Set<String> BOXES = java.util.Set.of("java/lang/Boolean", "java/lang/Character",
      "java/lang/Byte", "java/lang/Short", "java/lang/Integer", "java/lang/Long", "java/lang/Float",
      "java/lang/Double");

  private Forwarders() {}

  /**
   * Whether {@code m} is a pure forwarding method whose only suspendable call is {@code call}.
   *
   * @param m a method with exactly one suspendable call site
   * @param call that call
   * @return true when the method needs no saved frame
   */
  static boolean isPure(MethodNode m, MethodInsnNode call) {
    if (!m.tryCatchBlocks.isEmpty() || (m.access & Opcodes.ACC_SYNCHRONIZED) != 0) {
      return false;
    }
    boolean isStatic = (m.access & Opcodes.ACC_STATIC) != 0;
    int paramSlots = Type.getArgumentsAndReturnSizes(m.desc) >> 2;
    if (isStatic) {
      paramSlots--;
    }
    int pushed = 0;
    boolean receiverIsThis = false;
    AbstractInsnNode insn = m.instructions.getFirst();
    for (; insn != null && insn != call; insn = insn.getNext()) {
      int op = insn.getOpcode();
      if (op < 0) {
        continue; // label, line number, frame
      }
      if (op >= Opcodes.ILOAD && op <= Opcodes.ALOAD) {
        int slot = ((VarInsnNode) insn).var;
        if (slot >= paramSlots) {
          return false;
        }
        if (pushed == 0) {
          receiverIsThis = !isStatic && slot == 0 && op == Opcodes.ALOAD;
        }
        pushed++;
      } else if (!(op == Opcodes.CHECKCAST || isWidening(op)) || pushed == 0) {
        return false;
      }
    }
    if (insn == null) {
      return false;
    }
    Type[] args = Type.getArgumentTypes(call.desc);
    boolean hasReceiver = call.getOpcode() != Opcodes.INVOKESTATIC;
    if (pushed != args.length + (hasReceiver ? 1 : 0) || (hasReceiver && !receiverIsThis)) {
      return false;
    }
    int step = 0; // 0: right after the call, 1: after a cast or box, 2: after the return
    for (insn = insn.getNext(); insn != null; insn = insn.getNext()) {
      int op = insn.getOpcode();
      if (op < 0) {
        continue;
      }
      if (step == 0 && (op == Opcodes.CHECKCAST || isBox(insn))) {
        step = 1;
      } else if (step < 2 && op >= Opcodes.IRETURN && op <= Opcodes.RETURN) {
        step = 2;
      } else {
        return false;
      }
    }
    return step == 2;
  }

  private static boolean isWidening(int op) {
    return op == Opcodes.I2L || op == Opcodes.I2F || op == Opcodes.I2D || op == Opcodes.L2F || op == Opcodes.L2D
        || op == Opcodes.F2D;
  }

  private static boolean isBox(AbstractInsnNode insn) {
    if (insn.getOpcode() != Opcodes.INVOKESTATIC) {
      return false;
    }
    MethodInsnNode m = (MethodInsnNode) insn;
    if (!"valueOf".equals(m.name) || !BOXES.contains(m.owner)) {
      return false;
    }
    Type[] args = Type.getArgumentTypes(m.desc);
    return args.length == 1 && args[0].getSort() <= Type.DOUBLE && args[0].getSort() >= Type.BOOLEAN
        && Type.getReturnType(m.desc).getInternalName().equals(m.owner);
  }
}
