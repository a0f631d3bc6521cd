package io.krill.fibers.corpus;

import static io.krill.fibers.corpus.Points.point;

import io.krill.fibers.Suspendable;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.List;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * Loops with suspension points in every position the weaver must keep reducible, and the
 * program that runs them until C2 compiles them (see {@link #main}).
 */
final class LoopShapes {
  private LoopShapes() {}

  static long counted(int n) throws Suspendable {
    long sum = 0;
    for (int i = 0; i < n; i++) {
      sum += point(i);
    }
    return sum;
  }

  static long nested(int n) throws Suspendable {
    long sum = 0;
    for (int i = 0; i < n; i++) {
      long row = point((long) i);
      for (int j = 0; j < i; j++) {
        row += point(j) * 10L;
      }
      sum += row;
    }
    return sum;
  }

  static int conditionAndBreak(int n) throws Suspendable {
    int j = 0;
    int steps = 0;
    while (point(j < n)) {
      j += point(3);
      steps++;
      if (j == 9) {
        break;
      }
    }
    do {
      steps += point(1);
    } while (point(--j) > n);
    return steps * 100 + j;
  }

  static String retryWithCatch(int n) throws Suspendable {
    StringBuilder out = new StringBuilder();
    int attempts = 0;
    for (;;) {
      try {
        attempts++;
        if (point(attempts) < n) {
          throw new IllegalStateException("attempt " + attempts);
        }
        out.append("ok ").append(attempts);
        break;
      } catch (IllegalStateException e) {
        out.append(point(e.getMessage().length())).append(',');
      }
    }
    return out.toString();
  }

  static int insideAnExpression(int k, int n) throws Suspendable {
    return k * 1000 + switch (k) {
      case 0 -> -1;
      default -> {
        int s = 0;
        for (String w : point(List.of("a", "bb", "ccc"))) {
          for (int i = 0; i < n; i++) {
            s += point(w.length());
          }
        }
        yield s;
      }
    };
  }

  /** One pass over every shape; the checksum catches a wrong resume. */
  static long all() throws Suspendable {
    return counted(6) + nested(4) + conditionAndBreak(8) + retryWithCatch(3).length() * 7L
        + insideAnExpression(2, 2) + insideAnExpression(0, 2)
        + ControlFlowTest.loops(5) + ControlFlowTest.labeled(5).length();
  }

  /** What {@link #all} returns, term by term. */
  static final long ALL = 15 + (0 + 1 + 12 + 33) + 408 + "9,9,ok 3".length() * 7L + 2012 + -1
      + (10 + 6 + 6000 + 1500 + 5) + "10 20 21 30 31 |40 41 ".length();

  /*
   * The control: a method whose loop has two entries, as a woven loop used to when the
   * restore switch jumped into its body. C2 must mark this one irreducible, or the log says
   * nothing about woven code either.
   */
  static MethodHandle irreducibleControl() throws ReflectiveOperationException {
    ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_FRAMES | ClassWriter.COMPUTE_MAXS);
    String name = LoopShapes.class.getPackageName().replace('.', '/') + "/IrreducibleControl";
    cw.visit(Opcodes.V17, Opcodes.ACC_FINAL | Opcodes.ACC_SUPER, name, null, "java/lang/Object", null);
    MethodVisitor mv = cw.visitMethod(Opcodes.ACC_STATIC, "twoEntries", "(IZ)I", null, null);
    mv.visitCode();
    Label first = new Label();
    Label second = new Label();
    mv.visitInsn(Opcodes.ICONST_0);
    mv.visitVarInsn(Opcodes.ISTORE, 2);
    mv.visitVarInsn(Opcodes.ILOAD, 1);
    mv.visitJumpInsn(Opcodes.IFNE, second);
    mv.visitLabel(first);
    mv.visitIincInsn(2, 1);
    mv.visitLabel(second);
    mv.visitIincInsn(2, 2);
    mv.visitVarInsn(Opcodes.ILOAD, 2);
    mv.visitVarInsn(Opcodes.ILOAD, 0);
    mv.visitJumpInsn(Opcodes.IF_ICMPLT, first);
    mv.visitVarInsn(Opcodes.ILOAD, 2);
    mv.visitInsn(Opcodes.IRETURN);
    mv.visitMaxs(0, 0);
    mv.visitEnd();
    cw.visitEnd();
    MethodHandles.Lookup lookup = MethodHandles.lookup().defineHiddenClass(cw.toByteArray(), true);
    return lookup.findStatic(lookup.lookupClass(), "twoEntries", MethodType.methodType(int.class, int.class, boolean.class));
  }

  /**
   * Runs every shape, suspending at each point and not, alternately, until C2 has had the
   * chance to compile them, and the irreducible control beside them. Bounded in count and
   * time. Prints "ok" and exits 0 when every result was right.
   *
   * @param args the number of rounds (default 40000)
   * @throws Throwable if a result is wrong
   */
  public static void main(String[] args) throws Throwable {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 40_000;
    long deadline = System.nanoTime() + 60_000_000_000L;
    MethodHandle control = irreducibleControl();
    long controlSum = 0;
    for (int r = 0; r < rounds && System.nanoTime() < deadline; r++) {
      Mode mode = (r & 1) == 0 ? Mode.SUSPEND_EVERYWHERE : Mode.IN_CONTINUATION;
      long got = mode.call(LoopShapes::all);
      if (got != ALL) {
        throw new AssertionError("round " + r + " in " + mode + ": " + got + " (expected: " + ALL + ")");
      }
      for (int k = 0; k < 8; k++) {
        controlSum += (int) control.invokeExact(50, ((r + k) & 1) == 0);
      }
    }
    System.out.println("ok " + controlSum);
  }
}
