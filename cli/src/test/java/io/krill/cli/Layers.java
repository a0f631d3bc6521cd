package io.krill.cli;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The module graph of DESIGN.md as ArchUnit rules over the packages under a root: a module is
 * the first package segment under the root ({@code io.krill.netio} is module {@code netio}).
 * The rules take the root so that their own tests can apply them to a fixture.
 */
final class Layers {
  /**
   * What each module may use directly (the rest of the graph is what these may use). transform
   * knows runtime class names as strings only; testkit is used at test scope by every module and
   * so may use none.
   */
  static final Map<String, List<String>> GRAPH = Map.ofEntries(
      Map.entry("transform", List.of()),
      Map.entry("config", List.of()),
      Map.entry("testkit", List.of()),
      Map.entry("fibers", List.of()),
      Map.entry("netio", List.of("fibers")),
      Map.entry("httpd", List.of("netio", "fibers", "config")),
      Map.entry("broker", List.of("config")),
      Map.entry("crawler", List.of("netio", "fibers", "config")),
      Map.entry("testweb", List.of("httpd", "netio", "testkit")),
      Map.entry("console", List.of("crawler", "httpd", "fibers")),
      Map.entry("benchmarks", List.of("transform", "config", "fibers", "netio", "httpd", "crawler", "testweb")),
      Map.entry("loadtest", List.of("transform", "config", "fibers", "netio", "httpd", "crawler", "console", "testweb")),
      Map.entry("cli", List.of("transform", "config", "fibers", "netio", "httpd", "broker", "crawler", "console", "testweb", "benchmarks", "loadtest")),
      Map.entry("jcstress", List.of("fibers")));

  private Layers() {}

  /** @return every module {@code module} may use: the graph's transitive closure from it */
  static Set<String> allowed(String module) {
    Set<String> seen = new TreeSet<>();
    Deque<String> todo = new ArrayDeque<>(GRAPH.getOrDefault(module, List.of()));
    while (!todo.isEmpty()) {
      String m = todo.pop();
      if (seen.add(m)) {
        todo.addAll(GRAPH.getOrDefault(m, List.of()));
      }
    }
    return seen;
  }

  /** A module never uses another module's {@code internal} package. */
  static ArchRule noForeignInternals(String root) {
    return classes().that().resideInAPackage(root + "..")
        .should(new DependencyCondition(root, "use no other module's internal package") {
          @Override
          boolean violates(String fromModule, JavaClass target, String toModule) {
            return !toModule.equals(fromModule) && target.getPackageName().startsWith(root + "." + toModule + ".internal");
          }
        }).allowEmptyShould(false);
  }

  /** A module uses only the modules below it in {@link #GRAPH}; a module missing from the graph may use none. */
  static ArchRule noUpwardDependencies(String root) {
    return classes().that().resideInAPackage(root + "..")
        .should(new DependencyCondition(root, "use only the modules below them in the module graph") {
          @Override
          boolean violates(String fromModule, JavaClass target, String toModule) {
            return !toModule.equals(fromModule) && !allowed(fromModule).contains(toModule);
          }
        }).allowEmptyShould(false);
  }

  /** No two modules use each other, directly or through others. */
  static ArchRule noCyclesBetweenModules(String root) {
    return slices().matching(root + ".(*)..").namingSlices("module $1").should().beFreeOfCycles();
  }

  /** No two packages use each other, directly or through others, inside a module or across modules. */
  static ArchRule noCyclesBetweenPackages(String root) {
    return slices().matching(root + ".(**)").namingSlices("package $1").should().beFreeOfCycles();
  }

  /** config depends only on the JDK, Typesafe Config and picocli (a schema's flags are picocli options). */
  static ArchRule configUsesOnlyTheJdkTypesafeConfigAndPicocli(String root) {
    return classes().that().resideInAPackage(root + ".config..").should().onlyDependOnClassesThat()
        .resideInAnyPackage("java..", "com.typesafe.config..", "picocli..", root + ".config..").allowEmptyShould(false);
  }

  /** @return the module of a class under {@code root}, or null if it is not under it */
  static String moduleOf(String root, JavaClass c) {
    String p = c.getPackageName();
    if (!p.startsWith(root + ".")) {
      return null;
    }
    String rest = p.substring(root.length() + 1);
    int dot = rest.indexOf('.');
    return dot < 0 ? rest : rest.substring(0, dot);
  }

  /** Reports every dependency of a class on a class of another module that {@link #violates} says is forbidden. */
  private abstract static class DependencyCondition extends ArchCondition<JavaClass> {
    private final String root;

    DependencyCondition(String root, String description) {
      super(description);
      this.root = root;
    }

    abstract boolean violates(String fromModule, JavaClass target, String toModule);

    @Override
    public void check(JavaClass c, ConditionEvents events) {
      String from = moduleOf(root, c);
      Set<String> reported = new LinkedHashSet<>();
      for (Dependency d : c.getDirectDependenciesFromSelf()) {
        JavaClass target = d.getTargetClass().getBaseComponentType();
        String to = moduleOf(root, target);
        if (from != null && to != null && violates(from, target, to) && reported.add(target.getName())) {
          events.add(SimpleConditionEvent.violated(d, "module " + from + " -> module " + to + ": " + d.getDescription()));
        }
      }
    }
  }
}
