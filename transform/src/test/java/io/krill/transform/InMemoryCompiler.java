package io.krill.transform;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.FileObject;
import javax.tools.ForwardingJavaFileManager;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileManager;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

/**
 * Compiles many source files in one javac run, entirely in memory, and weaves the result; the
 * tests of transform and of fibers compile through it. Class files are keyed by internal name
 * ({@code fuzz/P1}, {@code fuzz/P1$Boom}); {@link MemoryClassLoader} defines them.
 *
 * <p>Not thread-safe: one compilation at a time.
 */
public final class InMemoryCompiler implements AutoCloseable {
  private final JavaCompiler javac;
  private final StandardJavaFileManager standard;
  private final String classPath;

  /** @param classPath the class path the sources compile against; null: this JVM's class path */
  public InMemoryCompiler(String classPath) {
    this.javac = ToolProvider.getSystemJavaCompiler();
    if (javac == null) {
      throw new IllegalStateException("javac: none (expected: a JDK, not a JRE)");
    }
    this.standard = javac.getStandardFileManager(null, Locale.ROOT, StandardCharsets.UTF_8);
    this.classPath = classPath;
  }

  /** @return a compiler whose class path is where {@code anchors} were loaded from */
  public static InMemoryCompiler against(Class<?>... anchors) {
    return new InMemoryCompiler(Arrays.stream(anchors).map(c -> locationOf(c).toString())
        .collect(Collectors.joining(File.pathSeparator)));
  }

  /** @return where a class was loaded from, as a file system path */
  public static Path locationOf(Class<?> c) {
    try {
      return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (Exception e) {
      throw new IllegalStateException(c.getName(), e);
    }
  }

  /** A compilation that failed: the diagnostics, by source name. */
  public static final class CompilationException extends Exception {
    private static final long serialVersionUID = 1L;
    /** javac's errors by source name. */
    public final transient Map<String, List<String>> errors;

    CompilationException(Map<String, List<String>> errors) {
      super("javac: " + errors);
      this.errors = errors;
    }
  }

  /**
   * Compiles the sources.
   *
   * @param sources source text by binary class name ({@code fuzz.P1})
   * @param options javac options besides the class path ({@code --release 17}, {@code -g:none})
   * @return class files by internal name
   * @throws CompilationException when javac reports an error
   */
  public Map<String, byte[]> compile(Map<String, String> sources, String... options) throws CompilationException {
    List<JavaFileObject> units = new ArrayList<>();
    sources.forEach((name, text) -> units.add(new SimpleJavaFileObject(
        URI.create("string:///" + name.replace('.', '/') + JavaFileObject.Kind.SOURCE.extension),
        JavaFileObject.Kind.SOURCE) {
      @Override
      public CharSequence getCharContent(boolean ignoreEncodingErrors) {
        return text;
      }
    }));
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
    List<String> all = new ArrayList<>(List.of(options));
    if (classPath != null) {
      all.addAll(List.of("-classpath", classPath));
    }
    if (!javac.getTask(null, files, diagnostics, all, null, units).call()) {
      throw new CompilationException(errors(diagnostics));
    }
    Map<String, byte[]> classes = new LinkedHashMap<>();
    outputs.forEach((name, bytes) -> classes.put(name, bytes.toByteArray()));
    return classes;
  }

  /**
   * Compiles sources that are known to be correct.
   *
   * @throws IllegalStateException naming javac's errors when they are not
   * @see #compile(Map, String...)
   */
  public Map<String, byte[]> compileValid(Map<String, String> sources, String... options) {
    try {
      return compile(sources, options);
    } catch (CompilationException e) {
      throw new IllegalStateException("compile failed: " + e.errors, e);
    }
  }

  private static Map<String, List<String>> errors(DiagnosticCollector<JavaFileObject> diagnostics) {
    Map<String, List<String>> errors = new LinkedHashMap<>();
    for (Diagnostic<? extends JavaFileObject> d : diagnostics.getDiagnostics()) {
      if (d.getKind() == Diagnostic.Kind.ERROR) {
        String source = d.getSource() == null ? "?" : d.getSource().getName();
        errors.computeIfAbsent(source, k -> new ArrayList<>())
            .add("line " + d.getLineNumber() + ": " + d.getMessage(Locale.ROOT));
      }
    }
    return errors;
  }

  /**
   * Returns a weaver that sees {@code classes} first, then the class files of {@code loader}.
   *
   * @param classes class files by internal name
   * @param loader where every other class file is found
   */
  public static Weaver weaverFor(Map<String, byte[]> classes, ClassLoader loader) {
    return Weaver.forLookup(name -> {
      byte[] own = classes.get(name);
      return own != null ? own : readResource(loader, name);
    });
  }

  /**
   * Weaves class files that see each other, as the build weaves one output directory.
   *
   * @param classes class files by internal name
   * @param loader where every other class file is found
   * @return the woven class files by internal name
   */
  public static Map<String, byte[]> weave(Map<String, byte[]> classes, ClassLoader loader) {
    Weaver weaver = weaverFor(classes, loader);
    classes.values().forEach(weaver::register);
    Map<String, byte[]> woven = new LinkedHashMap<>();
    classes.forEach((name, bytes) -> woven.put(name, weaver.weave(bytes)));
    return woven;
  }

  private static byte[] readResource(ClassLoader loader, String internalName) {
    try (InputStream in = loader.getResourceAsStream(internalName + ".class")) {
      return in == null ? null : in.readAllBytes();
    } catch (IOException e) {
      return null;
    }
  }

  /** Releases the file manager's open jars. */
  @Override
  public void close() {
    try {
      standard.close();
    } catch (IOException e) {
      throw new IllegalStateException("javac file manager: " + e.getMessage(), e);
    }
  }
}
