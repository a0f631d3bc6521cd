package io.krill.fibers.fuzz;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.FileObject;
import javax.tools.ForwardingJavaFileManager;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileManager;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.StandardLocation;
import javax.tools.ToolProvider;

/**
 * Compiles many source files in one javac run, entirely in memory.
 *
 * <p>Not thread-safe: one compilation at a time.
 */
final class InMemoryCompiler {
  private final JavaCompiler javac;
  private final StandardJavaFileManager standard;
  private final String classPath;

  /** @param classPath the class path the sources compile against */
  InMemoryCompiler(String classPath) {
    this.javac = ToolProvider.getSystemJavaCompiler();
    if (javac == null) {
      throw new IllegalStateException("javac: none (expected: a JDK, not a JRE)");
    }
    this.standard = javac.getStandardFileManager(null, Locale.ROOT, StandardCharsets.UTF_8);
    this.classPath = classPath;
  }

  /** A compilation that failed: the diagnostics, by source name. */
  static final class CompilationException extends Exception {
    private static final long serialVersionUID = 1L;
    final transient Map<String, List<String>> errors;

    CompilationException(Map<String, List<String>> errors) {
      super("javac: " + errors);
      this.errors = errors;
    }
  }

  /**
   * Compiles the sources.
   *
   * @param sources source text by binary class name ({@code fuzz.P1})
   * @param debugInfo whether to emit local variable tables and line numbers
   * @return class files by internal name ({@code fuzz/P1}, {@code fuzz/P1$Boom})
   * @throws CompilationException when javac reports an error
   */
  Map<String, byte[]> compile(Map<String, String> sources, boolean debugInfo) throws CompilationException {
    List<JavaFileObject> units = new ArrayList<>();
    for (Map.Entry<String, String> e : sources.entrySet()) {
      String path = e.getKey().replace('.', '/') + JavaFileObject.Kind.SOURCE.extension;
      String text = e.getValue();
      units.add(new SimpleJavaFileObject(URI.create("string:///" + path), JavaFileObject.Kind.SOURCE) {
        @Override
        public CharSequence getCharContent(boolean ignoreEncodingErrors) {
          return text;
        }
      });
    }
    Map<String, ByteArrayOutputStream> outputs = new LinkedHashMap<>();
    JavaFileManager files = new ForwardingJavaFileManager<>(standard) {
      @Override
      public JavaFileObject getJavaFileForOutput(Location location, String className, JavaFileObject.Kind kind,
          FileObject sibling) {
        String internal = className.replace('.', '/');
        return new SimpleJavaFileObject(URI.create("mem:///" + internal + kind.extension), kind) {
          @Override
          public OutputStream openOutputStream() {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            outputs.put(internal, out);
            return out;
          }
        };
      }
    };
    DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
    // The running JDK's own release: on a newer JDK the weaver meets that javac's class files.
    List<String> options = List.of("--release", Integer.toString(Runtime.version().feature()), "-proc:none",
        debugInfo ? "-g" : "-g:none", "-classpath", classPath);
    boolean ok = javac.getTask(null, files, diagnostics, options, null, units).call();
    if (!ok) {
      Map<String, List<String>> errors = new LinkedHashMap<>();
      for (Diagnostic<? extends JavaFileObject> d : diagnostics.getDiagnostics()) {
        if (d.getKind() == Diagnostic.Kind.ERROR) {
          String source = d.getSource() == null ? "?" : d.getSource().getName();
          errors.computeIfAbsent(source, k -> new ArrayList<>())
              .add("line " + d.getLineNumber() + ": " + d.getMessage(Locale.ROOT));
        }
      }
      throw new CompilationException(errors);
    }
    Map<String, byte[]> classes = new LinkedHashMap<>();
    outputs.forEach((name, bytes) -> classes.put(name, bytes.toByteArray()));
    return classes;
  }

  /** Releases the file manager's open jars. */
  void close() {
    try {
      standard.close();
    } catch (IOException e) {
      throw new IllegalStateException("javac file manager: " + e.getMessage(), e);
    }
  }
}
