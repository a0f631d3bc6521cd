package io.krill.transform;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

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
    Map<String, String> named = new LinkedHashMap<>();
    for (String source : sources) {
      named.put(binaryName(source), source);
    }
    try (InMemoryCompiler javac = new InMemoryCompiler(null)) {
      return new CompiledClasses(javac.compile(named, "--release", "17", "-g", "-proc:none", "-Xlint:none"));
    } catch (InMemoryCompiler.CompilationException e) {
      throw new AssertionError("compilation failed: " + e.errors, e);
    }
  }

  private static String binaryName(String source) {
    Matcher pkg = PACKAGE.matcher(source);
    Matcher type = TYPE.matcher(source);
    if (!type.find()) {
      throw new IllegalArgumentException("source declares no type:\n" + source);
    }
    return (pkg.find() ? pkg.group(1) + "." : "") + type.group(1);
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
}
