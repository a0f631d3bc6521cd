package io.krill.transform.internal;

import java.util.List;
import org.objectweb.asm.Handle;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.InsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TypeInsnNode;
import org.objectweb.asm.tree.VarInsnNode;

/**
 * Turns a method reference to a suspendable method into a synthetic lambda body of the
 * enclosing class, which is then woven like any other.
 */
final class MethodReferences {
  /*
   * Implementation notes.
   *
   * LambdaMetafactory spins a hidden class whose interface method calls the reference's
   * target directly. That frame is not woven, which is harmless only while it forwards its
   * arguments unchanged: on resume the caller re-invokes the interface method with dummy
   * arguments (zeros and nulls), and each woven frame restores its own state. A hidden frame
   * that uses an argument breaks this: an unbound reference (Item::plain) calls the target on
   * the first argument, which is null on resume, and a boxed argument (Function<Integer, _>
   * for a static int m(int)) is unboxed, also null. So every method reference to a suspendable
   * method is compiled as javac compiles a lambda: a private static synthetic method
   * (captured values, then the instantiated interface parameters) that adapts the arguments
   * as the metafactory would (cast, unbox, widen), calls the target and adapts the result.
   * The indy then points at that method, so the hidden frame only forwards arguments, and the
   * new method's woven frame saves the receiver and restores it.
   */
  private MethodReferences() {}

  /**
   * Builds the lambda body for a method reference.
   *
   * @param owner the class that holds the invokedynamic; the body is added to it
   * @param impl the reference's target
   * @param captured the types the invokedynamic captures (the bound receiver, if any)
   * @param instantiated the interface method type as the lambda implements it
   * @param name the new method's name, unique in {@code owner}
   * @return the new method, not yet added to {@code owner}
   */
  static MethodNode body(ClassNode owner, Handle impl, Type[] captured, Type instantiated, String name) {
    Type[] samArgs = instantiated.getArgumentTypes();
    Type[] params = new Type[captured.length + samArgs.length];
    System.arraycopy(captured, 0, params, 0, captured.length);
    System.arraycopy(samArgs, 0, params, captured.length, samArgs.length);
    Type ret = instantiated.getReturnType();
    String desc = Type.getMethodDescriptor(ret, params);
    MethodNode m = new MethodNode(Opcodes.ACC_PRIVATE | Opcodes.ACC_STATIC | Opcodes.ACC_SYNTHETIC, name, desc,
        null, new String[] {Names.SUSPENDABLE});

    boolean hasReceiver = impl.getTag() != Opcodes.H_INVOKESTATIC;
    Type[] implArgs = Type.getArgumentTypes(impl.getDesc());
    Type[] targets = new Type[implArgs.length + (hasReceiver ? 1 : 0)];
    if (hasReceiver) {
      targets[0] = Type.getObjectType(impl.getOwner());
    }
    System.arraycopy(implArgs, 0, targets, hasReceiver ? 1 : 0, implArgs.length);

    InsnList code = m.instructions;
    int slot = 0;
    for (int i = 0; i < params.length; i++) {
      code.add(new VarInsnNode(params[i].getOpcode(Opcodes.ILOAD), slot));
      slot += params[i].getSize();
      adapt(code, params[i], targets[i]);
    }
    int op;
    switch (impl.getTag()) {
      case Opcodes.H_INVOKESTATIC:
        op = Opcodes.INVOKESTATIC;
        break;
      case Opcodes.H_INVOKEINTERFACE:
        op = Opcodes.INVOKEINTERFACE;
        break;
      case Opcodes.H_INVOKESPECIAL:
        op = Opcodes.INVOKESPECIAL;
        break;
      default:
        op = Opcodes.INVOKEVIRTUAL;
    }
    code.add(new TargetCall(op, impl.getOwner(), impl.getName(), impl.getDesc(), impl.isInterface()));
    Type implRet = Type.getReturnType(impl.getDesc());
    if (ret.getSort() == Type.VOID) {
      if (implRet.getSize() == 2) {
        code.add(new InsnNode(Opcodes.POP2));
      } else if (implRet.getSize() == 1) {
        code.add(new InsnNode(Opcodes.POP));
      }
    } else {
      adapt(code, implRet, ret);
    }
    code.add(new InsnNode(ret.getOpcode(Opcodes.IRETURN)));
    m.maxLocals = slot;
    m.maxStack = Math.max(slot, 2) + 2;
    return m;
  }

  /** @return true for the call to the reference's target in a body built by {@link #body} */
  static boolean isTargetCall(MethodInsnNode insn) {
    return insn instanceof TargetCall;
  }

  /* The one suspendable call of a body, told apart from the calls that box and unbox. */
  private static final class TargetCall extends MethodInsnNode {
    TargetCall(int opcode, String owner, String name, String descriptor, boolean isInterface) {
      super(opcode, owner, name, descriptor, isInterface);
    }
  }

  /* The conversions LambdaMetafactory applies between the instantiated and the target types. */
  private static void adapt(InsnList code, Type from, Type to) {
    if (from.equals(to)) {
      return;
    }
    boolean fromRef = isReference(from);
    boolean toRef = isReference(to);
    if (!fromRef && !toRef) {
      widen(code, from, to);
    } else if (!fromRef) {
      Type box = boxOf(from);
      code.add(new MethodInsnNode(Opcodes.INVOKESTATIC, box.getInternalName(), "valueOf",
          Type.getMethodDescriptor(box, from), false));
      cast(code, to);
    } else if (!toRef) {
      Type unboxed = unboxedOf(from);
      if (unboxed == null) {
        unboxed = to;
        code.add(new TypeInsnNode(Opcodes.CHECKCAST, boxOf(to).getInternalName()));
        from = boxOf(to);
      }
      code.add(new MethodInsnNode(Opcodes.INVOKEVIRTUAL, from.getInternalName(), unboxed.getClassName() + "Value",
          Type.getMethodDescriptor(unboxed), false));
      widen(code, unboxed, to);
    } else {
      cast(code, to);
    }
  }

  private static void cast(InsnList code, Type to) {
    if (!"java/lang/Object".equals(to.getInternalName())) {
      code.add(new TypeInsnNode(Opcodes.CHECKCAST, to.getInternalName()));
    }
  }

  private static boolean isReference(Type t) {
    return t.getSort() == Type.OBJECT || t.getSort() == Type.ARRAY;
  }

  private static void widen(InsnList code, Type from, Type to) {
    int f = stackSort(from);
    int t = stackSort(to);
    if (f == t) {
      return;
    }
    if (f == Type.INT) {
      code.add(new InsnNode(t == Type.LONG ? Opcodes.I2L : t == Type.FLOAT ? Opcodes.I2F : Opcodes.I2D));
    } else if (f == Type.LONG) {
      code.add(new InsnNode(t == Type.FLOAT ? Opcodes.L2F : Opcodes.L2D));
    } else if (f == Type.FLOAT) {
      code.add(new InsnNode(Opcodes.F2D));
    }
  }

  private static int stackSort(Type t) {
    switch (t.getSort()) {
      case Type.BOOLEAN:
      case Type.BYTE:
      case Type.CHAR:
      case Type.SHORT:
      case Type.INT:
        return Type.INT;
      default:
        return t.getSort();
    }
  }

  /** The primitive types and, at the same index, the internal names of their boxes. */
  private static final List<Type> PRIMITIVES = List.of(Type.BOOLEAN_TYPE, Type.BYTE_TYPE, Type.CHAR_TYPE,
      Type.SHORT_TYPE, Type.INT_TYPE, Type.LONG_TYPE, Type.FLOAT_TYPE, Type.DOUBLE_TYPE);
  private static final List<String> BOXES = List.of("java/lang/Boolean", "java/lang/Byte", "java/lang/Character",
      "java/lang/Short", "java/lang/Integer", "java/lang/Long", "java/lang/Float", "java/lang/Double");

  /** @return the box of {@code primitive}; {@code Double} for a double (and anything else) */
  static Type boxOf(Type primitive) {
    int i = PRIMITIVES.indexOf(primitive);
    return Type.getObjectType(BOXES.get(i < 0 ? BOXES.size() - 1 : i));
  }

  /** @return the primitive that {@code box} boxes, or null when it is no box */
  private static Type unboxedOf(Type box) {
    int i = BOXES.indexOf(box.getInternalName());
    return i < 0 ? null : PRIMITIVES.get(i);
  }
}
