package io.krill.transform.internal;

import java.util.ArrayList;
import java.util.List;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.FieldInsnNode;
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
   * A forwarding method loads its own parameters and final fields (each at most cast or
   * widened), makes its only suspendable call and returns the result (at most cast or boxed).
   * Such a method has nothing to save: on a resume it simply runs again up to the call, which
   * restores itself from its own frame; the arguments it passes on are ignored by the callee,
   * as every woven callee ignores its arguments on a resume. Two things would make the rerun
   * differ:
   * - A receiver that is not the same object: on a resume the parameters are zeros and nulls.
   *   So the call is static or its receiver is `this` (slot 0, never written here), which the
   *   caller supplies on a resume as on the first call, or the value of a final field read
   *   from `this`, from such a value (a chain `this.a.b`), or a static final field. A final
   *   field holds the same value on the resume: the JVM lets only its class's constructor
   *   (<init>, <clinit> for a static one) write it in class files of version 53 and later
   *   (ClassHierarchy.isFinalField; older ones and the JDK's own fields do not count), javac
   *   assigns it once, and a constructor cannot suspend (ClassWeaver.checkPlacement), so a
   *   forwarder is never suspended inside the constructor that sets the field. A read before
   *   the constructor assigned the field (the object escaped early) sees null and fails at the
   *   call on the first run, before anything could suspend. What breaks this is code that
   *   changes a final field by reflection or Unsafe while a fiber is parked under the
   *   forwarder: the resume then goes to the new object (the same holds for JIT constant
   *   folding of static finals, which the JDK already lets such code break).
   * - A side effect or a failure that differs on the rerun: only loads of parameters, of
   *   `this` and of final fields, casts and primitive widenings pass. A final field read on
   *   `this` or on a final field's value cannot fail on the rerun (the same objects were
   *   non-null on the first run) and has no effect; a getstatic's class initialization ran on
   *   the first run. A field of a parameter would be read from null, an unboxing of a null
   *   fails, an allocation is an effect: those keep their frame. A non-final (or volatile)
   *   field may have changed, so it keeps its frame even as an argument (the rule stays one
   *   rule for receivers and arguments). A constant is not a parameter: a lambda that passes
   *   one (`() -> park("the left fork")`) is code whose name a fiber dump should show, so it
   *   keeps its frame.
   * After the call, a capture returns the callee's dummy result (a null passes a cast; boxing a
   * zero takes a cached box) straight to the caller, which saves its own frame.
   * The method is still listed in the class's woven marker, so the runtime verifier accepts a
   * suspension through it.
   */
  private static final java.util.Set<String> BOXES = java.util.Set.of("java/lang/Boolean", "java/lang/Character",
      "java/lang/Byte", "java/lang/Short", "java/lang/Integer", "java/lang/Long", "java/lang/Float",
      "java/lang/Double");

  private Forwarders() {}

  /* Where a value pushed before the call comes from. */
  private static final int PARAMETER = 0; // a parameter other than `this`: a zero or null on a resume
  private static final int THIS = 1; // `this`, which the caller supplies on a resume as on the first call
  private static final int FINAL = 2; // a final field of `this` or of a final field's value, or a static final field

  /**
   * Whether {@code m} is a pure forwarding method whose only suspendable call is {@code call}.
   *
   * @param m a method with exactly one suspendable call site
   * @param call that call
   * @param hierarchy tells final fields (of this class, its superclasses and other classes) from others
   * @return true when the method needs no saved frame
   */
  static boolean isPure(MethodNode m, MethodInsnNode call, ClassHierarchy hierarchy) {
    if (!m.tryCatchBlocks.isEmpty() || (m.access & Opcodes.ACC_SYNCHRONIZED) != 0) {
      return false;
    }
    boolean isStatic = (m.access & Opcodes.ACC_STATIC) != 0;
    int paramSlots = Type.getArgumentsAndReturnSizes(m.desc) >> 2;
    if (isStatic) {
      paramSlots--;
    }
    List<Integer> pushed = new ArrayList<>(); // the origin of each value on the operand stack
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
        pushed.add(!isStatic && slot == 0 && op == Opcodes.ALOAD ? THIS : PARAMETER);
      } else if (op == Opcodes.GETSTATIC) {
        FieldInsnNode f = (FieldInsnNode) insn;
        if (!hierarchy.isFinalField(op, f.owner, f.name, f.desc)) {
          return false;
        }
        pushed.add(FINAL);
      } else if (op == Opcodes.GETFIELD) {
        FieldInsnNode f = (FieldInsnNode) insn;
        if (pushed.isEmpty() || pushed.get(pushed.size() - 1) == PARAMETER
            || !hierarchy.isFinalField(op, f.owner, f.name, f.desc)) {
          return false; // a field of a parameter would be read from null on a resume
        }
        pushed.set(pushed.size() - 1, FINAL);
      } else if (!(op == Opcodes.CHECKCAST || isWidening(op)) || pushed.isEmpty()) {
        return false;
      }
    }
    if (insn == null) {
      return false;
    }
    Type[] args = Type.getArgumentTypes(call.desc);
    boolean hasReceiver = call.getOpcode() != Opcodes.INVOKESTATIC;
    if (pushed.size() != args.length + (hasReceiver ? 1 : 0) || (hasReceiver && pushed.get(0) == PARAMETER)) {
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
