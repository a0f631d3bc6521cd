package io.krill.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

class CommandOptionsTest {
  static final class Target {
    long pages;
    Duration delay = Duration.ZERO;
    boolean sitemaps = true;
    List<String> include = List.of();

    void pages(long n) {
      if (n <= 0) {
        throw new IllegalArgumentException("pages: " + n + " (expected: > 0)");
      }
      pages = n;
    }
  }

  static final ConfigBinding<Target, Target> BINDING = ConfigBinding.<Target, Target>builder()
      .bind(Setting.ofLong("t.max-pages").defaultValue(10L).doc("pages").build(), t -> t.pages, Target::pages)
      .bind(Setting.ofDuration("t.delay").defaultValue(Duration.ofSeconds(1)).doc("delay").build(), t -> t.delay,
          (t, d) -> t.delay = d)
      .bind(Setting.ofBoolean("t.sitemaps").defaultValue(true).doc("sitemaps").build(), (t, b) -> t.sitemaps = b)
      .bind(Setting.ofStringList("t.include").defaultValue(List.of()).doc("patterns").build(), (t, l) -> t.include = l)
      .build();

  private static Target parse(String... args) {
    CommandSpec spec = CommandSpec.create();
    CommandOptions.addTo(spec, BINDING.schema());
    new CommandLine(spec).parseArgs(args);
    Settings s = CommandOptions.flags(spec, BINDING.schema(), BINDING.schema().loader().environment(Map.of())).load();
    return BINDING.apply(s, new Target());
  }

  @Test
  void addTo_flagsFromKeys_switchesListsAndDefaultsInHelp() {
    CommandSpec spec = CommandSpec.create();
    CommandOptions.addTo(spec, BINDING.schema());
    String usage = new CommandLine(spec).getUsageMessage();
    assertThat(usage).contains("--max-pages=N", "pages (default: 10)", "--delay=TIME", "(default: 1s)", "--no-sitemaps",
        "--include=INCLUDE", "--no-sitemaps ");
  }

  @Test
  void flags_givenValues_reachTheBuilder() {
    Target t = parse("--max-pages", "5", "--delay", "250ms", "--no-sitemaps", "--include", "a,b", "--include", "c");
    assertThat(t.pages).isEqualTo(5);
    assertThat(t.delay).isEqualTo(Duration.ofMillis(250));
    assertThat(t.sitemaps).isFalse();
    assertThat(t.include).containsExactly("a,b", "c");
    assertThat(parse().pages).isEqualTo(10);
    assertThat(BINDING.describe(t)).isEqualTo("--max-pages=5 --delay=250ms");
  }

  @Test
  void describe_badFlag_namesTheFlagAsTyped() {
    assertThatThrownBy(() -> parse("--delay", "soon")).isInstanceOfSatisfying(ConfigException.class, e ->
        assertThat(CommandOptions.describe(e.problems().get(0))).startsWith("--delay: soon (expected: a duration"));
    assertThatThrownBy(() -> parse("--max-pages", "0")).isInstanceOfSatisfying(ConfigException.class, e ->
        assertThat(CommandOptions.describe(e.problems().get(0))).isEqualTo("--max-pages: 0 (expected: > 0)"));
  }

  @Test
  void parse_badText_houseFormat() {
    Setting<Long> size = Setting.ofBytes("t.size").defaultValue(1L).atLeast(1L).doc("size").build();
    assertThat(size.parse("64KiB")).isEqualTo(64L << 10);
    assertThatThrownBy(() -> size.parse("0")).hasMessage("t.size: 0 (expected: >= 1B)");
  }
}
