package io.krill.fibers.serial;

import static org.assertj.core.api.Assertions.assertThat;

import io.krill.fibers.Continuation;
import io.krill.transform.InMemoryCompiler;
import io.netty.util.concurrent.FastThreadLocalThread;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Test workloads compiled against krill-fibers, and the child JVM that runs them from a directory. */
final class ChildJvm {
  private ChildJvm() {}

  /**
   * Compiles without weaving.
   *
   * @param sources binary class name to source
   * @return internal class name to class file
   */
  static Map<String, byte[]> compile(Map<String, String> sources) {
    try (InMemoryCompiler javac = InMemoryCompiler.against(Continuation.class, FastThreadLocalThread.class)) {
      return javac.compileValid(sources, "--release", "17");
    }
  }

  /** Weaves class files that see each other; see {@link InMemoryCompiler#weave}. */
  static Map<String, byte[]> weave(Map<String, byte[]> classes) {
    return InMemoryCompiler.weave(classes, ChildJvm.class.getClassLoader());
  }

  /**
   * Writes {@code classes} under {@code dir} and runs {@code main} in a child JVM whose class path
   * is that directory, krill-fibers, the test classes and Netty.
   *
   * @return what the child printed, trimmed, and its exit status
   */
  static Ran run(Path dir, Map<String, byte[]> classes, List<String> jvmOptions, Class<?> main, String... args)
      throws IOException, InterruptedException {
    for (Map.Entry<String, byte[]> e : classes.entrySet()) {
      Path file = dir.resolve(e.getKey() + ".class");
      Files.createDirectories(file.getParent());
      Files.write(file, e.getValue());
    }
    String cp = String.join(File.pathSeparator, dir.toString(),
        InMemoryCompiler.locationOf(Continuation.class).toString(),
        InMemoryCompiler.locationOf(main).toString(),
        InMemoryCompiler.locationOf(FastThreadLocalThread.class).toString());
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
    command.addAll(jvmOptions);
    command.addAll(List.of("-cp", cp, main.getName()));
    command.addAll(List.of(args));
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output;
    try (InputStream in = p.getInputStream()) {
      output = new String(in.readAllBytes(), StandardCharsets.UTF_8).trim();
    }
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("child JVM finished").isTrue();
    return new Ran(output, p.exitValue());
  }

  /** What a child JVM printed (trimmed) and its exit status. */
  record Ran(String output, int exitValue) {}
}
