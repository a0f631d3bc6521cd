package io.krill.fibers.corpus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.krill.fibers.Suspendable;
import io.krill.transform.InMemoryCompiler;
import io.krill.transform.TransformException;
import io.krill.transform.Weaver;
import java.lang.invoke.MethodHandles;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Frames far larger than usual: hundreds of locals and a hundred stacked arguments. */
class LargeFrameTest {
  /** The generated shapes, called through an interface so that no reflective frame stands between suspensions. */
  interface Shapes {
    String manyLocals(int seed) throws Suspendable;

    String manyLocalsPlain(int seed);

    String manyArguments(int seed) throws Suspendable;

    String manyArgumentsPlain(int seed);
  }

  private static byte[] woven;
  private static Shapes shapes;

  /*
   * Compiled and woven here, as the build weaves the test classes, then defined in this class's
   * own package and loader so that the shapes reach the package-private Points.
   */
  @BeforeAll
  static void weaveShapes() throws Exception {
    // With debug information, as Maven compiles the test classes that the build weaves.
    byte[] plain = compile(LargeFrameSource.NAME, LargeFrameSource.generate(), "--release", "17", "-g");
    Weaver weaver = InMemoryCompiler.weaverFor(Map.of(), LargeFrameTest.class.getClassLoader());
    weaver.register(plain);
    woven = weaver.weave(plain);
    Class<?> c = MethodHandles.lookup().defineClass(woven);
    shapes = (Shapes) c.getDeclaredConstructor().newInstance();
  }

  @Test
  void verify_wovenShapes_passAsmVerifier() throws Exception {
    assertThat(woven).isNotEqualTo(compile(LargeFrameSource.NAME, LargeFrameSource.generate(), "--release", "17", "-g"));
    WovenClassVerificationTest.verify(woven, LargeFrameSource.NAME);
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void manyLocals_240LiveLocalsOfEveryType_matchUnwovenTwin(Mode mode) {
    String expected = shapes.manyLocalsPlain(17);
    assertThat(mode.call(() -> shapes.manyLocals(17))).isEqualTo(expected);
    if (mode.suspends) {
      assertThat(Mode.lastSuspensions).isGreaterThan(10);
    }
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void manyArguments_100ValuesBelowCall_matchUnwovenTwin(Mode mode) {
    String expected = shapes.manyArgumentsPlain(5);
    assertThat(mode.call(() -> shapes.manyArguments(5))).isEqualTo(expected);
  }

  /*
   * Woven code grows with call sites x live locals. 250 live longs across 60 calls cannot fit
   * the JVM's 64 KiB per method; the weaver must say so precisely rather than crash.
   */
  @Test
  void weave_tooManyLiveLocalsAtTooManySites_failsNamingTheMethod() throws Exception {
    StringBuilder src = new StringBuilder("package gen;\nimport io.krill.fibers.Suspendable;\n"
        + "import io.krill.fibers.corpus.Points;\npublic class Huge {\n  static long sum() throws Suspendable {\n");
    for (int i = 0; i < 125; i++) {
      src.append("    long v").append(i).append(" = ").append(i).append("L;\n");
    }
    for (int i = 0; i < 60; i++) {
      src.append("    Points.point();\n");
    }
    src.append("    return 0L");
    for (int i = 0; i < 125; i++) {
      src.append(" + v").append(i);
    }
    src.append(";\n  }\n}\n");

    byte[] classFile = compile("gen.Huge", src.toString(), "--release", "17");
    Weaver weaver = Weaver.forClassLoader(LargeFrameTest.class.getClassLoader());
    assertThatThrownBy(() -> weaver.weave(classFile))
        .isInstanceOf(TransformException.class)
        .satisfies(e -> {
          TransformException t = (TransformException) e;
          assertThat(t.className()).isEqualTo("gen/Huge");
          assertThat(t.methodName()).isEqualTo("sum");
          assertThat(t.descriptor()).isEqualTo("()J");
          assertThat(t.line()).isPositive();
          assertThat(t.reason()).startsWith("woven, the method needs ")
              .endsWith(" bytes of code, over the JVM's limit of 65535: each of its 60 suspendable calls saves"
                  + " and restores every local that is live across it; split the method, or keep fewer locals"
                  + " live across suspendable calls");
        });
  }

  private static byte[] compile(String name, String source, String... options) {
    try (InMemoryCompiler javac = new InMemoryCompiler(System.getProperty("java.class.path"))) {
      return javac.compileValid(Map.of(name, source), options).get(name.replace('.', '/'));
    }
  }
}
