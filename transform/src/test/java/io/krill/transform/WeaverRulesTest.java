package io.krill.transform;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The invalid-input corpus: each rule of suspendable code, broken once, with the exact message. */
class WeaverRulesTest {
  private static final String FIX_LAMBDA = ", which is not declared 'throws Suspendable'; use a suspendable interface"
      + " such as io.krill.fibers.SuspendableRunnable, or declare 'throws Suspendable' on the interface method";
  private static final String FIX_MONITOR = " while suspended; use a fiber-aware io.krill.fibers lock instead of synchronized";

  /**
   * One broken rule.
   *
   * @param name what is wrong, shown as the test name
   * @param className the internal name of the class that is woven and fails
   * @param methodName the method the exception names
   * @param descriptor its descriptor
   * @param lineMark a comment that marks the line the exception names, or null for no line
   * @param reason the exact reason
   * @param sources the compilation units
   */
  record Case(String name, String className, String methodName, String descriptor, String lineMark, String reason,
      List<String> sources) {
    @Override
    public String toString() {
      return name;
    }

    int line() {
      if (lineMark == null) {
        return -1;
      }
      for (String s : sources) {
        if (s.contains(lineMark)) {
          return TestCompiler.lineOf(s, lineMark);
        }
      }
      throw new IllegalArgumentException(name + ": no source contains " + lineMark);
    }
  }

  private static Case row(String name, String className, String methodName, String descriptor, String lineMark,
      String reason, String... sources) {
    return new Case(name, className, methodName, descriptor, lineMark, reason, List.of(sources));
  }

  private static String unit(String... lines) {
    return String.join("\n", lines);
  }

  static Stream<Case> corpus() {
    return Stream.of(
        row("unmarked caller hidden by throws Exception", "t/Caller", "run", "()V", "/*L*/",
            "calls suspendable t.Caller.park()V but is not declared 'throws Suspendable' (a broader throws clause"
                + " such as 'throws Exception', or a catch of Exception or Throwable, hides it); add 'throws Suspendable'",
            unit("package t;",
                "import io.krill.fibers.Suspendable;",
                "class Caller {",
                "  static void park() throws Suspendable {}",
                "  void run() throws Exception {",
                "    int x = 1;",
                "    park(); /*L*/",
                "  }",
                "}")),
        row("unmarked caller that catches Exception around the call", "t/Catcher", "run", "(Lt/Service;)I", "/*L*/",
            "calls suspendable t.Service.fetch(I)I but is not declared 'throws Suspendable' (a broader throws clause"
                + " such as 'throws Exception', or a catch of Exception or Throwable, hides it); add 'throws Suspendable'",
            unit("package t;",
                "import io.krill.fibers.Suspendable;",
                "interface Service { int fetch(int key) throws Suspendable; }"),
            unit("package t;",
                "class Catcher {",
                "  int run(Service s) {",
                "    try {",
                "      return s.fetch(7); /*L*/",
                "    } catch (Exception e) {",
                "      return -1;",
                "    }",
                "  }",
                "}")),
        row("lambda implementing Callable, whose throws Exception hides the marking", "t/Lambdas", "make",
            "()Ljava/util/concurrent/Callable;", "/*L*/",
            "a lambda body that calls suspendable t.Lambdas.park()V implements"
                + " java.util.concurrent.Callable.call()Ljava/lang/Object;" + FIX_LAMBDA,
            unit("package t;",
                "import io.krill.fibers.Suspendable;",
                "import java.util.concurrent.Callable;",
                "class Lambdas {",
                "  static void park() throws Suspendable {}",
                "  Callable<String> make() {",
                "    return () -> {",
                "      park(); /*L*/",
                "      return \"done\";",
                "    };",
                "  }",
                "}")),
        row("lambda implementing a user interface that throws Exception", "t/Tasks", "submit", "()V", "/*L*/",
            "a lambda body that calls suspendable t.Tasks.park()V implements t.Task.run()V" + FIX_LAMBDA,
            unit("package t;",
                "interface Task { void run() throws Exception; }"),
            unit("package t;",
                "import io.krill.fibers.Suspendable;",
                "class Tasks {",
                "  static void park() throws Suspendable {}",
                "  static void submit() {",
                "    Task t = () -> park(); /*L*/",
                "  }",
                "}")),
        row("method reference to a suspendable method through Callable", "t/Refs", "make",
            "()Ljava/util/concurrent/Callable;", "/*L*/",
            "method reference to suspendable t.Refs.load()Ljava/lang/String; implements"
                + " java.util.concurrent.Callable.call()Ljava/lang/Object;" + FIX_LAMBDA,
            unit("package t;",
                "import io.krill.fibers.Suspendable;",
                "import java.util.concurrent.Callable;",
                "class Refs {",
                "  static String load() throws Suspendable { return \"x\"; }",
                "  static Callable<String> make() {",
                "    return Refs::load; /*L*/",
                "  }",
                "}")),
        row("bound method reference to a suspendable instance method through Callable", "t/BoundRefs", "make",
            "(Lt/Service;)Ljava/util/concurrent/Callable;", "/*L*/",
            "method reference to suspendable t.Service.get()Ljava/lang/String; implements"
                + " java.util.concurrent.Callable.call()Ljava/lang/Object;" + FIX_LAMBDA,
            unit("package t;",
                "import io.krill.fibers.Suspendable;",
                "interface Service { String get() throws Suspendable; }"),
            unit("package t;",
                "import java.util.concurrent.Callable;",
                "class BoundRefs {",
                "  Callable<String> make(Service s) {",
                "    return s::get; /*L*/",
                "  }",
                "}")),
        row("suspension in a synchronized method", "t/SyncMethod", "run", "()V", "/*L*/",
            "calls suspendable t.SyncMethod.park()V in a synchronized method, which would hold the monitor"
                + FIX_MONITOR,
            unit("package t;",
                "import io.krill.fibers.Suspendable;",
                "class SyncMethod {",
                "  static void park() throws Suspendable {}",
                "  synchronized void run() throws Suspendable {",
                "    park(); /*L*/",
                "  }",
                "}")),
        row("suspension in a synchronized block", "t/SyncBlock", "run", "(Ljava/lang/Object;)V", "/*L*/",
            "calls suspendable t.SyncBlock.park()V inside a synchronized block, which would hold the monitor"
                + FIX_MONITOR,
            unit("package t;",
                "import io.krill.fibers.Suspendable;",
                "class SyncBlock {",
                "  static void park() throws Suspendable {}",
                "  void run(Object lock) throws Suspendable {",
                "    park();",
                "    synchronized (lock) {",
                "      park(); /*L*/",
                "    }",
                "    park();",
                "  }",
                "}")),
        row("suspension in a constructor", "t/Ctor", "<init>", "()V", "/*L*/",
            "calls suspendable t.Ctor.park()V in a constructor, which cannot suspend; move the call into a method"
                + " or static factory that runs after construction",
            unit("package t;",
                "import io.krill.fibers.Suspendable;",
                "class Ctor {",
                "  static void park() throws Suspendable {}",
                "  Ctor() throws Suspendable {",
                "    park(); /*L*/",
                "  }",
                "}")),
        row("suspension in a static initializer", "t/Clinit", "<clinit>", "()V", "/*L*/",
            "calls suspendable t.Clinit.park()V in a static initializer, which cannot suspend; initialize lazily"
                + " from a suspendable method instead",
            unit("package t;",
                "import io.krill.fibers.Suspendable;",
                "class Clinit {",
                "  static int value;",
                "  static void park() throws Suspendable {}",
                "  static {",
                "    try {",
                "      park(); /*L*/",
                "    } catch (Exception e) {",
                "      value = -1;",
                "    }",
                "  }",
                "}")),
        row("suspendable override of a non-suspendable class method", "t/Sub", "run", "()V", null,
            "is declared 'throws Suspendable' but overrides t.Base.run()V, which is not, so callers through"
                + " t.Base.run()V cannot suspend; declare 'throws Suspendable' there too, or remove it here",
            unit("package t;",
                "class Base { void run() throws Exception {} }"),
            unit("package t;",
                "import io.krill.fibers.Suspendable;",
                "abstract class Sub extends Base {",
                "  @Override",
                "  abstract void run() throws Suspendable;",
                "}")),
        row("suspendable override of a non-suspendable interface method", "t/Impl", "run", "()V",
            null,
            "is declared 'throws Suspendable' but overrides t.Task.run()V, which is not, so callers through"
                + " t.Task.run()V cannot suspend; declare 'throws Suspendable' there too, or remove it here",
            unit("package t;",
                "interface Task { void run() throws Exception; }"),
            unit("package t;",
                "import io.krill.fibers.Suspendable;",
                "abstract class Impl implements Task {",
                "  public abstract void run() throws Suspendable;",
                "}")),
        row("reverse: non-suspendable class method overriding a suspendable one", "t/Plain", "run", "()V", null,
            "overrides suspendable t.Base.run()V but is not declared 'throws Suspendable'; declare it, so that"
                + " every implementation of the method may suspend",
            unit("package t;",
                "import io.krill.fibers.Suspendable;",
                "abstract class Base { abstract void run() throws Suspendable; }"),
            unit("package t;",
                "abstract class Plain extends Base { abstract void run(); }")),
        row("reverse: non-suspendable implementation of SuspendableRunnable", "t/Runner", "run", "()V", null,
            "overrides suspendable io.krill.fibers.SuspendableRunnable.run()V but is not declared"
                + " 'throws Suspendable'; declare it, so that every implementation of the method may suspend",
            unit("package t;",
                "abstract class Runner implements io.krill.fibers.SuspendableRunnable {",
                "  public abstract void run();",
                "}")),
        row("suspendable override with a body names its first line", "t/Worker", "run", "()V", "/*L*/",
            "is declared 'throws Suspendable' but overrides t.Job.run()V, which is not, so callers through"
                + " t.Job.run()V cannot suspend; declare 'throws Suspendable' there too, or remove it here",
            unit("package t;",
                "interface Job { void run() throws Exception; }"),
            unit("package t;",
                "import io.krill.fibers.Suspendable;",
                "class Worker implements Job {",
                "  public void run() throws Suspendable {",
                "    System.out.println(1); /*L*/",
                "  }",
                "}")),
        row("generic override through a bridge: Callable<String> marked suspendable", "t/Fetch", "call",
            "()Ljava/lang/String;", "/*L*/",
            "is declared 'throws Suspendable' but overrides java.util.concurrent.Callable.call()Ljava/lang/Object;,"
                + " which is not, so callers through java.util.concurrent.Callable.call()Ljava/lang/Object; cannot"
                + " suspend; declare 'throws Suspendable' there too, or remove it here",
            unit("package t;",
                "import io.krill.fibers.Suspendable;",
                "class Fetch implements java.util.concurrent.Callable<String> {",
                "  public String call() throws Suspendable {",
                "    return \"x\"; /*L*/",
                "  }",
                "}")),
        row("generic override through a bridge: unmarked implementation of a suspendable generic method", "t/Plain2",
            "get", "()Ljava/lang/String;", "/*L*/",
            "overrides suspendable t.Source.get()Ljava/lang/Object; but is not declared 'throws Suspendable';"
                + " declare it, so that every implementation of the method may suspend",
            unit("package t;",
                "import io.krill.fibers.Suspendable;",
                "interface Source<T> { T get() throws Suspendable; }"),
            unit("package t;",
                "class Plain2 implements Source<String> {",
                "  public String get() {",
                "    return \"y\"; /*L*/",
                "  }",
                "}")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("corpus")
  void weave_brokenRule_failsWithExactMessage(Case c) {
    CompiledClasses classes = TestCompiler.compile(c.sources().toArray(new String[0]));
    Weaver weaver = classes.weaver();
    byte[] input = classes.bytes(c.className());

    TransformException e = catchThrowableOfType(TransformException.class, () -> weaver.weave(input));

    assertThat(e).as("weaving %s must fail", c.className()).isNotNull();
    String location = c.className().replace('/', '.') + "." + c.methodName() + c.descriptor()
        + (c.line() >= 0 ? " (line " + c.line() + ")" : "");
    assertThat(e.getMessage()).isEqualTo(location + ": " + c.reason());
    assertThat(e.reason()).isEqualTo(c.reason());
    assertThat(e.className()).isEqualTo(c.className());
    assertThat(e.methodName()).isEqualTo(c.methodName());
    assertThat(e.descriptor()).isEqualTo(c.descriptor());
    assertThat(e.line()).isEqualTo(c.line());
  }
}
