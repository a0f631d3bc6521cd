package io.krill.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The module graph holds on krill's main code (every module is on this module's test class
 * path), and each rule fails on a fixture that breaks it ({@code io.krill.cli.layers}: a small
 * set of test classes laid out as modules, with one deliberate violation per rule).
 */
class LayersTest {
  private static final String ROOT = "io.krill";
  private static final String FIXTURE = "io.krill.cli.layers";
  private static JavaClasses main;
  private static JavaClasses fixture;

  @BeforeAll
  static void importClasses() {
    main = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .importPackages(ROOT);
    fixture = new ClassFileImporter().importPackages(FIXTURE);
  }

  /**
   * Modules of the build that are not on this module's test class path, so the rules do not see
   * them: jcstress holds only stress tests of fibers and is built after cli.
   */
  private static final Set<String> NOT_CHECKED = Set.of("jcstress");

  /* A module added to the build must be placed in the graph and put on this class path (or named above). */
  @Test
  void main_everyModuleOfTheBuildInTheGraphAndImported() throws Exception {
    String pom = Files.readString(Path.of("..", "pom.xml"));
    List<String> modules = Pattern.compile("<module>([^<]+)</module>").matcher(pom).results()
        .map(m -> m.group(1)).toList();
    assertThat(modules).contains("fibers", "cli");
    assertThat(Layers.GRAPH.keySet()).containsAll(modules);
    Set<String> imported = main.stream().map(c -> Layers.moduleOf(ROOT, c)).collect(Collectors.toSet());
    assertThat(imported).containsAll(modules.stream().filter(m -> !NOT_CHECKED.contains(m)).toList());
  }

  static Stream<Named<ArchRule>> rules() {
    return Stream.of(
        Named.of("noForeignInternals", Layers.noForeignInternals(ROOT)),
        Named.of("noUpwardDependencies", Layers.noUpwardDependencies(ROOT)),
        Named.of("noCyclesBetweenModules", Layers.noCyclesBetweenModules(ROOT)),
        Named.of("noCyclesBetweenPackages", Layers.noCyclesBetweenPackages(ROOT)),
        Named.of("configUsesOnlyTheJdkTypesafeConfigAndPicocli",
            Layers.configUsesOnlyTheJdkTypesafeConfigAndPicocli(ROOT)));
  }

  @ParameterizedTest
  @MethodSource("rules")
  void main_everyRule_holds(ArchRule rule) {
    rule.check(main);
  }

  @Test
  void allowed_isTheTransitiveClosure() {
    assertThat(Layers.allowed("testweb")).containsExactly("config", "fibers", "httpd", "netio", "testkit");
    assertThat(Layers.allowed("crawler")).doesNotContain("httpd", "testweb");
    assertThat(Layers.allowed("fibers")).isEmpty();
  }

  @Test
  void fixture_httpdImportsNetioInternal_reported() {
    assertThat(violations(Layers.noForeignInternals(FIXTURE)))
        .contains("module httpd -> module netio")
        .contains("io.krill.cli.layers.httpd.UsesNetioInternal")
        .doesNotContain("io.krill.cli.layers.netio.Api");
  }

  @Test
  void fixture_fibersImportsNetio_reportedAsUpward() {
    assertThat(violations(Layers.noUpwardDependencies(FIXTURE)))
        .contains("module fibers -> module netio")
        .contains("io.krill.cli.layers.fibers.UsesNetio")
        .contains("module netio -> module httpd")
        .doesNotContain("module httpd -> module netio");
  }

  @Test
  void fixture_packagesUseEachOther_reportedAsCycle() {
    assertThat(violations(Layers.noCyclesBetweenPackages(FIXTURE))).contains("cycle.a").contains("cycle.b");
    assertThat(violations(Layers.noCyclesBetweenModules(FIXTURE))).contains("module httpd").contains("module netio");
  }

  @Test
  void fixture_configUsesAnotherLibrary_reported() {
    assertThat(violations(Layers.configUsesOnlyTheJdkTypesafeConfigAndPicocli(FIXTURE)))
        .contains("io.krill.cli.layers.config.UsesNetty").contains("io.netty");
  }

  private static String violations(ArchRule rule) {
    EvaluationResult r = rule.evaluate(fixture);
    assertThat(r.hasViolation()).as(rule.getDescription()).isTrue();
    return String.join("\n", r.getFailureReport().getDetails());
  }
}
