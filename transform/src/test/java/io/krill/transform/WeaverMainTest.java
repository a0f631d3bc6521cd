package io.krill.transform;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.krill.transform.internal.Names;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WeaverMainTest {
  private static final String PLAIN = String.join("\n",
      "package app;",
      "public class Plain { public static int run(int a) { return a + 2; } }");
  private static final String BAD_CALLER = String.join("\n",
      "package app;",
      "public class BadCaller {",
      "  void run() throws Exception {",
      "    Suspending.park();",
      "  }",
      "}");
  private static final String BAD_CTOR = String.join("\n",
      "package app;",
      "import io.krill.fibers.Suspendable;",
      "public class BadCtor {",
      "  BadCtor() throws Suspendable {",
      "    Suspending.park();",
      "  }",
      "}");

  @TempDir
  Path tmp;

  @Test
  void main_directoryWithSuspendableClass_weavesItInPlaceAndLeavesOthersAlone() throws Exception {
    CompiledClasses classes = TestCompiler.compile(TestCompiler.SUSPENDING_APP, PLAIN);
    Path dir = writeApp(classes);
    Path runtime = writeRuntime(classes);

    String out = runMain(dir.toString(), runtime.toString());

    byte[] woven = Files.readAllBytes(dir.resolve("app/Suspending.class"));
    assertThat(woven).isNotEqualTo(classes.bytes("app/Suspending"));
    assertThat(Files.readAllBytes(dir.resolve("app/Plain.class"))).isEqualTo(classes.bytes("app/Plain"));
    assertThat(out).contains("krill weaver: " + dir + ": 1 of 2 classes woven");
    Class<?> c = classes.loadWoven("app/Suspending", woven);
    assertThat(c.getMethod("run", int.class).invoke(null, 41)).isEqualTo(42);
  }

  @Test
  void main_secondRun_changesNothing() throws Exception {
    String[] args = wovenApp();
    Path dir = Path.of(args[0]);
    byte[] first = Files.readAllBytes(dir.resolve("app/Suspending.class"));

    String out = runMain(args);

    assertThat(Files.readAllBytes(dir.resolve("app/Suspending.class"))).isEqualTo(first);
    assertThat(out).contains(": 0 of 2 classes woven").doesNotContain("earlier krill weaver");
  }

  @Test
  void main_classesBreakingRules_failsListingEveryOffendingClass() throws Exception {
    CompiledClasses classes = TestCompiler.compile(TestCompiler.SUSPENDING_APP, BAD_CALLER, BAD_CTOR);
    Path dir = writeApp(classes);
    String runtime = writeRuntime(classes).toString();
    String callerMessage = "app.BadCaller.run()V (line 4): calls suspendable app.Suspending.park()V but is not declared"
        + " 'throws Suspendable' (a broader throws clause such as 'throws Exception', or a catch of Exception or"
        + " Throwable, hides it); add 'throws Suspendable'";
    String ctorMessage = "app.BadCtor.<init>()V (line 5): calls suspendable app.Suspending.park()V in a constructor,"
        + " which cannot suspend; move the call into a method or static factory that runs after construction";

    IllegalStateException e = catchThrowableOfType(IllegalStateException.class, () -> runMain(dir.toString(), runtime));

    assertThat(e).isNotNull();
    assertThat(e.getMessage()).isEqualTo("2 class(es) break the rules of suspendable code:\n  " + callerMessage
        + "\n  " + ctorMessage);
    assertThat(Files.readAllBytes(dir.resolve("app/BadCaller.class"))).isEqualTo(classes.bytes("app/BadCaller"));
    assertThat(Files.readAllBytes(dir.resolve("app/BadCtor.class"))).isEqualTo(classes.bytes("app/BadCtor"));
  }

  /* target/classes left woven by an older weaver: the build stops instead of counting them as woven. */
  @Test
  void main_classWovenByAnotherAbi_failsWithOneLineSayingRebuildClean() throws Exception {
    String[] args = wovenApp();
    Path file = Path.of(args[0]).resolve("app/Suspending.class");
    byte[] stale = CompiledClasses.restamp(Files.readAllBytes(file), m -> m.replaceFirst("/abi[0-9]+(\\+lazy)?\\|", "|"));
    Files.write(file, stale);

    IllegalStateException e = catchThrowableOfType(IllegalStateException.class, () -> runMain(args));

    assertThat(e).isNotNull();
    assertThat(e.getMessage()).isEqualTo("1 class(es) break the rules of suspendable code:\n  app.Suspending: woven by"
        + " another krill weaver (woven ABI 1, this weaver's is " + Names.WOVEN_ABI
        + "); rebuild clean (mvn clean) so that it is woven from the compiled class");
    assertThat(Files.readAllBytes(file)).isEqualTo(stale);
  }

  /* target/classes woven before the resume entries took the stack: they still run, more slowly; the build says so. */
  @Test
  void main_classWithOlderResumeEntries_keepsItAndSaysRebuildClean() throws Exception {
    String[] args = wovenApp();
    Path dir = Path.of(args[0]);
    Path file = dir.resolve("app/Suspending.class");
    byte[] current = Files.readAllBytes(file);
    byte[] older = CompiledClasses.restamp(current,
        m -> m.replace(Names.ENTER + Names.ENTER_DESC, Names.ENTER + "(ILjava/lang/Object;)Ljava/lang/Object;"));
    assertThat(older).isNotEqualTo(current);
    Files.write(file, older);

    String out = runMain(args);

    assertThat(out).contains(": 0 of 2 classes woven").contains("krill weaver: " + dir + ": 1 class(es) woven by an"
        + " earlier krill weaver resume through a method handle, which is slower; rebuild clean (mvn clean) to weave"
        + " them again");
    assertThat(Files.readAllBytes(file)).isEqualTo(older);
  }

  @Test
  void main_missingDirectory_returnsWithoutCreatingIt() throws Exception {
    Path missing = tmp.resolve("no-such-classes");

    String out = runMain(missing.toString());

    assertThat(missing).doesNotExist();
    assertThat(out).contains("krill weaver: " + missing + " does not exist, nothing to weave");
  }

  /* Writes the app and the runtime, weaves the app once, and returns WeaverMain's arguments for both. */
  private String[] wovenApp() throws Exception {
    CompiledClasses classes = TestCompiler.compile(TestCompiler.SUSPENDING_APP, PLAIN);
    String[] args = {writeApp(classes).toString(), writeRuntime(classes).toString()};
    runMain(args);
    return args;
  }

  private Path writeApp(CompiledClasses classes) throws Exception {
    Path dir = Files.createDirectories(tmp.resolve("classes"));
    new CompiledClasses(only(classes, "app/")).writeTo(dir);
    return dir;
  }

  /* The runtime stand-ins live in a separate classpath entry, as the runtime jar would. */
  private Path writeRuntime(CompiledClasses classes) throws Exception {
    Path dir = Files.createDirectories(tmp.resolve("runtime"));
    new CompiledClasses(only(classes, "io/krill/")).writeTo(dir);
    return dir;
  }

  private static Map<String, byte[]> only(CompiledClasses classes, String prefix) {
    Map<String, byte[]> out = new LinkedHashMap<>();
    classes.all().forEach((name, bytes) -> {
      if (name.startsWith(prefix)) {
        out.put(name, bytes);
      }
    });
    return out;
  }

  /* Runs WeaverMain.main and returns what it printed on standard output and error. */
  private static String runMain(String... args) throws Exception {
    ByteArrayOutputStream buffer = new ByteArrayOutputStream();
    PrintStream capture = new PrintStream(buffer, true, StandardCharsets.UTF_8);
    PrintStream out = System.out;
    PrintStream err = System.err;
    System.setOut(capture);
    System.setErr(capture);
    try {
      WeaverMain.main(args);
    } finally {
      System.setOut(out);
      System.setErr(err);
    }
    return buffer.toString(StandardCharsets.UTF_8);
  }
}
