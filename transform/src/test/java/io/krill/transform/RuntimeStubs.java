package io.krill.transform;

import java.util.List;

/**
 * Source stand-ins for the krill runtime types that woven code refers to by name.
 *
 * <p>transform must not depend on fibers, so the tests compile these instead. The weaver only
 * reads their class files; they are loaded only to verify woven classes and to run woven code
 * off-fiber. {@code Stack} has the exact static signatures and fields that MethodWeaver emits
 * calls to; {@code current()} answers a stack that never captures or restores, as the real
 * runtime does on a thread that runs no continuation, and the frame store operations fail.
 */
public final class RuntimeStubs {
  /** The marker exception. */
  public static final String SUSPENDABLE = String.join("\n",
      "package io.krill.fibers;",
      "public final class Suspendable extends Exception {",
      "  private static final long serialVersionUID = 1L;",
      "  private Suspendable() {}",
      "}");

  /** The suspendable counterpart of Runnable. */
  public static final String SUSPENDABLE_RUNNABLE = String.join("\n",
      "package io.krill.fibers;",
      "@FunctionalInterface",
      "public interface SuspendableRunnable {",
      "  void run() throws Suspendable;",
      "}");

  /** The suspendable counterpart of Callable. */
  public static final String SUSPENDABLE_CALLABLE = String.join("\n",
      "package io.krill.fibers;",
      "@FunctionalInterface",
      "public interface SuspendableCallable<T> {",
      "  T call() throws Suspendable;",
      "}");

  /** Marks hand-written primitives that the weaver must leave alone. */
  public static final String PRIMITIVE = String.join("\n",
      "package io.krill.fibers;",
      "import java.lang.annotation.*;",
      "@Retention(RetentionPolicy.CLASS)",
      "@Target(ElementType.METHOD)",
      "public @interface Primitive {}");

  /** The frame store with the binary interface that woven code calls. */
  public static final String STACK = String.join("\n",
      "package io.krill.fibers;",
      "public class Stack {",
      "  public static final Stack NONE = new Stack();",
      "  public byte flow;",
      "  public static Stack current() { return NONE; }",
      "  public transient long[] prims;",
      "  public transient Object[] refs;",
      "  public transient int primTop;",
      "  public transient int refTop;",
      "  public static void reserveFrame(long header, String frameId, Stack s) { throw off(); }",
      "  public static int openFrame(String frameId, Stack s) { throw off(); }",
      "  public static void reserveColdFrame(long header, String frameId, Stack s) { throw off(); }",
      "  public static int openColdFrame(String frameId, Stack s) { throw off(); }",
      "  public static void putRef(Object[] a, int i, Object v) { throw off(); }",
      "  public interface Entry { Object enter(Object self, Stack stack) throws Throwable; }",
      "  private static IllegalStateException off() {",
      "    return new IllegalStateException(\"the stand-in Stack never captures or restores\");",
      "  }",
      "}");

  /** All stand-ins, in compilation order. */
  public static final List<String> SOURCES =
      List.of(SUSPENDABLE, SUSPENDABLE_RUNNABLE, SUSPENDABLE_CALLABLE, PRIMITIVE, STACK);

  private RuntimeStubs() {}
}
