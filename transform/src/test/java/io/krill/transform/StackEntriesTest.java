package io.krill.transform;

import static org.assertj.core.api.Assertions.assertThat;

import io.krill.transform.internal.Names;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;

/**
 * Stack entries: which woven methods get a second entry that takes the caller's stack, and
 * which woven calls pass the stack to it.
 */
class StackEntriesTest {
  private static final String STACK = "Lio/krill/fibers/Stack;";
  /** What an entry appends: the stack and the caller's flow (0, or 1 when the frame resumes). */
  private static final String ENTRY = STACK + "B";

  private static final String KINDS = String.join("\n",
      "package t;",
      "import io.krill.fibers.Suspendable;",
      "import io.krill.fibers.Primitive;",
      "public class Kinds {",
      "  @Primitive static void park() throws Suspendable {}",
      "  static int leaf(int a) throws Suspendable { return a + 1; }",
      "  public static int statik(int a) throws Suspendable { park(); return a + 2; }",
      "  private int hidden(int a) throws Suspendable { park(); return a + 3; }",
      "  public final int sealed(int a) throws Suspendable { park(); return a + 4; }",
      "  public int open(int a) throws Suspendable { park(); return a + 5; }",
      "  static int user(int a) throws Suspendable { park(); return a; }",
      "  static int user(int a, io.krill.fibers.Stack s, byte flow) throws Suspendable { park(); return a; }",
      "  public int all(int a) throws Suspendable {",
      "    Runnable r = () -> {};",
      "    Api api = () -> park();",
      "    api.call();",
      "    return leaf(a) + statik(a) + hidden(a) + sealed(a) + open(a) + user(a) + Last.fin(a) + Other.far(a);",
      "  }",
      "}");

  private static final String OTHERS = String.join("\n",
      "package t;",
      "import io.krill.fibers.Suspendable;",
      "interface Api {",
      "  void call() throws Suspendable;",
      "  default int twice() throws Suspendable { call(); return 2; }",
      "}");

  private static final String LAST = String.join("\n",
      "package t;",
      "import io.krill.fibers.Suspendable;",
      "final class Last {",
      "  static int fin(int a) throws Suspendable { return new Last().in(a); }",
      "  int in(int a) throws Suspendable { Kinds.park(); return a + 6; }",
      "}");

  private static final String OTHER = String.join("\n",
      "package t;",
      "import io.krill.fibers.Suspendable;",
      "class Other {",
      "  static int far(int a) throws Suspendable { Kinds.park(); return a + 7; }",
      "}");

  /* Statically bound woven methods get an entry; virtual, interface, unwoven, primitive and clashing ones do not. */
  @Test
  void weave_staticallyBoundWovenMethods_getAStackEntry_othersNone() {
    CompiledClasses classes = TestCompiler.compile(KINDS, OTHERS, LAST, OTHER);
    Map<String, byte[]> woven = WeaverTest.weaveAll(classes);

    List<String> kinds = entries(woven.get("t/Kinds"));
    assertThat(kinds).containsExactlyInAnyOrder("statik(I" + ENTRY + ")I", "hidden(I" + ENTRY + ")I",
        "sealed(I" + ENTRY + ")I", "user(I" + ENTRY + ENTRY + ")I"); // the user's (I, Stack, byte) overload has its own
    assertThat(entries(woven.get("t/Last"))).containsExactlyInAnyOrder("fin(I" + ENTRY + ")I", "in(I" + ENTRY + ")I");
    assertThat(entries(woven.get("t/Api"))).isEmpty();
    assertThat(declared(woven.get("t/Kinds"))).as("the user's own (I, Stack, byte) overload stays, and is no entry")
        .contains("user(I" + ENTRY + ")I");
    assertThat(entries(woven.get("t/Kinds"))).doesNotContain("user(I" + ENTRY + ")I");
  }

  /* A woven call passes its stack exactly to the callees that have an entry, in this class or another. */
  @Test
  void weave_callsToStackEntries_passTheStack_othersCallTheOriginal() {
    CompiledClasses classes = TestCompiler.compile(KINDS, OTHERS, LAST, OTHER);
    Map<String, byte[]> woven = WeaverTest.weaveAll(classes);

    List<String> calls = calls(woven.get("t/Kinds"), "all", "(I)I");
    assertThat(calls).contains("t/Kinds.statik(I" + ENTRY + ")I", "t/Kinds.hidden(I" + ENTRY + ")I",
        "t/Kinds.sealed(I" + ENTRY + ")I", "t/Last.fin(I" + ENTRY + ")I", "t/Other.far(I" + ENTRY + ")I",
        "t/Kinds.open(I)I", "t/Kinds.user(I)I", "t/Api.call()V", "t/Kinds.leaf(I)I");
    assertThat(calls(woven.get("t/Last"), "fin", "(I" + ENTRY + ")I")).contains("t/Last.in(I" + ENTRY + ")I");
    assertThat(flowsPassed(woven.get("t/Kinds"), "all", "(I)I", "t/Kinds.statik(I" + ENTRY + ")I"))
        .as("the normal call passes flow 0, the restore's own call 1").containsExactly(0, 1);
  }

  private static final String PRIMS = String.join("\n",
      "package t;",
      "import io.krill.fibers.Primitive;",
      "import io.krill.fibers.Stack;",
      "import io.krill.fibers.Suspendable;",
      "public class Prims {",
      "  static final java.util.List<String> CALLED = new java.util.ArrayList<>();",
      "  @Primitive public static void bound() throws Suspendable { CALLED.add(\"bound()\"); }",
      "  @Primitive public static void bound(Stack s, byte flow) throws Suspendable {",
      "    CALLED.add(\"bound(\" + (s == Stack.current()) + \",\" + flow + \")\");",
      "  }",
      "  @Primitive public void open() throws Suspendable { CALLED.add(\"open()\"); }",
      "  @Primitive public void open(Stack s, byte flow) throws Suspendable { CALLED.add(\"open(s)\"); }",
      "  @Primitive public static void unmarked() throws Suspendable { CALLED.add(\"unmarked()\"); }",
      "  public static void unmarked(Stack s, byte flow) throws Suspendable { CALLED.add(\"unmarked(s)\"); }",
      "  @Primitive public static void narrower() throws Suspendable { CALLED.add(\"narrower()\"); }",
      "  @Primitive static void narrower(Stack s, byte flow) throws Suspendable { CALLED.add(\"narrower(s)\"); }",
      "  @Primitive public static void alone() throws Suspendable { CALLED.add(\"alone()\"); }",
      "  static void forward() throws Suspendable { bound(); }",
      "  public void all() throws Suspendable {",
      "    bound(); open(); unmarked(); narrower(); alone(); forward();",
      "  }",
      "}");

  /*
   * A call to a primitive goes to its stack entry, passing the stack and its flow, when the
   * primitive's class declares one beside it: annotated too, as accessible, and bound to it.
   */
  @Test
  @SuppressWarnings("unchecked")
  void weave_callsToPrimitivesWithAnEntry_passTheStackAndItsFlow() throws Exception {
    CompiledClasses classes = TestCompiler.compile(PRIMS);
    Map<String, byte[]> woven = WeaverTest.weaveAll(classes);

    assertThat(calls(woven.get("t/Prims"), "all", "()V")).contains("t/Prims.bound(" + ENTRY + ")V", "t/Prims.open()V",
        "t/Prims.unmarked()V", "t/Prims.narrower()V", "t/Prims.alone()V", "t/Prims.forward(" + ENTRY + ")V")
        .doesNotContain("t/Prims.bound()V", "t/Prims.open(" + ENTRY + ")V", "t/Prims.unmarked(" + ENTRY + ")V",
            "t/Prims.narrower(" + ENTRY + ")V");
    assertThat(calls(woven.get("t/Prims"), "forward", "(" + ENTRY + ")V"))
        .as("a pure forwarder's entry passes its own stack and flow on").containsExactly("t/Prims.bound(" + ENTRY + ")V");
    MethodInsnNode call = (MethodInsnNode) method(woven.get("t/Prims"), "all", "()V").instructions.toArray()[0];
    for (AbstractInsnNode i : method(woven.get("t/Prims"), "all", "()V").instructions) {
      if (i instanceof MethodInsnNode && ((MethodInsnNode) i).name.equals("bound")) {
        call = (MethodInsnNode) i;
        break;
      }
    }
    assertThat(call.getPrevious().getOpcode()).as("the flow is read from the stack: a restore makes the same call")
        .isEqualTo(Opcodes.GETFIELD);

    ClassLoader loader = classes.loader(woven);
    Class<?> prims = loader.loadClass("t.Prims");
    prims.getMethod("all").invoke(prims.getDeclaredConstructor().newInstance());
    assertThat((List<Object>) field(prims, "CALLED")).containsExactly("bound(true,0)", "open()", "unmarked()", "narrower()",
        "alone()", "bound(true,0)");
    assertThat(CompiledClasses.verify(woven.get("t/Prims"), loader)).isEmpty();
  }

  private static Object field(Class<?> c, String name) throws ReflectiveOperationException {
    java.lang.reflect.Field f = c.getDeclaredField(name);
    f.setAccessible(true);
    return f.get(null);
  }

  /* The int constant pushed right before each call to target in the method: the flow argument. */
  private static List<Integer> flowsPassed(byte[] classFile, String name, String desc, String target) {
    List<Integer> out = new java.util.ArrayList<>();
    for (AbstractInsnNode i : method(classFile, name, desc).instructions) {
      if (i instanceof MethodInsnNode) {
        MethodInsnNode c = (MethodInsnNode) i;
        if ((c.owner + "." + c.name + c.desc).equals(target)) {
          out.add(i.getPrevious().getOpcode() - Opcodes.ICONST_0);
        }
      }
    }
    return out;
  }

  /* The original descriptor forwards to the entry with the current stack: reflection and unwoven callers still work. */
  @Test
  void weave_original_forwardsToTheEntryWithTheCurrentStack() throws Exception {
    CompiledClasses classes = TestCompiler.compile(KINDS, OTHERS, LAST, OTHER);
    Map<String, byte[]> woven = WeaverTest.weaveAll(classes);
    ClassLoader loader = classes.loader(woven);

    assertThat(calls(woven.get("t/Kinds"), "statik", "(I)I"))
        .containsExactly("io/krill/fibers/Stack.current()" + STACK, "t/Kinds.statik(I" + ENTRY + ")I");
    Class<?> kinds = loader.loadClass("t.Kinds");
    Object k = kinds.getDeclaredConstructor().newInstance();
    assertThat(kinds.getMethod("statik", int.class).invoke(null, 1)).isEqualTo(3);
    assertThat(kinds.getMethod("all", int.class).invoke(k, 1)).isEqualTo(2 + 3 + 4 + 5 + 6 + 1 + 7 + 8);
    for (String name : woven.keySet()) {
      assertThat(CompiledClasses.verify(woven.get(name), loader)).as(name).isEmpty();
    }
    MethodNode entry = method(woven.get("t/Kinds"), "statik", "(I" + ENTRY + ")I");
    assertThat(entry.access & Opcodes.ACC_SYNTHETIC).as("javac never offers the entry").isNotZero();
    assertThat((String) marker(woven.get("t/Kinds"))).contains("|statik(I)I|statik(I" + ENTRY + ")I");
  }

  /* A callee class woven already (a library jar) is read as it is: its entries are there, or not. */
  @Test
  void weave_calleeWovenAlready_passesTheStackOnlyIfItsEntryIsThere() {
    CompiledClasses classes = TestCompiler.compile(KINDS, OTHERS, LAST, OTHER);
    Map<String, byte[]> woven = WeaverTest.weaveAll(classes);
    byte[] wovenOther = woven.get("t/Other");
    Function<String, byte[]> withWovenOther = n -> "t/Other".equals(n) ? wovenOther : classes.lookup().apply(n);
    assertThat(calls(Weaver.forLookup(withWovenOther).weave(classes.bytes("t/Kinds")), "all", "(I)I"))
        .contains("t/Other.far(I" + ENTRY + ")I");

    byte[] noEntry = stripEntries(wovenOther);
    Function<String, byte[]> withOldOther = n -> "t/Other".equals(n) ? noEntry : classes.lookup().apply(n);
    assertThat(calls(Weaver.forLookup(withOldOther).weave(classes.bytes("t/Kinds")), "all", "(I)I"))
        .contains("t/Other.far(I)I").doesNotContain("t/Other.far(I" + ENTRY + ")I");
  }

  private static byte[] stripEntries(byte[] classFile) {
    ClassNode cn = node(classFile);
    cn.methods.removeIf(m -> m.desc.contains(STACK) && (m.access & Opcodes.ACC_SYNTHETIC) != 0);
    org.objectweb.asm.ClassWriter cw = new org.objectweb.asm.ClassWriter(0);
    cn.accept(cw);
    return cw.toByteArray();
  }

  private static ClassNode node(byte[] classFile) {
    ClassNode cn = new ClassNode();
    new ClassReader(classFile).accept(cn, ClassReader.SKIP_DEBUG);
    return cn;
  }

  private static List<String> entries(byte[] classFile) {
    List<String> out = new ArrayList<>();
    for (MethodNode m : node(classFile).methods) {
      if ((m.access & Opcodes.ACC_SYNTHETIC) != 0 && m.desc.contains(STACK) && !m.name.equals(Names.ENTER)) {
        out.add(m.name + m.desc);
      }
    }
    return out;
  }

  private static List<String> declared(byte[] classFile) {
    List<String> out = new ArrayList<>();
    for (MethodNode m : node(classFile).methods) {
      out.add(m.name + m.desc);
    }
    return out;
  }

  private static MethodNode method(byte[] classFile, String name, String desc) {
    return node(classFile).methods.stream().filter(m -> m.name.equals(name) && m.desc.equals(desc)).findFirst()
        .orElseThrow();
  }

  private static List<String> calls(byte[] classFile, String name, String desc) {
    List<String> out = new ArrayList<>();
    for (AbstractInsnNode i : method(classFile, name, desc).instructions) {
      if (i instanceof MethodInsnNode) {
        MethodInsnNode c = (MethodInsnNode) i;
        if (!"io/krill/fibers/Stack".equals(c.owner) || "current".equals(c.name)) {
          out.add(c.owner + "." + c.name + c.desc);
        }
      }
    }
    return out;
  }

  private static Object marker(byte[] classFile) {
    return node(classFile).fields.stream().filter(f -> Names.WOVEN_FIELD.equals(f.name)).findFirst().orElseThrow().value;
  }
}
