package io.krill.fibers.corpus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.krill.transform.TransformException;
import io.krill.transform.Weaver;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.net.URI;
import java.util.List;
import javax.tools.FileObject;
import javax.tools.ForwardingJavaFileManager;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileManager;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Frames far larger than usual: hundreds of locals and a hundred stacked arguments. */
class LargeFrameTest {
  @ParameterizedTest
  @EnumSource(Mode.class)
  void manyLocals_240LiveLocalsOfEveryType_matchUnwovenTwin(Mode mode) {
    String expected = LargeFrameShapes.manyLocalsPlain(17);
    assertThat(mode.call(() -> LargeFrameShapes.manyLocals(17))).isEqualTo(expected);
    if (mode.suspends) {
      assertThat(Mode.lastSuspensions).isGreaterThan(10);
    }
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void manyArguments_100ValuesBelowCall_matchUnwovenTwin(Mode mode) {
    String expected = LargeFrameShapes.manyArgumentsPlain(5);
    assertThat(mode.call(() -> LargeFrameShapes.manyArguments(5))).isEqualTo(expected);
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

    byte[] classFile = compile("gen.Huge", src.toString());
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

  private static byte[] compile(String name, String source) {
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    JavaFileObject in = new SimpleJavaFileObject(URI.create("string:///" + name.replace('.', '/') + ".java"),
        JavaFileObject.Kind.SOURCE) {
      @Override
      public CharSequence getCharContent(boolean ignoreEncodingErrors) {
        return source;
      }
    };
    JavaFileManager files = new ForwardingJavaFileManager<>(javac.getStandardFileManager(null, null, null)) {
      @Override
      public JavaFileObject getJavaFileForOutput(Location location, String className, JavaFileObject.Kind kind,
          FileObject sibling) {
        return new SimpleJavaFileObject(URI.create("mem:///" + className + ".class"), kind) {
          @Override
          public OutputStream openOutputStream() {
            return bytes;
          }
        };
      }
    };
    List<String> options = List.of("--release", "17", "-classpath", System.getProperty("java.class.path"));
    boolean ok = javac.getTask(null, files, null, options, null, List.of(in)).call();
    assertThat(ok).as("javac compiles the generated source").isTrue();
    return bytes.toByteArray();
  }
}
