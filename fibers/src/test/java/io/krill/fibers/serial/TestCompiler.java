package io.krill.fibers.serial;

import io.krill.fibers.Continuation;
import io.krill.transform.Weaver;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.OutputStream;
import java.net.URI;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.tools.DiagnosticCollector;
import javax.tools.FileObject;
import javax.tools.ForwardingJavaFileManager;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

/** Compiles Java sources in memory against krill-fibers and weaves the result. */
final class TestCompiler {
  private TestCompiler() {}

  /** @return where a class was loaded from, as a file system path */
  static Path locationOf(Class<?> c) {
    try {
      return Paths.get(c.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (Exception e) {
      throw new IllegalStateException(c.getName(), e);
    }
  }

  /**
   * Compiles and weaves.
   *
   * @param sources binary class name to source
   * @return binary class name to woven class file
   */
  static Map<String, byte[]> compileAndWeave(Map<String, String> sources) {
    return weave(compile(sources));
  }

  /**
   * Compiles without weaving.
   *
   * @param sources binary class name to source
   * @return binary class name to class file
   */
  static Map<String, byte[]> compile(Map<String, String> sources) {
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
    StandardJavaFileManager std = javac.getStandardFileManager(diagnostics, null, null);
    Map<String, ByteArrayOutputStream> out = new HashMap<>();
    ForwardingJavaFileManager<StandardJavaFileManager> fm = new ForwardingJavaFileManager<>(std) {
      @Override
      public JavaFileObject getJavaFileForOutput(Location location, String className, JavaFileObject.Kind kind, FileObject sibling) {
        return new SimpleJavaFileObject(URI.create("mem:///" + className.replace('.', '/') + ".class"), kind) {
          @Override
          public OutputStream openOutputStream() {
            ByteArrayOutputStream b = new ByteArrayOutputStream();
            out.put(className, b);
            return b;
          }
        };
      }
    };
    List<JavaFileObject> units = new ArrayList<>();
    for (Map.Entry<String, String> e : sources.entrySet()) {
      units.add(new SimpleJavaFileObject(URI.create("string:///" + e.getKey().replace('.', '/') + ".java"), JavaFileObject.Kind.SOURCE) {
        @Override
        public CharSequence getCharContent(boolean ignoreEncodingErrors) {
          return e.getValue();
        }
      });
    }
    String classpath = locationOf(Continuation.class) + File.pathSeparator + locationOf(io.netty.util.concurrent.FastThreadLocalThread.class);
    List<String> options = List.of("--release", "17", "-classpath", classpath);
    boolean ok = javac.getTask(null, fm, diagnostics, options, null, units).call();
    if (!ok) {
      throw new IllegalStateException("compile failed: " + diagnostics.getDiagnostics());
    }
    Map<String, byte[]> classes = new HashMap<>();
    out.forEach((name, bytes) -> classes.put(name, bytes.toByteArray()));
    return classes;
  }

  /**
   * Weaves class files that see each other.
   *
   * @param classes binary class name to class file
   * @return binary class name to woven class file
   */
  static Map<String, byte[]> weave(Map<String, byte[]> classes) {
    Weaver weaver = Weaver.forLookup(internal -> {
      byte[] own = classes.get(internal.replace('/', '.'));
      return own != null ? own : readResource(internal);
    });
    classes.values().forEach(weaver::register);
    Map<String, byte[]> woven = new HashMap<>();
    classes.forEach((name, bytes) -> woven.put(name, weaver.weave(bytes)));
    return woven;
  }

  private static byte[] readResource(String internal) {
    try (var in = TestCompiler.class.getClassLoader().getResourceAsStream(internal + ".class")) {
      return in == null ? null : in.readAllBytes();
    } catch (java.io.IOException e) {
      return null;
    }
  }

  /** A loader that defines the given classes itself and delegates everything else. */
  static final class BytesLoader extends ClassLoader {
    private final Map<String, byte[]> classes;

    BytesLoader(Map<String, byte[]> classes, ClassLoader parent) {
      super(parent);
      this.classes = classes;
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
      synchronized (getClassLoadingLock(name)) {
        Class<?> c = findLoadedClass(name);
        if (c == null && classes.containsKey(name)) {
          byte[] b = classes.get(name);
          c = defineClass(name, b, 0, b.length);
        }
        if (c == null) {
          return super.loadClass(name, resolve);
        }
        return c;
      }
    }
  }
}
