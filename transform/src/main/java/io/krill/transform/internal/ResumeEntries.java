package io.krill.transform.internal;

import java.util.ArrayList;
import java.util.List;
import org.objectweb.asm.Handle;
import org.objectweb.asm.Label;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.MethodNode;

/**
 * The entries through which lazy resume re-enters a woven class's methods from the runtime.
 *
 * <p>When the frames that only wait are set aside, the runtime calls the frame below them
 * itself, with zeros and nulls for its arguments. Through a method handle that call is a chain
 * of adapters the JIT cannot see through (the handle differs per frame). A class woven for lazy
 * resume therefore gets two private static methods:
 * <ul>
 *   <li>{@code $krill$enter(int method, Object self, Stack stack)}: a switch over the class's
 *       woven methods that calls the chosen one with zero arguments, non-virtually on
 *       {@code self} (the receiver the frame saved) or statically, and returns its result
 *       boxed; a method with a stack entry is called there, with the runtime's stack and its
 *       flow, so the resume does not look the stack up again;</li>
 *   <li>{@code $krill$entry(String nameAndDesc)}: a {@code Stack.Entry} whose {@code enter(self, stack)}
 *       calls {@code $krill$enter} with that method's number, made by {@code LambdaMetafactory}
 *       with the class's own lookup (so it works from any class loader and module), or null
 *       for a method that is not there.</li>
 * </ul>
 * The runtime asks for an entry once per method; the call through it is an ordinary interface
 * call, which the JIT inlines where one or two kinds of frame are resumed.
 *
 * <p>Left out (the runtime then falls back to a method handle): interfaces, whose private
 * static methods need class files of version 53, and class files older than 52, which cannot
 * hold the {@code invokedynamic}.
 */
final class ResumeEntries {
  private ResumeEntries() {}

  /** One woven method, as compiled: its name, descriptor and access, and its stack entry's descriptor. */
  static final class Target {
    final String name;
    final String desc;
    final int access;
    /** The descriptor of the method's stack entry ({@code StackEntries}), or null when it has none. */
    final String stackEntryDesc;

    Target(String name, String desc, int access, String stackEntryDesc) {
      this.name = name;
      this.desc = desc;
      this.access = access;
      this.stackEntryDesc = stackEntryDesc;
    }
  }

  /** @return whether a class of this access and class-file version can hold the entries */
  static boolean fits(int classAccess, int version) {
    return (classAccess & Opcodes.ACC_INTERFACE) == 0 && (version & 0xFFFF) >= Opcodes.V1_8;
  }

  /**
   * @param owner the woven class's internal name
   * @param targets its woven methods that save frames, in any order
   * @return the two methods to add
   */
  static List<MethodNode> build(String owner, List<Target> targets) {
    List<MethodNode> out = new ArrayList<>(2);
    out.add(enter(owner, targets));
    out.add(entry(owner, targets));
    return out;
  }

  private static MethodNode enter(String owner, List<Target> targets) {
    MethodNode m = new MethodNode(Opcodes.ACC_PRIVATE | Opcodes.ACC_STATIC | Opcodes.ACC_SYNTHETIC,
        Names.ENTER, Names.ENTER_DESC, null, new String[] {"java/lang/Throwable"});
    Label[] cases = new Label[targets.size()];
    for (int i = 0; i < cases.length; i++) {
      cases[i] = new Label();
    }
    Label none = new Label();
    m.visitCode();
    m.visitVarInsn(Opcodes.ILOAD, 0);
    m.visitTableSwitchInsn(0, cases.length - 1, none, cases);
    for (int i = 0; i < cases.length; i++) {
      Target t = targets.get(i);
      m.visitLabel(cases[i]);
      boolean isStatic = (t.access & Opcodes.ACC_STATIC) != 0;
      if (!isStatic) {
        m.visitVarInsn(Opcodes.ALOAD, 1);
        m.visitTypeInsn(Opcodes.CHECKCAST, owner);
      }
      for (Type a : Type.getArgumentTypes(t.desc)) {
        m.instructions.add(MethodWeaver.zero(a));
      }
      String desc = t.desc;
      if (t.stackEntryDesc != null) { // the runtime's stack and its flow, as the original passes them after looking it up
        m.visitVarInsn(Opcodes.ALOAD, 2);
        m.visitVarInsn(Opcodes.ALOAD, 2);
        m.visitFieldInsn(Opcodes.GETFIELD, Names.STACK, Names.FLOW, "B");
        desc = t.stackEntryDesc;
      }
      // non-virtual: an override in a subclass is another method with frames of its own
      m.visitMethodInsn(isStatic ? Opcodes.INVOKESTATIC : Opcodes.INVOKESPECIAL, owner, t.name, desc, false);
      box(m, Type.getReturnType(t.desc));
      m.visitInsn(Opcodes.ARETURN);
    }
    m.visitLabel(none);
    m.visitInsn(Opcodes.ACONST_NULL);
    m.visitInsn(Opcodes.ARETURN);
    m.visitMaxs(0, 0);
    m.visitEnd();
    return m;
  }

  private static MethodNode entry(String owner, List<Target> targets) {
    MethodNode m = new MethodNode(Opcodes.ACC_PRIVATE | Opcodes.ACC_STATIC | Opcodes.ACC_SYNTHETIC,
        Names.ENTRY, Names.ENTRY_DESC, null, null);
    Label make = new Label();
    m.visitCode();
    for (int i = 0; i < targets.size(); i++) {
      Target t = targets.get(i);
      Label next = new Label();
      m.visitVarInsn(Opcodes.ALOAD, 0);
      m.visitLdcInsn(t.name + t.desc);
      m.visitMethodInsn(Opcodes.INVOKEVIRTUAL, "java/lang/String", "equals", "(Ljava/lang/Object;)Z", false);
      m.visitJumpInsn(Opcodes.IFEQ, next);
      m.visitLdcInsn(i);
      m.visitVarInsn(Opcodes.ISTORE, 1);
      m.visitJumpInsn(Opcodes.GOTO, make);
      m.visitLabel(next);
    }
    m.visitInsn(Opcodes.ACONST_NULL);
    m.visitInsn(Opcodes.ARETURN);
    m.visitLabel(make);
    m.visitVarInsn(Opcodes.ILOAD, 1);
    Type sam = Type.getMethodType("(Ljava/lang/Object;L" + Names.STACK + ";)Ljava/lang/Object;");
    m.visitInvokeDynamicInsn("enter", "(I)L" + Names.ENTRY_TYPE + ";",
        new Handle(Opcodes.H_INVOKESTATIC, "java/lang/invoke/LambdaMetafactory", "metafactory",
            "(Ljava/lang/invoke/MethodHandles$Lookup;Ljava/lang/String;Ljava/lang/invoke/MethodType;"
                + "Ljava/lang/invoke/MethodType;Ljava/lang/invoke/MethodHandle;Ljava/lang/invoke/MethodType;)"
                + "Ljava/lang/invoke/CallSite;", false),
        sam, new Handle(Opcodes.H_INVOKESTATIC, owner, Names.ENTER, Names.ENTER_DESC, false), sam);
    m.visitInsn(Opcodes.ARETURN);
    m.visitMaxs(0, 0);
    m.visitEnd();
    return m;
  }

  /* Boxes the result; a suspended run returns a zero, boxed without allocating. */
  private static void box(MethodNode m, Type t) {
    switch (t.getSort()) {
      case Type.VOID:
        m.visitInsn(Opcodes.ACONST_NULL);
        break;
      case Type.OBJECT:
      case Type.ARRAY:
        break; // as it is
      case Type.FLOAT:
      case Type.DOUBLE:
        String name = t.getSort() == Type.FLOAT ? "boxFloat" : "boxDouble";
        m.visitMethodInsn(Opcodes.INVOKESTATIC, Names.STACK, name, "(" + t.getDescriptor() + ")Ljava/lang/Object;", false);
        break;
      default:
        Type box = MethodReferences.boxOf(t);
        m.visitMethodInsn(Opcodes.INVOKESTATIC, box.getInternalName(), "valueOf", Type.getMethodDescriptor(box, t), false);
    }
  }
}
