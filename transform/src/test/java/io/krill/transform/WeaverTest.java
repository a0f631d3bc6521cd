package io.krill.transform;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.krill.transform.internal.Names;
import java.lang.reflect.Method;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.FieldNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;

class WeaverTest {
  private static final String SIMPLE = String.join("\n",
      "package t;",
      "import io.krill.fibers.Suspendable;",
      "public class Simple {",
      "  static void park() throws Suspendable {}",
      "  public static int run(int a) throws Suspendable {",
      "    int b = a * 2;",
      "    park();",
      "    return a + b;",
      "  }",
      "  public static int plain(int a) { return a + 1; }",
      "}");

  static List<SuspendableShapes.Shape> shapes() {
    return SuspendableShapes.all();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("shapes")
  void weave_validShape_verifiesAndRunsLikeUnwovenOffFiber(SuspendableShapes.Shape shape) throws Exception {
    CompiledClasses classes = TestCompiler.compile(SuspendableShapes.LEAVES, shape.source());
    Map<String, byte[]> woven = weaveAll(classes);

    assertThat(woven).as("the shape's class is woven").containsKey(shape.className());
    ClassLoader verifyLoader = classes.loader(woven);
    for (Map.Entry<String, byte[]> e : woven.entrySet()) {
      assertThat(CompiledClasses.verify(e.getValue(), verifyLoader)).as("verification of %s", e.getKey()).isEmpty();
    }
    Object expected = check(classes.loader(Map.of()), shape.className());
    Object actual = check(classes.loader(woven), shape.className());
    assertThat(actual).isEqualTo(expected);
  }

  /* Found by the fuzzer: the monitor dataflow diverged when a synchronized block sat in a try in a loop. */
  @Test
  @org.junit.jupiter.api.Timeout(20)
  void weave_synchronizedInTryInLoop_terminatesAndAcceptsSuspensionOutsideTheMonitor() {
    CompiledClasses classes = TestCompiler.compile(String.join("\n",
        "package t;",
        "import io.krill.fibers.Suspendable;",
        "public class MonitorLoop {",
        "  static final Object LOCK = new Object();",
        "  static int n;",
        "  static void park() throws Suspendable {}",
        "  static void m() throws Suspendable {",
        "    for (int i = 0; i < 2; i++) {",
        "      try {",
        "        synchronized (LOCK) {",
        "          n++;",
        "        }",
        "        park();",
        "      } catch (RuntimeException e) {",
        "        n--;",
        "      }",
        "    }",
        "    park();",
        "  }",
        "}"));
    byte[] woven = classes.weaver().weave(classes.bytes("t/MonitorLoop"));
    assertThat(woven).isNotSameAs(classes.bytes("t/MonitorLoop"));
    assertThat(markerFields(woven)).hasSize(1);
  }

  @Test
  @org.junit.jupiter.api.Timeout(20)
  void weave_suspensionInsideSynchronizedInTryInLoop_rejected() {
    CompiledClasses classes = TestCompiler.compile(String.join("\n",
        "package t;",
        "import io.krill.fibers.Suspendable;",
        "public class MonitorLoop2 {",
        "  static final Object LOCK = new Object();",
        "  static void park() throws Suspendable {}",
        "  static void m() throws Suspendable {",
        "    for (int i = 0; i < 2; i++) {",
        "      try {",
        "        synchronized (LOCK) {",
        "          park();",
        "        }",
        "      } catch (RuntimeException e) {",
        "        i++;",
        "      }",
        "    }",
        "  }",
        "}"));
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> classes.weaver().weave(classes.bytes("t/MonitorLoop2")))
        .isInstanceOf(TransformException.class)
        .hasMessage("t.MonitorLoop2.m()V (line 10): calls suspendable t.MonitorLoop2.park()V inside a synchronized block,"
            + " which would hold the monitor while suspended; use a fiber-aware io.krill.fibers lock instead of synchronized");
  }

  @Test
  void weave_wovenClass_returnsSameArrayAndKeepsOneMarker() {
    CompiledClasses classes = TestCompiler.compile(SIMPLE);
    byte[] once = classes.weaver().weave(classes.bytes("t/Simple"));

    byte[] againSameWeaver = classes.weaver().weave(once);
    byte[] againFreshWeaver = Weaver.forLookup(classes.lookup()).weave(once);

    assertThat(once).isNotSameAs(classes.bytes("t/Simple"));
    assertThat(againSameWeaver).isSameAs(once);
    assertThat(againFreshWeaver).isSameAs(once);
    List<FieldNode> markers = markerFields(once);
    assertThat(markers).hasSize(1);
    assertThat((String) markers.get(0).value).matches("[0-9a-f]{16}/abi" + Names.WOVEN_ABI + "\\+lazy\\|run\\(I\\)I\\|run\\(ILio/krill/fibers/Stack;B\\)I"
        + "\\|\\$krill\\$enter\\(ILjava/lang/Object;Lio/krill/fibers/Stack;\\)Ljava/lang/Object;");
  }

  /* Lazy resume calls a frame's method through entries its class holds; interfaces and pre-Java-8 class files have none. */
  @Test
  void weave_lazily_addsResumeEntriesToClasses_notToInterfacesOrOldClassFiles() {
    CompiledClasses classes = TestCompiler.compile(SIMPLE, String.join("\n",
        "package t;",
        "import io.krill.fibers.Suspendable;",
        "public interface Steps {",
        "  void step() throws Suspendable;",
        "  default int twice() throws Suspendable { step(); step(); return 2; }",
        "}"));
    Weaver weaver = classes.weaver();

    ClassNode simple = node(weaver.weave(classes.bytes("t/Simple")));
    ClassNode steps = node(weaver.weave(classes.bytes("t/Steps")));
    ClassNode old = new ClassNode();
    new ClassReader(classes.bytes("t/Simple")).accept(old, 0);
    old.version = Opcodes.V1_7;
    ClassWriter w = new ClassWriter(ClassWriter.COMPUTE_FRAMES);
    old.accept(w);
    ClassNode oldWoven = node(weaver.weave(w.toByteArray()));

    int hidden = Opcodes.ACC_PRIVATE | Opcodes.ACC_STATIC | Opcodes.ACC_SYNTHETIC;
    assertThat(simple.methods.stream().filter(m -> m.name.startsWith("$krill$")).map(m -> m.name + m.desc + " " + m.access))
        .containsExactlyInAnyOrder(Names.ENTER + Names.ENTER_DESC + " " + hidden, Names.ENTRY + Names.ENTRY_DESC + " " + hidden);
    // a method with a stack entry is entered there, given the runtime's stack: not through the original's lookup
    MethodNode enter = simple.methods.stream().filter(m -> m.name.equals(Names.ENTER)).findFirst().orElseThrow();
    assertThat(java.util.stream.StreamSupport.stream(enter.instructions.spliterator(), false)
        .filter(i -> i instanceof MethodInsnNode).map(i -> ((MethodInsnNode) i).name + ((MethodInsnNode) i).desc))
        .contains("run(ILio/krill/fibers/Stack;B)I").doesNotContain("run(I)I");
    assertThat(steps.methods).extracting(m -> m.name).isNotEmpty().noneMatch(n -> n.startsWith("$krill$"));
    assertThat(oldWoven.methods).extracting(m -> m.name).contains("run").noneMatch(n -> n.startsWith("$krill$"));
    assertThat((String) marker(steps)).doesNotContain(Names.ENTER);
  }

  private static ClassNode node(byte[] classFile) {
    ClassNode cn = new ClassNode();
    new ClassReader(classFile).accept(cn, 0);
    return cn;
  }

  private static Object marker(ClassNode cn) {
    return cn.fields.stream().filter(f -> Names.WOVEN_FIELD.equals(f.name)).findFirst().orElseThrow().value;
  }

  /* Traces and dumps read a frame's line from the store: the class names each resume index's line. */
  @Test
  void weave_class_carriesTheLineOfEachCallSite() {
    CompiledClasses classes = TestCompiler.compile(SIMPLE);
    byte[] woven = classes.weaver().weave(classes.bytes("t/Simple"));

    ClassNode cn = new ClassNode();
    new ClassReader(woven).accept(cn, ClassReader.SKIP_CODE);
    List<Object> lines = cn.fields.stream().filter(f -> Names.LINES_FIELD.equals(f.name)).map(f -> f.value)
        .collect(Collectors.toList());
    assertThat(lines).containsExactly("Simple.java|run(I)I:7"); // park() is on line 7 of SIMPLE
  }

  /*
   * A class that an older weaver wove reads Stack fields that are gone: skipping it as woven
   * already would fail at run time, so the weaver names it and says to rebuild clean.
   * "" stands for the classes woven before the marker carried an ABI.
   */
  @ParameterizedTest
  @MethodSource("otherAbiStamps")
  void weave_classWovenByAnotherAbi_failsNamingTheClassAndSayingRebuildClean(String stamp, String abi) {
    CompiledClasses classes = TestCompiler.compile(SIMPLE);
    byte[] woven = classes.weaver().weave(classes.bytes("t/Simple"));
    byte[] stale = CompiledClasses.restamp(woven, m -> m.replace("/abi" + Names.WOVEN_ABI + Names.LAZY_RESUME + "|", stamp + "|"));

    assertThatThrownBy(() -> classes.weaver().weave(stale))
        .isInstanceOf(TransformException.class)
        .hasMessage("t.Simple: woven by another krill weaver (woven ABI " + abi + ", this weaver's is "
            + Names.WOVEN_ABI + "); rebuild clean (mvn clean) so that it is woven from the compiled class");
  }

  static List<Arguments> otherAbiStamps() {
    return List.of(
        Arguments.of("", "1"),
        Arguments.of("/abi1", "1"),
        Arguments.of("/abi" + (Names.WOVEN_ABI + 1), Integer.toString(Names.WOVEN_ABI + 1)));
  }

  @Test
  void weave_classWithoutSuspendableCalls_returnsSameArray() {
    CompiledClasses classes = TestCompiler.compile(String.join("\n",
        "package t;",
        "import io.krill.fibers.Suspendable;",
        "public class Nothing {",
        "  static int leaf(int a) throws Suspendable { return a; }",
        "  static int plain(int a) { return Math.max(a, 1); }",
        "}"), String.join("\n",
        "package t;",
        "import io.krill.fibers.Suspendable;",
        "interface Api { void call() throws Suspendable; default int size() { return 0; } }"));
    Weaver weaver = classes.weaver();

    for (String name : List.of("t/Nothing", "t/Api", "io/krill/fibers/Stack")) {
      byte[] in = classes.bytes(name);
      assertThat(weaver.weave(in)).as(name).isSameAs(in);
    }
  }

  @Test
  void weave_primitiveMethodCallingSuspendable_isLeftUnwovenAndUnchecked() {
    CompiledClasses classes = TestCompiler.compile(String.join("\n",
        "package t;",
        "import io.krill.fibers.Suspendable;",
        "import io.krill.fibers.Primitive;",
        "public class Prim {",
        "  static void park() throws Suspendable {}",
        "  @Primitive",
        "  static void detach() {",
        "    try { park(); } catch (Exception e) { throw new IllegalStateException(e); }",
        "  }",
        "}"));
    byte[] in = classes.bytes("t/Prim");

    assertThat(classes.weaver().weave(in)).isSameAs(in);
  }

  @Test
  void weave_wovenClass_hasMarkerAndOnlySuspendableMethodsChange() throws Exception {
    CompiledClasses classes = TestCompiler.compile(SIMPLE);
    byte[] woven = classes.weaver().weave(classes.bytes("t/Simple"));
    ClassLoader loader = classes.loader(Map.of("t/Simple", woven));

    Class<?> c = loader.loadClass("t.Simple");
    assertThat(c.getDeclaredField(Names.WOVEN_FIELD).getType()).isEqualTo(String.class);
    assertThat(c.getMethod("run", int.class).invoke(null, 5)).isEqualTo(15);
    assertThat(c.getMethod("plain", int.class).invoke(null, 5)).isEqualTo(6);
    assertThat(CompiledClasses.verify(woven, loader)).isEmpty();
    assertThat(instructionCount(woven, "plain")).isEqualTo(instructionCount(classes.bytes("t/Simple"), "plain"));
    assertThat(instructionCount(woven, "run")).isGreaterThan(instructionCount(classes.bytes("t/Simple"), "run"));
  }

  @Test
  void register_classOutsideLookup_makesItsMarkingKnown() {
    CompiledClasses classes = TestCompiler.compile(String.join("\n",
        "package t;",
        "import io.krill.fibers.Suspendable;",
        "public class Callee { public static void park() throws Suspendable {} }"), String.join("\n",
        "package t;",
        "public class Hidden {",
        "  void run() throws Exception { Callee.park(); }",
        "}"));
    Function<String, byte[]> withoutCallee = name -> "t/Callee".equals(name) ? null : classes.lookup().apply(name);
    Weaver weaver = Weaver.forLookup(withoutCallee);
    byte[] hidden = classes.bytes("t/Hidden");

    assertThat(weaver.weave(hidden)).as("an unknown callee counts as not suspendable").isSameAs(hidden);

    Weaver registered = Weaver.forLookup(withoutCallee);
    registered.register(classes.bytes("t/Callee"));
    assertThatThrownBy(() -> registered.weave(hidden))
        .isInstanceOf(TransformException.class)
        .hasMessageContaining("calls suspendable t.Callee.park()V but is not declared 'throws Suspendable'");
  }

  @Test
  void weave_nullArgument_throwsNullPointerExceptionNamingIt() {
    Weaver weaver = Weaver.forLookup(name -> null);

    assertThatThrownBy(() -> weaver.weave(null)).isInstanceOf(NullPointerException.class).hasMessage("classFile");
    assertThatThrownBy(() -> Weaver.forLookup(null)).isInstanceOf(NullPointerException.class).hasMessage("lookup");
  }

  @Test
  void verify_classWithTypeError_reportsIt() {
    ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_MAXS);
    cw.visit(Opcodes.V17, Opcodes.ACC_PUBLIC, "t/Bad", null, "java/lang/Object", null);
    MethodVisitor mv = cw.visitMethod(Opcodes.ACC_STATIC, "m", "()Ljava/lang/String;", null, null);
    mv.visitCode();
    mv.visitInsn(Opcodes.ICONST_0);
    mv.visitInsn(Opcodes.ARETURN);
    mv.visitMaxs(0, 0);
    mv.visitEnd();
    cw.visitEnd();

    String report = CompiledClasses.verify(cw.toByteArray(), getClass().getClassLoader());

    assertThat(report).as("the verification used by the corpus must be able to fail").contains("Expected an object reference, but found I");
  }

  private static final String FORWARDERS = String.join("\n",
      "package t;",
      "import io.krill.fibers.Suspendable;",
      "public class Forwarders extends ForwardersBase {",
      "  static Object raw(int n) throws Suspendable { return null; }",
      "  static int prim(long n) throws Suspendable { return 0; }",
      "  Object rawHere() throws Suspendable { return null; }",
      "  String cast(int n) throws Suspendable { return (String) raw(n); }",
      "  int widened(int n) throws Suspendable { return prim(n); }",
      "  Integer boxed(long n) throws Suspendable { return prim(n); }",
      "  String onThis() throws Suspendable { return (String) rawHere(); }",
      "  static String onArgument(Forwarders f) throws Suspendable { return f.onThis(); }",
      "  int constant() throws Suspendable { return prim(4L); }",
      "  int unboxed(Integer n) throws Suspendable { return prim(n); }",
      "  int twice(int n) throws Suspendable { return prim(prim(n)); }",
      "  int afterwards(int n) throws Suspendable { return prim(n) + 1; }",
      "  int field;",
      "  int readsField() throws Suspendable { return prim(field); }",
      "  static final Forwarders ONE = new Forwarders(null, 1);",
      "  final Forwarders next;",
      "  final int count;",
      "  Forwarders mutable;",
      "  volatile Forwarders shared;",
      "  Forwarders(Forwarders next, int count) { super(next); this.next = next; this.count = count; }",
      "  String onFinalField() throws Suspendable { return next.onThis(); }",
      "  String onFinalChain() throws Suspendable { return (String) next.next.rawHere(); }",
      "  String onStaticFinal() throws Suspendable { return ONE.onThis(); }",
      "  String onInheritedFinal() throws Suspendable { return inherited.onThis(); }",
      "  int finalArgument() throws Suspendable { return prim(count); }",
      "  String onMutableField() throws Suspendable { return mutable.onThis(); }",
      "  String onVolatileField() throws Suspendable { return shared.onThis(); }",
      "  String onMutableInChain() throws Suspendable { return next.mutable.onThis(); }",
      "  static String onArgumentsField(Forwarders f) throws Suspendable { return f.next.onThis(); }",
      "}");

  private static final String FORWARDERS_BASE = String.join("\n",
      "package t;",
      "public class ForwardersBase {",
      "  protected final Forwarders inherited;",
      "  ForwardersBase(Forwarders inherited) { this.inherited = inherited; }",
      "}");

  /* A pure forwarder needs no frame: it is left as javac wrote it, yet listed as woven for the verifier. */
  @Test
  void weave_pureForwarders_keptAsCompiled_othersWoven() {
    CompiledClasses classes = TestCompiler.compile(FORWARDERS, FORWARDERS_BASE);
    byte[] original = classes.bytes("t/Forwarders");
    byte[] woven = classes.weaver().weave(original);

    for (String pure : List.of("cast", "widened", "boxed", "onThis", "onFinalField", "onFinalChain", "onStaticFinal",
        "onInheritedFinal", "finalArgument")) {
      assertThat(instructionCount(woven, pure)).as(pure).isEqualTo(instructionCount(original, pure));
      assertThat(callsStack(woven, pure)).as(pure + " touches no frame store").isFalse();
    }
    for (String framed : List.of("onArgument", "constant", "unboxed", "twice", "afterwards", "readsField",
        "onMutableField", "onVolatileField", "onMutableInChain", "onArgumentsField")) {
      assertThat(callsStack(woven, framed)).as(framed + " is woven").isTrue();
    }
    assertThat((String) markerFields(woven).get(0).value)
        .contains("|cast(I)Ljava/lang/String;", "|widened(I)I", "|boxed(J)Ljava/lang/Integer;", "|onThis()",
            "|onFinalField()");
  }

  /*
   * Before class file version 53 the JVM let any method of a class write its final fields, so a
   * final field declared in such a class file is no proof that a resume reads the same value.
   */
  @Test
  void weave_forwarderOnFinalFieldOfOldClassFile_keepsItsFrame() {
    CompiledClasses classes = TestCompiler.compile(FORWARDERS, FORWARDERS_BASE);
    ClassWriter cw = new ClassWriter(0);
    new ClassReader(classes.bytes("t/ForwardersBase")).accept(new org.objectweb.asm.ClassVisitor(Opcodes.ASM9, cw) {
      @Override
      public void visit(int version, int access, String name, String signature, String superName, String[] itfs) {
        super.visit(Opcodes.V1_8, access, name, signature, superName, itfs);
      }
    }, 0);
    byte[] oldBase = cw.toByteArray();
    Function<String, byte[]> lookup = name -> name.equals("t/ForwardersBase") ? oldBase : classes.lookup().apply(name);

    byte[] woven = Weaver.forLookup(lookup).weave(classes.bytes("t/Forwarders"));

    assertThat(callsStack(woven, "onInheritedFinal")).as("a final field of a Java 8 class file").isTrue();
    assertThat(callsStack(woven, "onFinalField")).as("a final field of this Java 17 class file").isFalse();
  }

  private static final String CARRIED = String.join("\n",
      "package t;",
      "import io.krill.fibers.Suspendable;",
      "public class Carried {",
      "  static int step(int x) throws Suspendable { return x; }",
      "  static long tight(int[] a) throws Suspendable {",
      "    long sum = 0;",
      "    for (int i = 0; i < a.length; i++) {",
      "      sum += step(a[i]);",
      "    }",
      "    return sum;",
      "  }",
      "}");

  /*
   * A restore into a loop reloads the array and the counter before the loop's header, so C2
   * sees each as one value entering the loop; zeros there and the saved values reloaded after
   * the header would make them new values in every iteration.
   */
  @Test
  void weave_restoreIntoLoop_reloadsCarriedLocalsBeforeTheHeader() {
    CompiledClasses classes = TestCompiler.compile(CARRIED);
    byte[] woven = classes.weaver().weave(classes.bytes("t/Carried"));
    ClassNode cn = new ClassNode();
    new ClassReader(woven).accept(cn, ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
    org.objectweb.asm.tree.MethodNode tight = cn.methods.stream().filter(m -> m.name.equals("tight")).findFirst().orElseThrow();
    org.objectweb.asm.tree.TableSwitchInsnNode dispatch = (org.objectweb.asm.tree.TableSwitchInsnNode)
        java.util.stream.StreamSupport.stream(tight.instructions.spliterator(), false)
            .filter(i -> i.getOpcode() == Opcodes.TABLESWITCH).findFirst().orElseThrow();

    List<String> enter = new java.util.ArrayList<>(); // the restore path up to its jump to the loop's header
    for (org.objectweb.asm.tree.AbstractInsnNode i = dispatch.labels.get(0); i.getOpcode() != Opcodes.GOTO; i = i.getNext()) {
      if (i instanceof org.objectweb.asm.tree.VarInsnNode && i.getOpcode() >= Opcodes.ISTORE) {
        enter.add(i.getPrevious().getOpcode() + ">" + i.getOpcode() + " " + ((org.objectweb.asm.tree.VarInsnNode) i).var);
      }
    }
    assertThat(enter).as("stores before the header, as (opcode of the value)>(store) slot")
        .contains(Opcodes.CHECKCAST + ">" + Opcodes.ASTORE + " 0", Opcodes.L2I + ">" + Opcodes.ISTORE + " 5"); // the stack entry: the stack is slot 1, its flow slot 2
  }

  private static boolean callsStack(byte[] classFile, String method) {
    ClassNode cn = new ClassNode();
    new ClassReader(classFile).accept(cn, ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
    return java.util.stream.StreamSupport.stream(
        cn.methods.stream().filter(m -> m.name.equals(method)).findFirst().orElseThrow().instructions.spliterator(), false)
        .anyMatch(i -> i instanceof org.objectweb.asm.tree.MethodInsnNode
            && Names.STACK.equals(((org.objectweb.asm.tree.MethodInsnNode) i).owner));
  }

  static Map<String, byte[]> weaveAll(CompiledClasses classes) {
    Weaver weaver = classes.weaver();
    Map<String, byte[]> woven = new LinkedHashMap<>();
    classes.all().forEach((name, bytes) -> {
      byte[] out = weaver.weave(bytes);
      if (out != bytes) {
        woven.put(name, out);
      }
    });
    return woven;
  }

  private static Object check(ClassLoader loader, String className) throws Exception {
    Method m = loader.loadClass(className.replace('/', '.')).getDeclaredMethod("check");
    m.setAccessible(true);
    return String.valueOf(m.invoke(null));
  }

  private static List<FieldNode> markerFields(byte[] classFile) {
    ClassNode cn = new ClassNode();
    new ClassReader(classFile).accept(cn, ClassReader.SKIP_CODE);
    return cn.fields.stream().filter(f -> Names.WOVEN_FIELD.equals(f.name)).collect(Collectors.toList());
  }

  private static int instructionCount(byte[] classFile, String method) {
    ClassNode cn = new ClassNode();
    new ClassReader(classFile).accept(cn, ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
    return cn.methods.stream().filter(m -> m.name.equals(method)).findFirst().orElseThrow().instructions.size();
  }
}
