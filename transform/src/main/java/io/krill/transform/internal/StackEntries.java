package io.krill.transform.internal;

import java.util.ArrayList;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.IincInsnNode;
import org.objectweb.asm.tree.InsnNode;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.LineNumberNode;
import org.objectweb.asm.tree.LocalVariableAnnotationNode;
import org.objectweb.asm.tree.LocalVariableNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.VarInsnNode;

/**
 * The stack entry of a suspendable method: a second entry that takes the caller's
 * {@code Stack} and its flow as extra trailing arguments, so that a woven caller passes the
 * stack it holds down instead of each callee looking it up again.
 */
final class StackEntries {
  /*
   * Implementation notes.
   *
   * Why: a woven method that is not restoring used to begin with Stack.current()
   * (Thread.currentThread(), a type test against the carrier classes, a field load; off a
   * carrier a counter read and a thread-local lookup) before its one-byte test of `flow`. A
   * caller that is woven already holds the stack in a local; passing it as an argument makes
   * the callee's entry one load of a parameter's field and one branch.
   *
   * Which methods have one (`qualifies`): a method declared `throws Suspendable` with code,
   * not a constructor, not a hand-written primitive, not synthetic (lambda bodies, bridges,
   * method-reference bodies: only invokedynamic and virtual dispatch call them), in a class
   * that is not an interface, and bound to one implementation at weave time: static, private,
   * final, or in a final class. A virtual method that subclasses may override has none: an
   * override that calls nothing suspendable is never woven and would have no entry (nor would
   * one in a subclass built elsewhere), so a virtual call to an entry could land in the
   * superclass's and run the wrong code, silently. Calls through interfaces, lambdas, reflection and unwoven callers
   * go to the original method.
   *
   * The weaver gives an entry to each method it weaves (one that calls a suspendable method;
   * a pure forwarder too) that `qualifies`. Callers decide from the callee's class file alone
   * (ClassHierarchy.hasStackEntry): a class already woven has its entries as synthetic
   * methods; in an unwoven one, the methods that qualify and call a suspendable method will
   * get one when it is woven. A method that calls nothing suspendable is never woven and has
   * no entry test to save. A class that declares `name(args..., Stack, byte)` itself keeps it, and
   * the method gets no entry (both sides see the clash).
   *
   * The entry also takes the caller's flow (a byte): 0 from a normal call, 1 from a restore
   * (MethodWeaver: the restore makes the call again from an instruction of its own), and the
   * original passes the stack's `flow`. The entry's restore test reads the parameter, and at a
   * normal call the JIT sees the constant 0 and drops an inlined callee's restore path.
   *
   * The entry has the original's name, so stack traces, JMH's and the JIT's per-name compile
   * commands and `-Dkrill.verify` see one method; its descriptor appends the Stack. The
   * frame id stays that of the original descriptor: dumps, serialization and the resume
   * check are unchanged. The original becomes a forwarder (`forwarder`):
   * `s = Stack.current(); return name(args..., s, s.flow)`. It needs no frame of its own, for the reason a
   * pure forwarder needs none (Forwarders): on a resume it runs again with its caller's
   * dummies, looks the stack up again and passes both on; the entry restores itself.
   */
  private StackEntries() {}

  /** The parameters an entry appends: the stack, and the caller's `flow` (1: restore this frame). */
  static final String SUFFIX = Names.STACK_DESC + "B";

  /** @return {@code desc} with the trailing {@code Stack} and flow parameters */
  static String desc(String desc) {
    int close = desc.indexOf(')');
    return desc.substring(0, close) + SUFFIX + desc.substring(close);
  }

  /** @return the descriptor of the original method of the stack entry with descriptor {@code desc} */
  static String originalDesc(String desc) {
    int close = desc.indexOf(')');
    return desc.substring(0, close - SUFFIX.length()) + desc.substring(close);
  }

  /** @return true if {@code m} is a stack entry this weaver made (its class is being woven) */
  static boolean isEntry(MethodNode m) {
    return (m.access & Opcodes.ACC_SYNTHETIC) != 0 && m.desc.contains(SUFFIX + ")");
  }

  /**
   * The rule both sides of a call apply: whether a method has a stack entry.
   *
   * @param classAccess the declaring class's access flags
   * @param access the method's access flags
   * @param name the method's name
   * @param suspendable declared {@code throws Suspendable}
   * @param primitive annotated as a hand-written primitive
   * @return true when the woven class has {@code name(args..., Stack, byte)} for it
   */
  static boolean qualifies(int classAccess, int access, String name, boolean suspendable, boolean primitive) {
    if (!suspendable || primitive || name.startsWith("<") || (classAccess & Opcodes.ACC_INTERFACE) != 0
        || (access & (Opcodes.ACC_ABSTRACT | Opcodes.ACC_NATIVE | Opcodes.ACC_SYNTHETIC | Opcodes.ACC_BRIDGE)) != 0) {
      return false;
    }
    return (access & (Opcodes.ACC_STATIC | Opcodes.ACC_PRIVATE | Opcodes.ACC_FINAL)) != 0
        || (classAccess & Opcodes.ACC_FINAL) != 0;
  }

  /** @return the local slot of the stack parameter of the entry of a method with descriptor {@code desc} */
  static int stackSlot(int access, String desc) {
    return (Type.getArgumentsAndReturnSizes(desc) >> 2) - ((access & Opcodes.ACC_STATIC) != 0 ? 1 : 0);
  }

  /**
   * Turns {@code m} into its own stack entry, in place: the descriptor gains the stack, every
   * local past the parameters moves up one slot to make room for it. Annotations, the generic
   * signature and parameter names stay with the original, which {@link #forwarder} rebuilds.
   *
   * @param m the method; its code becomes the entry's
   * @return the forwarder that takes {@code m}'s place under its original descriptor
   */
  static MethodNode split(String owner, MethodNode m) {
    MethodNode original = forwarder(owner, m);
    int slot = stackSlot(m.access, m.desc);
    for (AbstractInsnNode insn : m.instructions) {
      if (insn instanceof VarInsnNode && ((VarInsnNode) insn).var >= slot) {
        ((VarInsnNode) insn).var += 2;
      } else if (insn instanceof IincInsnNode && ((IincInsnNode) insn).var >= slot) {
        ((IincInsnNode) insn).var += 2;
      }
    }
    if (m.localVariables != null) {
      for (LocalVariableNode v : m.localVariables) {
        if (v.index >= slot) {
          v.index += 2;
        }
      }
    }
    shift(m.visibleLocalVariableAnnotations, slot);
    shift(m.invisibleLocalVariableAnnotations, slot);
    m.desc = desc(m.desc);
    m.maxLocals += 2;
    entryAttributes(m);
    return original;
  }

  private static void shift(java.util.List<LocalVariableAnnotationNode> annotations, int slot) {
    if (annotations != null) {
      for (LocalVariableAnnotationNode a : annotations) {
        for (int i = 0; i < a.index.size(); i++) {
          if (a.index.get(i) >= slot) {
            a.index.set(i, a.index.get(i) + 2);
          }
        }
      }
    }
  }

  /* An entry is synthetic (javac never offers it), neither varargs nor a bridge, and carries no annotations. */
  private static void entryAttributes(MethodNode m) {
    m.access = (m.access & ~(Opcodes.ACC_VARARGS | Opcodes.ACC_BRIDGE)) | Opcodes.ACC_SYNTHETIC;
    m.signature = null;
    m.parameters = null;
    m.visibleAnnotations = null;
    m.invisibleAnnotations = null;
    m.visibleTypeAnnotations = null;
    m.invisibleTypeAnnotations = null;
    m.visibleParameterAnnotations = null;
    m.invisibleParameterAnnotations = null;
    m.visibleAnnotableParameterCount = 0;
    m.invisibleAnnotableParameterCount = 0;
    m.annotationDefault = null;
  }

  /**
   * The original method as a forwarder to the entry of {@code m} (whose descriptor is still
   * the original's): its parameters, {@code Stack.current()}, the call, the return.
   */
  private static MethodNode forwarder(String owner, MethodNode m) {
    MethodNode f = new MethodNode(m.access, m.name, m.desc, m.signature,
        m.exceptions == null ? null : m.exceptions.toArray(new String[0]));
    f.parameters = m.parameters;
    f.visibleAnnotations = m.visibleAnnotations;
    f.invisibleAnnotations = m.invisibleAnnotations;
    f.visibleTypeAnnotations = m.visibleTypeAnnotations;
    f.invisibleTypeAnnotations = m.invisibleTypeAnnotations;
    f.visibleParameterAnnotations = m.visibleParameterAnnotations;
    f.invisibleParameterAnnotations = m.invisibleParameterAnnotations;
    f.visibleAnnotableParameterCount = m.visibleAnnotableParameterCount;
    f.invisibleAnnotableParameterCount = m.invisibleAnnotableParameterCount;
    f.attrs = m.attrs == null ? null : new ArrayList<>(m.attrs);
    int line = ClassWeaver.firstLine(m);
    if (line > 0) { // a stack trace through the forwarder names the method's first line, as for the entry
      LabelNode start = new LabelNode();
      f.instructions.add(start);
      f.instructions.add(new LineNumberNode(line, start));
    }
    f.instructions.add(call(owner, m.access, m.name, m.desc));
    return f;
  }

  /*
   * Loads the parameters of a method with descriptor desc and calls the method of the same
   * name on this class, non-virtually: to the entry with Stack.current() appended, or from
   * the entry to the original; then returns the result.
   */
  private static org.objectweb.asm.tree.InsnList call(String owner, int access, String name, String desc) {
    org.objectweb.asm.tree.InsnList out = new org.objectweb.asm.tree.InsnList();
    boolean isStatic = (access & Opcodes.ACC_STATIC) != 0;
    int slot = 0;
    if (!isStatic) {
      out.add(new VarInsnNode(Opcodes.ALOAD, 0));
      slot = 1;
    }
    for (Type t : Type.getArgumentTypes(desc)) {
      out.add(new VarInsnNode(t.getOpcode(Opcodes.ILOAD), slot));
      slot += t.getSize();
    }
    out.add(new MethodInsnNode(Opcodes.INVOKESTATIC, Names.STACK, "current", "()" + Names.STACK_DESC, false));
    out.add(new InsnNode(Opcodes.DUP)); // and its flow: at a woven entry 0, or 1 when the frame resumes
    out.add(new org.objectweb.asm.tree.FieldInsnNode(Opcodes.GETFIELD, Names.STACK, Names.FLOW, "B"));
    out.add(new MethodInsnNode(isStatic ? Opcodes.INVOKESTATIC : Opcodes.INVOKESPECIAL, owner, name, desc(desc), false));
    out.add(new InsnNode(Type.getReturnType(desc).getOpcode(Opcodes.IRETURN)));
    return out;
  }
}
