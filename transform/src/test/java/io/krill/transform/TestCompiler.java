package io.krill.transform;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.StringWriter;
import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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
 * Compiles Java sources held in strings with {@code javax.tools}, in memory, together with
 * the {@link RuntimeStubs stand-ins} for the krill runtime types.
 */
public final class TestCompiler {
  private static final Pattern PACKAGE = Pattern.compile("^\\s*package\\s+([\\w.]+)\\s*;", Pattern.MULTILINE);
  private static final Pattern TYPE = Pattern.compile("\\b(?:class|interface|enum|record)\\s+(\\w+)");

  /**
   * A small application class, {@code app.Suspending}: {@code park()} is suspendable and
   * {@code run(a)} parks once and returns {@code a + 1}.
   */
  public static final String SUSPENDING_APP = String.join("\n",
      "package app;",
      "import io.krill.fibers.Suspendable;",
      "public class Suspending {",
      "  public static void park() throws Suspendable {}",
      "  public static int run(int a) throws Suspendable {",
      "    park();",
      "    return a + 1;",
      "  }",
      "}");

  private TestCompiler() {}

  /**
   * Compiles compilation units, each a complete source file, with the runtime stand-ins.
   *
   * @param sources the sources; a file is named after its package and first declared type
   * @return every class file produced, stand-ins included, by internal name
   * @throws AssertionError with javac's diagnostics when compilation fails
   */
  public static CompiledClasses compile(String... sources) {
    List<String> all = new ArrayList<>(RuntimeStubs.SOURCES);
    all.addAll(List.of(sources));
    return compileOnly(all);
  }

  /** Compiles {@code sources} alone, without the runtime stand-ins. */
  public static CompiledClasses compileOnly(List<String> sources) {
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    if (javac == null) {
      throw new AssertionError("no system Java compiler: tests need a JDK, not a JRE");
    }
    List<JavaFileObject> units = new ArrayList<>();
    for (String source : sources) {
      units.add(new SourceFile(fileName(source), source));
    }
    Map<String, ByteArrayOutputStream> outputs = new LinkedHashMap<>();
    DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
    StandardJavaFileManager standard = javac.getStandardFileManager(diagnostics, Locale.ROOT, null);
    JavaFileManager manager = new ForwardingJavaFileManager<>(standard) {
      @Override
      public JavaFileObject getJavaFileForOutput(Location location, String className, JavaFileObject.Kind kind,
          FileObject sibling) {
        return new SimpleJavaFileObject(URI.create("mem:///" + className.replace('.', '/') + kind.extension), kind) {
          @Override
          public OutputStream openOutputStream() {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            outputs.put(className.replace('.', '/'), out);
            return out;
          }
        };
      }
    };
    StringWriter log = new StringWriter();
    List<String> options = List.of("--release", "17", "-g", "-proc:none", "-Xlint:none");
    boolean ok = javac.getTask(log, manager, diagnostics, options, null, units).call();
    if (!ok) {
      StringBuilder sb = new StringBuilder("compilation failed:\n").append(log);
      diagnostics.getDiagnostics().forEach(d -> sb.append(d).append('\n'));
      throw new AssertionError(sb.toString());
    }
    Map<String, byte[]> classes = new LinkedHashMap<>();
    outputs.forEach((name, out) -> classes.put(name, out.toByteArray()));
    return new CompiledClasses(classes);
  }

  private static String fileName(String source) {
    Matcher pkg = PACKAGE.matcher(source);
    Matcher type = TYPE.matcher(source);
    if (!type.find()) {
      throw new IllegalArgumentException("source declares no type:\n" + source);
    }
    String prefix = pkg.find() ? pkg.group(1).replace('.', '/') + "/" : "";
    return prefix + type.group(1) + ".java";
  }

  /**
   * Returns the 1-based line of the only line of {@code source} that contains {@code mark}.
   *
   * @throws IllegalArgumentException when the mark is missing or not unique
   */
  public static int lineOf(String source, String mark) {
    String[] lines = source.split("\n", -1);
    int found = -1;
    for (int i = 0; i < lines.length; i++) {
      if (lines[i].contains(mark)) {
        if (found >= 0) {
          throw new IllegalArgumentException("mark " + mark + " occurs twice");
        }
        found = i + 1;
      }
    }
    if (found < 0) {
      throw new IllegalArgumentException("mark " + mark + " not found");
    }
    return found;
  }

  private static final class SourceFile extends SimpleJavaFileObject {
    private final String text;

    SourceFile(String path, String text) {
      super(URI.create("string:///" + path), Kind.SOURCE);
      this.text = text;
    }

    @Override
    public CharSequence getCharContent(boolean ignoreEncodingErrors) {
      return text;
    }
  }
}
