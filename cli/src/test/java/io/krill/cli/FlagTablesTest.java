package io.krill.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The flag tables in the docs are the generated ones. Run with {@code -Dkrill.docs.update=true}
 * to rewrite the marked sections of README.md and docs/*.md; otherwise a table that differs
 * fails this test, naming the page and the command.
 */
class FlagTablesTest {
  private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

  @Test
  void rewrite_markedSection_replacedByGeneratedTable() {
    String page = "# Serve\n\nintro\n<!-- flags:serve -->\nstale\n<!-- /flags:serve -->\nafter\n";
    String done = FlagTables.rewrite(page);
    assertThat(done).startsWith("# Serve\n\nintro\n<!-- flags:serve -->\n| Setting |")
        .endsWith("<!-- /flags:serve -->\nafter\n")
        .contains(ServeSettings.SCHEMA.markdownTable())
        .doesNotContain("stale");
    assertThat(FlagTables.rewrite(done)).isEqualTo(done);
  }

  @Test
  void markdown_picocliCommand_rowPerVisibleOption() {
    String table = FlagTables.markdown("bench");
    assertThat(table).startsWith("| flag | default | meaning |\n")
        .contains("| `--quick` |  | a smoke run:").doesNotContain("--help");
  }

  @Test
  void markdown_schemaCommand_defaultFromTheSchema() {
    assertThat(FlagTables.markdown("loadtest"))
        .contains("| `--heap HEAP` | `1g` | Fixed heap (-Xms = -Xmx) of every child JVM |")
        .contains("| `--rounds N` | `3; slow-handler and idle 2; quick 1` | Interleaved rounds |")
        .contains("| `--no-wrk` | `on; this flag turns it off` | Cross-check the hello cells with wrk when it is installed |");
  }

  @Test
  void markdown_choicesInAFlag_barsEscapedSoTheRowKeepsItsCells() {
    assertThat(FlagTables.markdown("crawl"))
        .contains("| `--mode fibers\\|threads\\|virtual` | `fibers` | how fetches run:")
        .doesNotContain("fibers|threads");
  }

  @Test
  void markdown_unknownCommand_namesTheChoices() {
    assertThatThrownBy(() -> FlagTables.markdown("nope")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("--flags: nope (expected: one of");
  }

  @Test
  void docs_everyMarkedTable_isTheGeneratedOne() throws IOException {
    boolean update = Boolean.getBoolean("krill.docs.update");
    List<String> stale = new ArrayList<>();
    for (Path page : pages()) {
      String text = Files.readString(page, StandardCharsets.UTF_8);
      String fresh = FlagTables.rewrite(text);
      if (fresh.equals(text)) {
        continue;
      }
      if (update) {
        Files.writeString(page, fresh, StandardCharsets.UTF_8);
      } else {
        stale.add(ROOT.relativize(page) + " " + FlagTables.marked(text));
      }
    }
    assertThat(stale).as("flag tables that differ from the schemas; rerun with -Dkrill.docs.update=true").isEmpty();
  }

  private static List<Path> pages() throws IOException {
    List<Path> pages = new ArrayList<>();
    if (Files.isRegularFile(ROOT.resolve("README.md"))) {
      pages.add(ROOT.resolve("README.md"));
    }
    if (Files.isDirectory(ROOT.resolve("docs"))) {
      try (Stream<Path> s = Files.walk(ROOT.resolve("docs"))) {
        s.filter(p -> p.toString().endsWith(".md") && !p.startsWith(ROOT.resolve("docs/results"))).forEach(pages::add);
      }
    }
    return pages;
  }
}
