package io.krill.fibers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.krill.transform.InMemoryCompiler;
import io.krill.transform.MemoryClassLoader;
import io.krill.transform.Weaver;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.ObjectStreamClass;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Lazy resume: a class woven for it (the default, {@code krill.weave.lazyResume=true}) resumes without
 * re-entering the frames that only wait, and its results, exceptions, frame ids and serialized
 * form are those of a stack resumed whole.
 */
class LazyResumeTest {
  private static final String NAME = "gen.Deep";

  /*
   * run -> outer(n) -> ... -> outer(0) -> the entry (a loop that suspends every round), whose
   * return type and kind (static or instance) the mode chooses. Each round logs how many outer
   * frames are on the thread's stack: all of them when the stack is re-entered whole, none when
   * they wait aside. In mode grow, the rounds from the third suspend deeper each time, so the
   * capture above the waiting frames outgrows the store's arrays while they wait aside.
   */
  private static final String SOURCE = String.join("\n",
      "package gen;",
      "import io.krill.fibers.Continuation;",
      "import io.krill.fibers.Suspendable;",
      "import io.krill.fibers.SuspendableRunnable;",
      "public class Deep implements SuspendableRunnable, java.io.Serializable {",
      "  public final java.util.List<String> log = new java.util.ArrayList<>();",
      "  public Object result;",
      "  final int above;",
      "  final int rounds;",
      "  final String mode;",
      "  public Deep(int above, int rounds, String mode) { this.above = above; this.rounds = rounds; this.mode = mode; }",
      "  public void run() throws Suspendable {",
      "    try {",
      "      result = \"run:\" + outer(above);",
      "    } catch (IllegalStateException e) {",
      "      StringBuilder b = new StringBuilder(\"caught:\" + e.getMessage() + \" trace:\");",
      "      for (StackTraceElement t : e.getStackTrace()) {",
      "        if (t.getClassName().equals(\"gen.Deep\")) b.append(' ').append(t.getMethodName()).append('(')",
      "            .append(t.getFileName()).append(':').append(t.getLineNumber()).append(')');",
      "      }",
      "      result = b.toString();",
      "    }",
      "  }",
      "  long outer(int n) throws Suspendable {",
      "    if (n == 0) {",
      "      switch (mode) {",
      "        case \"long\": case \"throw\": return loop();",
      "        case \"int\": return loopInt(this, rounds) * 2L;",
      "        case \"double\": return (long) (loopDouble() * 4);",
      "        case \"string\": return loopString().length();",
      "        case \"void\": loopVoid(this); return -1;",
      "        case \"grow\": return loopGrow();",
      "        default: throw new IllegalArgumentException(mode);",
      "      }",
      "    }",
      "    long r = outer(n - 1);",
      "    log.add(\"outer\" + n + \"=\" + r);",
      "    return r + n;",
      "  }",
      "  static void pause() throws Suspendable {",
      "    if (Continuation.isInContinuation()) Continuation.suspend();",
      "  }",
      "  void round(int i) {",
      "    int outers = 0;",
      "    for (StackTraceElement t : new Throwable().getStackTrace()) {",
      "      if (t.getMethodName().equals(\"outer\")) outers++;",
      "    }",
      "    log.add(\"r\" + i + \":\" + outers);",
      "  }",
      "  long loop() throws Suspendable {",
      "    long sum = 0;",
      "    for (int i = 0; i < rounds; i++) { pause(); round(i); sum += i * 3L; }",
      "    if (mode.equals(\"throw\")) throw new IllegalStateException(\"after \" + sum);",
      "    return sum;",
      "  }",
      "  static int loopInt(Deep d, int n) throws Suspendable {",
      "    int sum = 7;",
      "    for (int i = 0; i < n; i++) { pause(); d.round(i); sum += i; }",
      "    return sum;",
      "  }",
      "  double loopDouble() throws Suspendable {",
      "    double x = 0.5;",
      "    for (int i = 0; i < rounds; i++) { pause(); round(i); x += 0.25; }",
      "    return x;",
      "  }",
      "  String loopString() throws Suspendable {",
      "    String s = \"\";",
      "    for (int i = 0; i < rounds; i++) { pause(); round(i); s += i; }",
      "    return s;",
      "  }",
      "  long loopGrow() throws Suspendable {",
      "    long sum = 0;",
      "    for (int i = 0; i < rounds; i++) { sum += deeper(i < 2 ? 0 : i * 3); round(i); }",
      "    return sum;",
      "  }",
      "  static long deeper(int n) throws Suspendable {",
      "    if (n == 0) { pause(); return 1; }",
      "    long r = deeper(n - 1);",
      "    return r * 3 + n;",
      "  }",
      "  static void loopVoid(Deep d) throws Suspendable {",
      "    for (int i = 0; i < d.rounds; i++) { pause(); d.round(i); }",
      "    d.log.add(\"void done\");",
      "  }",
      "}",
      "");

  /* The source lines (1-based) of SOURCE's calls that a trace of the "throw" mode names. */
  private static final int RUN_CALLS_OUTER = lineOf("result = \"run:\" + outer(above);");
  private static final int OUTER_CALLS_LOOP = lineOf("case \"long\": case \"throw\": return loop();");
  private static final int OUTER_RECURSES = lineOf("long r = outer(n - 1);");
  private static final int LOOP_THROWS = lineOf("if (mode.equals(\"throw\")) throw");

  private static int lineOf(String code) {
    String[] lines = SOURCE.split("\n");
    for (int i = 0; i < lines.length; i++) {
      if (lines[i].contains(code)) {
        return i + 1;
      }
    }
    throw new AssertionError(code);
  }

  private static Map<String, byte[]> woven;
  private static Map<String, byte[]> wovenEagerly;

  @BeforeAll
  static void weave() throws Exception {
    byte[] plain;
    try (InMemoryCompiler javac = new InMemoryCompiler(System.getProperty("java.class.path"))) {
      plain = javac.compileValid(Map.of(NAME, SOURCE), "--release", "17", "-g").get("gen/Deep");
    }
    woven = Map.of("gen/Deep", weaveWith("true", plain));
    wovenEagerly = Map.of("gen/Deep", weaveWith("false", plain));
  }

  private static byte[] weaveWith(String lazy, byte[] plain) {
    String before = System.getProperty("krill.weave.lazyResume");
    if (lazy == null) {
      System.clearProperty("krill.weave.lazyResume");
    } else {
      System.setProperty("krill.weave.lazyResume", lazy);
    }
    try {
      Weaver weaver = InMemoryCompiler.weaverFor(Map.of(), LazyResumeTest.class.getClassLoader());
      weaver.register(plain);
      return weaver.weave(plain);
    } finally {
      if (before == null) {
        System.clearProperty("krill.weave.lazyResume");
      } else {
        System.setProperty("krill.weave.lazyResume", before);
      }
    }
  }

  private static Object program(int above, int rounds, String mode) throws Exception {
    Class<?> c = new MemoryClassLoader(LazyResumeTest.class.getClassLoader(), woven).loadClass(NAME);
    return c.getConstructor(int.class, int.class, String.class).newInstance(above, rounds, mode);
  }

  @SuppressWarnings("unchecked")
  private static List<String> log(Object program) throws Exception {
    return (List<String>) program.getClass().getField("log").get(program);
  }

  private static Object result(Object program) throws Exception {
    return program.getClass().getField("result").get(program);
  }

  /** The program run on the thread, never suspending: the reference. */
  private static Object[] plainRun(int above, int rounds, String mode) throws Exception {
    Object p = program(above, rounds, mode);
    Continuation.runOnThread((SuspendableRunnable) p);
    return new Object[] {result(p), log(p)};
  }

  /** @return the number of outer frames on the thread's stack at each round */
  private static List<Integer> outersPerRound(List<String> log) {
    List<Integer> n = new ArrayList<>();
    for (String line : log) {
      if (line.startsWith("r")) {
        n.add(Integer.parseInt(line.substring(line.indexOf(':') + 1)));
      }
    }
    return n;
  }

  private static List<String> withoutRounds(List<String> log) {
    List<String> out = new ArrayList<>(log);
    out.removeIf(l -> l.startsWith("r"));
    return out;
  }

  @ParameterizedTest
  @CsvSource({"long,0", "long,1", "long,6", "int,6", "double,6", "string,6", "void,6", "throw,6", "throw,0", "long,200",
      "throw,200", "grow,0", "grow,6", "grow,200"})
  void resume_waitingFramesAbove_stayAsideAndTakeTheResultAsWhole(String mode, int above) throws Exception {
    int rounds = 5;
    Object[] expected = plainRun(above, rounds, mode);
    Object p = program(above, rounds, mode);
    Continuation c = new Continuation((SuspendableRunnable) p);
    int runs = 0;
    while (!c.isDone()) {
      c.run();
      runs++;
    }

    assertThat(runs).isEqualTo(rounds + 1);
    assertThat(withoutRounds(log(p))).isEqualTo(withoutRounds((List<String>) expected[1]));
    List<Integer> outers = outersPerRound(log(p));
    // run's frame and the outer frames wait: the first resume re-enters them, the rest do not
    int waiting = above + 2;
    assertThat(outers.get(0)).isEqualTo(above + 1);
    List<Integer> later = outers.subList(1, outers.size());
    if (waiting >= LazyResume.MIN_WAITING) {
      // a capture counts at most 127 waiting frames (in Stack.flow): the rest resume each round
      int aside = Math.min(waiting, Stack.waitingFrames(Byte.MIN_VALUE));
      assertThat(later).containsOnly(waiting - aside);
    } else {
      assertThat(later).containsOnly(above + 1);
    }
    if (mode.equals("throw")) {
      // the trace names the waiting frames it passed while they were aside, with the lines they wait at
      StringBuilder trace = new StringBuilder("caught:after 30 trace: loop(Deep.java:" + LOOP_THROWS + ")");
      trace.append(" outer(Deep.java:" + OUTER_CALLS_LOOP + ")");
      for (int i = 0; i < above; i++) {
        trace.append(" outer(Deep.java:" + OUTER_RECURSES + ")");
      }
      trace.append(" run(Deep.java:" + RUN_CALLS_OUTER + ")");
      assertThat(result(p)).isEqualTo(trace.toString());
      assertThat(expected[0]).isEqualTo(trace.toString());
    } else {
      assertThat(result(p)).isEqualTo(expected[0]);
    }
  }

  /* Woven without lazy resume, every frame is re-entered through its restore's own call. */
  @Test
  void resume_wovenWithoutLazyResume_traceNamesTheLinesOfTheReenteredCalls() throws Exception {
    Object[] expected = plainRun(6, 5, "throw");
    Class<?> k = new MemoryClassLoader(LazyResumeTest.class.getClassLoader(), wovenEagerly).loadClass(NAME);
    Object p = k.getConstructor(int.class, int.class, String.class).newInstance(6, 5, "throw");
    Continuation c = new Continuation((SuspendableRunnable) p);
    while (!c.isDone()) {
      c.run();
    }
    assertThat(outersPerRound(log(p))).containsOnly(7); // every outer frame on the thread in every round
    assertThat(result(p)).isEqualTo(expected[0]).asString().contains("outer(Deep.java:" + OUTER_RECURSES + ")");
  }

  /* The frame id of method nameAndDesc of the class of program p, with the version its class was woven with. */
  private static String frameId(Object p, String nameAndDesc) throws Exception {
    java.lang.reflect.Field f = p.getClass().getDeclaredField("$krill$woven");
    String version = ((String) f.get(null)).split("\\|")[0];
    return "gen/Deep." + nameAndDesc + "#" + version;
  }

  @Test
  void entry_ofLazilyWovenClass_isMadeByTheClassItself_andCallsTheMethodWithZeros() throws Throwable {
    Object p = program(0, 3, "long");
    Stack.Entry loop = LazyResume.entry(frameId(p, "loop()J"), p);
    Stack.Entry loopInt = LazyResume.entry(frameId(p, "loopInt(Lgen/Deep;I)I"), p.getClass());
    Stack.Entry loopDouble = LazyResume.entry(frameId(p, "loopDouble()D"), p);
    Stack.Entry loopVoid = LazyResume.entry(frameId(p, "loopVoid(Lgen/Deep;)V"), p.getClass());

    // the class's $krill$entry made them (LambdaMetafactory's hidden classes), not a method handle
    for (Stack.Entry e : List.of(loop, loopInt, loopDouble, loopVoid)) {
      assertThat(e.getClass().isHidden()).as(e.getClass().getName()).isTrue();
    }
    assertThat(LazyResume.entry(frameId(p, "loop()J"), p)).isSameAs(loop); // made once per method
    // off a continuation the method just runs: non-virtual on the receiver, zero arguments, the result boxed
    assertThat(loop.enter(p, Stack.current())).isEqualTo(9L); // 0 + 3 + 6
    assertThat(loopInt.enter(p.getClass(), Stack.current())).isEqualTo(7); // n = 0: no round
    assertThat(loopDouble.enter(p, Stack.current())).isEqualTo(1.25); // 0.5 + 3 x 0.25
    // the argument is null, as on a resume (where the method reads its own from its frame): what it throws comes out
    assertThatThrownBy(() -> loopVoid.enter(p.getClass(), Stack.current())).isInstanceOf(NullPointerException.class);
    assertThat(log(p)).containsExactly("r0:0", "r1:0", "r2:0", "r0:0", "r1:0", "r2:0");
    // a method the class does not have: no entry (the stack then resumes whole)
    assertThat(LazyResume.entry(frameId(p, "nothing()V"), p)).isNull();
  }

  @Test
  void entry_ofEagerlyWovenClass_fallsBackToAMethodHandle() throws Throwable {
    Class<?> c = new MemoryClassLoader(LazyResumeTest.class.getClassLoader(), wovenEagerly).loadClass(NAME);
    Object p = c.getConstructor(int.class, int.class, String.class).newInstance(0, 2, "long");
    assertThat(java.util.Arrays.stream(c.getDeclaredMethods()).map(java.lang.reflect.Method::getName))
        .doesNotContain("$krill$entry", "$krill$enter");

    Stack.Entry loop = LazyResume.entry(frameId(p, "loop()J"), p);

    assertThat(loop.getClass().isHidden()).isFalse();
    assertThat(loop.enter(p, Stack.current())).isEqualTo(3L); // 0 + 3
  }

  @Test
  void frameIds_whileFramesWaitAside_listEveryFrameAsAWholeStack() throws Exception {
    Object p = program(3, 4, "long");
    Continuation c = new Continuation((SuspendableRunnable) p);
    c.run();
    List<String> whole = c.frameIds(); // the first suspension: nothing aside yet
    List<StackTraceElement> elements = c.frameElements();
    c.run();
    c.run();
    assertThat(outersPerRound(log(p))).containsExactly(4, 0);
    assertThat(c.frameIds()).isEqualTo(whole).hasSize(7); // run, outer x 4, loop, pause
    // as a dump prints them: the frames aside and those below, each at the line of its call
    assertThat(c.frameElements()).isEqualTo(elements);
    assertThat(elements.get(0)).hasToString("gen.Deep.run(Deep.java:" + RUN_CALLS_OUTER + ")");
    assertThat(elements.get(1)).hasToString("gen.Deep.outer(Deep.java:" + OUTER_RECURSES + ")");
    assertThat(elements.get(4)).hasToString("gen.Deep.outer(Deep.java:" + OUTER_CALLS_LOOP + ")");
    assertThat(elements.get(5).toString()).startsWith("gen.Deep.loop(Deep.java:");
    assertThat(whole.get(0)).startsWith("gen/Deep.run()V#").endsWith("+lazy");
    assertThat(whole.get(5)).startsWith("gen/Deep.loop()J#");
    assertThat(whole.get(6)).startsWith("gen/Deep.pause()V#");
  }

  @Test
  void serialize_whileFramesWaitAside_resumesWholeInAnotherLoader() throws Exception {
    Object[] expected = plainRun(4, 6, "long");
    Object p = program(4, 6, "long");
    Continuation c = new Continuation((SuspendableRunnable) p);
    c.run();
    c.run();
    c.run();
    assertThat(outersPerRound(log(p))).containsExactly(5, 0);
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      out.writeObject(new Object[] {c, p});
    }
    ClassLoader fresh = new MemoryClassLoader(getClass().getClassLoader(), woven);
    Object[] read;
    try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray())) {
      @Override
      protected Class<?> resolveClass(ObjectStreamClass desc) throws IOException, ClassNotFoundException {
        return Class.forName(desc.getName(), false, fresh);
      }
    }) {
      read = (Object[]) in.readObject();
    }
    Continuation c2 = (Continuation) read[0];
    Object p2 = read[1];
    assertThat(p2.getClass().getClassLoader()).isSameAs(fresh);
    assertThat(c2.frameIds()).isEqualTo(c.frameIds());
    while (!c2.isDone()) {
      c2.run();
    }
    assertThat(result(p2)).isEqualTo(expected[0]);
    // the read stack resumes whole once (its frames were written as one store), then lazily again
    assertThat(outersPerRound(log(p2))).containsExactly(5, 0, 5, 0, 0, 0);
    assertThat(withoutRounds(log(p2))).isEqualTo(withoutRounds((List<String>) expected[1]));
  }

  @Test
  void weave_lazyResumeByDefault_andNeitherTrueNorFalse_failsNamingTheProperty() throws Exception {
    byte[] plain;
    try (InMemoryCompiler javac = new InMemoryCompiler(System.getProperty("java.class.path"))) {
      plain = javac.compileValid(Map.of(NAME, SOURCE), "--release", "17").get("gen/Deep");
    }
    assertThatThrownBy(() -> weaveWith("yes", plain))
        .hasStackTraceContaining("krill.weave.lazyResume: yes (expected: true or false)");
    assertThat(new String(weaveWith("false", plain), java.nio.charset.StandardCharsets.ISO_8859_1))
        .contains("/abi").doesNotContain("+lazy");
    assertThat(new String(weaveWith(null, plain), java.nio.charset.StandardCharsets.ISO_8859_1)).contains("+lazy");
  }

  /* A bad minFrames fails every run of a stack with the same message, not the first capture once. */
  @Test
  void minFrames_bad_everyRunFailsNamingTheProperty_nothingRuns() throws Exception {
    List<String> command = List.of(java.nio.file.Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Dkrill.lazyResume.minFrames=0", "-cp", System.getProperty("java.class.path"), BadMinFrames.class.getName());
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output;
    try (java.io.InputStream in = p.getInputStream()) {
      output = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).trim();
    }
    assertThat(p.waitFor(60, java.util.concurrent.TimeUnit.SECONDS)).as("child JVM finished").isTrue();
    String message = "IllegalArgumentException: krill.lazyResume.minFrames: 0 (expected: an integer >= 1)";
    assertThat(output.lines().filter(l -> l.startsWith("run ")).toList()).as(output).containsExactly(
        "run 1: " + message + ", body ran 0", "run 2: " + message + ", body ran 0",
        "run 3: " + message + ", body ran 0");
  }

  /** The child of {@link #minFrames_bad_everyRunFailsNamingTheProperty_nothingRuns}. */
  public static final class BadMinFrames {
    private BadMinFrames() {}

    static int ran;

    static void body() throws Suspendable {
      ran++;
      Continuation.suspend();
    }

    public static void main(String[] args) {
      Continuation c = new Continuation(BadMinFrames::body);
      for (int i = 1; i <= 2; i++) {
        try {
          c.run();
          System.out.println("run " + i + ": ran, body ran " + ran);
        } catch (RuntimeException | Error e) {
          System.out.println("run " + i + ": " + e.getClass().getSimpleName() + ": " + e.getMessage() + ", body ran " + ran);
        }
      }
      DeterministicScheduler s = FiberScheduler.deterministic();
      Fiber f = Fiber.builder().scheduler(s).start(BadMinFrames::body);
      s.runUntilIdle();
      Throwable e = Continuation.callOnThread(f::joinFailure);
      System.out.println("run 3: " + (e == null ? "ended" : e.getClass().getSimpleName() + ": " + e.getMessage())
          + ", body ran " + ran);
    }
  }

  @Test
  void minFrames_belowOneOrNotANumber_failsNamingTheProperty() {
    assertThat(LazyResume.minWaiting(" 3 ")).isEqualTo(3);
    assertThatThrownBy(() -> LazyResume.minWaiting("0"))
        .hasMessage("krill.lazyResume.minFrames: 0 (expected: an integer >= 1)");
    assertThatThrownBy(() -> LazyResume.minWaiting("two"))
        .hasMessage("krill.lazyResume.minFrames: two (expected: an integer >= 1)");
  }
}
