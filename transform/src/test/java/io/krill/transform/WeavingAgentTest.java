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
    assertThat(err[0]).startsWith("krill agent: cannot weave app/Junk: ");
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
