package io.krill.transform;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class WeavingAgentTest {
  private static final String BAD = String.join("\n",
      "package app;",
      "public class Bad {",
      "  synchronized void run() throws Exception {",
      "    Suspending.park();",
      "  }",
      "}");

  private CompiledClasses classes;
  private ClassLoader loader;
  private ClassFileTransformer agent;

  @BeforeEach
  void installAgent() {
    classes = TestCompiler.compile(TestCompiler.SUSPENDING_APP, BAD, "package app; public class Plain { int x; }");
    loader = classes.loader(Map.of());
    agent = premainTransformer();
  }

  @Test
  void transform_suspendableClass_returnsWovenClassThatVerifiesAndRuns() throws Exception {
    byte[] out = agent.transform(loader, "app/Suspending", null, null, classes.bytes("app/Suspending"));

    assertThat(out).isNotNull();
    Class<?> c = classes.loadWoven("app/Suspending", out);
    assertThat(c.getMethod("run", int.class).invoke(null, 41)).isEqualTo(42);
  }

  @Test
  void transform_alreadyWovenOrNothingToWeave_returnsNull() throws Exception {
    byte[] woven = agent.transform(loader, "app/Suspending", null, null, classes.bytes("app/Suspending"));

    assertThat(agent.transform(loader, "app/Suspending", null, null, woven)).isNull();
    assertThat(agent.transform(loader, "app/Plain", null, null, classes.bytes("app/Plain"))).isNull();
  }

  @Test
  void transform_bootstrapLoaderOrSkippedPackage_returnsNullWithoutWeaving() throws Exception {
    byte[] suspending = classes.bytes("app/Suspending");

    assertThat(agent.transform(null, "app/Suspending", null, null, suspending)).isNull();
    assertThat(agent.transform(loader, null, null, null, suspending)).isNull();
    for (String skipped : List.of("java/x/Y", "javax/x/Y", "jdk/x/Y", "sun/x/Y", "com/sun/x/Y",
        "io/krill/transform/Y", "org/objectweb/asm/Y")) {
      assertThat(agent.transform(loader, skipped, null, null, suspending)).as(skipped).isNull();
    }
  }

  /* A library woven by an earlier weaver, whose resume entries have an older shape: loaded as it is, said once. */
  @Test
  void transform_classWithOlderResumeEntries_loadsAsItIs_andSaysSoOnce() throws Exception {
    byte[] woven = agent.transform(loader, "app/Suspending", null, null, classes.bytes("app/Suspending"));
    byte[] older = CompiledClasses.restamp(woven, m -> m.replace(io.krill.transform.internal.Names.ENTER
        + io.krill.transform.internal.Names.ENTER_DESC, io.krill.transform.internal.Names.ENTER
        + "(ILjava/lang/Object;)Ljava/lang/Object;"));
    assertThat(older).isNotEqualTo(woven);
    ByteArrayOutputStream buffer = new ByteArrayOutputStream();
    WeavingAgent a = new WeavingAgent(WeavingAgent.OnError.WARN, null, new PrintStream(buffer, true, StandardCharsets.UTF_8),
        status -> { });

    assertThat(a.transform(loader, "app/Suspending", null, null, woven)).isNull();
    assertThat(buffer.toString(StandardCharsets.UTF_8)).as("a class of the current shape says nothing").isEmpty();
    assertThat(a.transform(loader, "app/Suspending", null, null, older)).isNull();
    assertThat(a.transform(loader, "app/Other", null, null, older)).isNull();

    assertThat(buffer.toString(StandardCharsets.UTF_8)).isEqualTo("krill agent: app.Suspending (and any other class"
        + " so woven; this is said once) was woven by an earlier krill weaver: it resumes through a method handle,"
        + " which is slower; weave it again with this weaver" + System.lineSeparator());
  }

  @Test
  void transform_classBreakingRule_reportsOnStandardErrorAndLoadsUnwoven() throws Exception {
    String[] err = new String[1];
    byte[] out = withStandardError(err, () -> agent.transform(loader, "app/Bad", null, null, classes.bytes("app/Bad")));

    assertThat(out).isNull();
    assertThat(err[0]).isEqualTo("krill agent: app.Bad.run()V (line 4): calls suspendable app.Suspending.park()V"
        + " in a synchronized method, which would hold the monitor while suspended; use a fiber-aware"
        + " io.krill.fibers lock instead of synchronized" + System.lineSeparator());
  }

  @Test
  void transform_malformedClassFile_reportsAndReturnsNull() throws Exception {
    String[] err = new String[1];
    byte[] out = withStandardError(err, () -> agent.transform(loader, "app/Junk", null, null, new byte[] {1, 2, 3}));

    assertThat(out).isNull();
    assertThat(err[0]).startsWith("krill agent: cannot weave app.Junk: ").endsWith(" (loaded unwoven)" + System.lineSeparator())
        .hasLineCount(1);
  }

  @org.junit.jupiter.params.ParameterizedTest
  @org.junit.jupiter.params.provider.ValueSource(strings = {"stack overflow", "linkage", "assertion"})
  void transform_weaverThrowsError_oneLineNamingClassAndCauseThenLoadsUnwoven(String kind) {
    Error error = error(kind);
    ByteArrayOutputStream buffer = new ByteArrayOutputStream();
    List<Integer> halts = new ArrayList<>();
    WeavingAgent a = new WeavingAgent(WeavingAgent.OnError.WARN, (l, b) -> {
      throw error;
    }, new PrintStream(buffer, true, StandardCharsets.UTF_8), halts::add);

    byte[] out = a.transform(loader, "app/Deep", null, null, classes.bytes("app/Suspending"));

    assertThat(out).isNull();
    assertThat(halts).isEmpty();
    assertThat(buffer.toString(StandardCharsets.UTF_8)).isEqualTo("krill agent: cannot weave app.Deep: " + error
        + " (loaded unwoven)" + System.lineSeparator());
  }

  @Test
  void transform_haltPolicy_reportsThenHaltsWithStatus70() {
    ByteArrayOutputStream buffer = new ByteArrayOutputStream();
    List<Integer> halts = new ArrayList<>();
    WeavingAgent a = new WeavingAgent(WeavingAgent.policy("onError=halt", null), (l, b) -> {
      throw new StackOverflowError();
    }, new PrintStream(buffer, true, StandardCharsets.UTF_8), halts::add);

    a.transform(loader, "app/Deep", null, null, classes.bytes("app/Suspending"));

    assertThat(halts).containsExactly(WeavingAgent.HALT_STATUS);
    assertThat(buffer.toString(StandardCharsets.UTF_8)).isEqualTo("krill agent: cannot weave app.Deep:"
        + " java.lang.StackOverflowError" + System.lineSeparator()
        + "krill agent: halting (krill.agent.onError=halt)" + System.lineSeparator());
  }

  @Test
  void policy_argumentPropertyAndDefault() {
    assertThat(WeavingAgent.policy(null, null)).isEqualTo(WeavingAgent.OnError.WARN);
    assertThat(WeavingAgent.policy(null, "HALT")).isEqualTo(WeavingAgent.OnError.HALT);
    assertThat(WeavingAgent.policy("onError=warn", "halt")).isEqualTo(WeavingAgent.OnError.WARN);
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> WeavingAgent.policy("onError=stop", null))
        .hasMessage("onError: stop (expected: warn or halt)");
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> WeavingAgent.policy("verbose", null))
        .hasMessage("krill agent argument: verbose (expected: onError=warn or onError=halt)");
  }

  private static Error error(String kind) {
    switch (kind) {
      case "stack overflow":
        return new StackOverflowError();
      case "linkage":
        return new NoClassDefFoundError("app/Missing");
      default:
        return new AssertionError("Label offset position has not been resolved yet");
    }
  }

  private static ClassFileTransformer premainTransformer() {
    List<ClassFileTransformer> added = new ArrayList<>();
    Instrumentation inst = (Instrumentation) Proxy.newProxyInstance(WeavingAgentTest.class.getClassLoader(),
        new Class<?>[] {Instrumentation.class}, (proxy, method, args) -> {
          if (method.getName().equals("addTransformer")) {
            added.add((ClassFileTransformer) args[0]);
            return null;
          }
          throw new UnsupportedOperationException(method.getName());
        });
    WeavingAgent.premain(null, inst);
    assertThat(added).hasSize(1);
    return added.get(0);
  }

  interface Transform {
    byte[] run() throws Exception;
  }

  private static byte[] withStandardError(String[] captured, Transform body) throws Exception {
    ByteArrayOutputStream buffer = new ByteArrayOutputStream();
    PrintStream err = System.err;
    System.setErr(new PrintStream(buffer, true, StandardCharsets.UTF_8));
    try {
      return body.run();
    } finally {
      System.setErr(err);
      captured[0] = buffer.toString(StandardCharsets.UTF_8);
    }
  }
}
