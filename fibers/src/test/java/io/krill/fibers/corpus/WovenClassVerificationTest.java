package io.krill.fibers.corpus;

import static org.assertj.core.api.Assertions.assertThat;

import io.krill.fibers.Continuation;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.FieldNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.analysis.Analyzer;
import org.objectweb.asm.tree.analysis.AnalyzerException;
import org.objectweb.asm.tree.analysis.BasicValue;
import org.objectweb.asm.tree.analysis.SimpleVerifier;
import org.objectweb.asm.util.CheckClassAdapter;

/**
 * Every class the build wove, in fibers' main and test output directories, passes ASM's
 * structural checks ({@link CheckClassAdapter}) and type-checking data-flow analysis
 * ({@link Analyzer} with a {@link SimpleVerifier} that resolves classes through the test
 * class loader).
 */
class WovenClassVerificationTest {
  private static final String WOVEN_FIELD = "$krill$woven";

  @TestFactory
  Stream<DynamicTest> verify_everyWovenClass_passesAsmVerifier() throws Exception {
    List<Path> woven = new ArrayList<>();
    for (Path dir : List.of(classesDir(Continuation.class), classesDir(WovenClassVerificationTest.class))) {
      woven.addAll(wovenClasses(dir));
    }
    List<String> names = woven.stream().map(p -> p.getFileName().toString()).collect(Collectors.toList());
    // The runtime's own woven class and this corpus's shapes must be among them, or the walk is broken.
    // The large frames are generated at test time; LargeFrameTest verifies them the same way.
    assertThat(names).contains("Generator$Run.class", "OperandStackTest.class", "LargeFrameTest.class");
    assertThat(woven).hasSizeGreaterThan(15);
    return woven.stream().map(p -> DynamicTest.dynamicTest(p.getFileName().toString(),
        () -> verify(Files.readAllBytes(p), p.toString())));
  }

  private static Path classesDir(Class<?> c) throws URISyntaxException {
    return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI());
  }

  private static List<Path> wovenClasses(Path dir) throws IOException {
    try (Stream<Path> s = Files.walk(dir)) {
      return s.filter(p -> p.toString().endsWith(".class")).filter(WovenClassVerificationTest::isWoven).sorted()
          .collect(Collectors.toList());
    }
  }

  private static boolean isWoven(Path p) {
    try {
      ClassNode cn = new ClassNode();
      new ClassReader(Files.readAllBytes(p)).accept(cn, ClassReader.SKIP_CODE);
      for (FieldNode f : cn.fields) {
        if (WOVEN_FIELD.equals(f.name)) {
          return true;
        }
      }
      return false;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Asserts that {@code classFile}, called {@code p} in failures, passes both verifications. */
  static void verify(byte[] classFile, String p) {
    ClassReader reader = new ClassReader(classFile);
    ClassLoader loader = WovenClassVerificationTest.class.getClassLoader();

    StringWriter report = new StringWriter();
    CheckClassAdapter.verify(reader, loader, false, new PrintWriter(report));
    assertThat(report.toString()).as("CheckClassAdapter report for %s", p).isEmpty();

    ClassNode cn = new ClassNode();
    reader.accept(cn, 0);
    List<Type> interfaces = new ArrayList<>();
    for (String i : cn.interfaces) {
      interfaces.add(Type.getObjectType(i));
    }
    List<String> failures = new ArrayList<>();
    for (MethodNode m : cn.methods) {
      SimpleVerifier verifier = new SimpleVerifier(Opcodes.ASM9, Type.getObjectType(cn.name),
          cn.superName == null ? null : Type.getObjectType(cn.superName), interfaces,
          (cn.access & Opcodes.ACC_INTERFACE) != 0) {};
      verifier.setClassLoader(loader);
      try {
        new Analyzer<BasicValue>(verifier).analyze(cn.name, m);
      } catch (AnalyzerException e) {
        failures.add(cn.name + "." + m.name + m.desc + ": " + e.getMessage());
      }
    }
    assertThat(failures).as("Analyzer failures in %s", p).isEmpty();
  }
}
