package io.krill.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
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

  /** The command line {@code krill} with a subcommand {@code fibers} that has one {@code dump} taking a number. */
  private static CommandLine launcher(PrintStream err) {
    CommandSpec dump = CommandSpec.create().name("dump");
    dump.addPositional(CommandLine.Model.PositionalParamSpec.builder().type(long.class).build());
    CommandSpec fibers = CommandSpec.create().name("fibers");
    fibers.addSubcommand("dump", new CommandLine(dump));
    CommandSpec krill = CommandSpec.create().name("krill");
    krill.addSubcommand("fibers", new CommandLine(fibers));
    CommandLine cl = new CommandLine(krill);
    cl.setParameterExceptionHandler((e, a) -> CommandOptions.usageError(err, e));
    return cl;
  }

  @Test
  void usageError_launcherSubcommandOrNested_oneLineNamingItAndStatus2() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PrintStream err = new PrintStream(bytes, true, StandardCharsets.UTF_8);
    assertThat(launcher(err).execute("--bogus")).isEqualTo(CommandOptions.USAGE);
    assertThat(launcher(err).execute("fibers", "--bogus")).isEqualTo(2);
    assertThat(launcher(err).execute("fibers", "dump", "x")).isEqualTo(2);
    assertThat(CommandOptions.usageError(err, "crawl", "--max-pages: 0 (expected: > 0)")).isEqualTo(2);
    assertThat(bytes.toString(StandardCharsets.UTF_8).lines()).containsExactly(
        "krill: Unknown option: '--bogus' (see krill --help)",
        "krill fibers: Unknown option: '--bogus' (see krill fibers --help)",
        "krill fibers dump: Invalid value for positional parameter at index 0 (PARAM): 'x' is not a long"
            + " (see krill fibers dump --help)",
        "krill crawl: --max-pages: 0 (expected: > 0) (see krill crawl --help)");
  }

  @Test
  void commandLine_commandAlone_usageLineNamesIt() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PrintStream err = new PrintStream(bytes, true, StandardCharsets.UTF_8);
    CommandSpec spec = CommandOptions.spec(new Object(), "crawl", "crawls", BINDING.schema());
    assertThat(CommandOptions.commandLine(spec, System.out, err).execute("--max-pages")).isEqualTo(2);
    assertThat(bytes.toString(StandardCharsets.UTF_8).lines()).containsExactly(
        "krill crawl: Missing required parameter for option '--max-pages' (N) (see krill crawl --help)");
  }

  @Test
  void usageError_everyProblem_oneLineEachAsTyped() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PrintStream err = new PrintStream(bytes, true, StandardCharsets.UTF_8);
    CommandSpec spec = CommandSpec.create();
    CommandOptions.addTo(spec, BINDING.schema());
    new CommandLine(spec).parseArgs("--delay", "soon", "--max-pages", "x");
    ConfigLoader loader = CommandOptions.flags(spec, BINDING.schema(), BINDING.schema().loader().environment(Map.of()))
        .set("t.includ=a");
    assertThatThrownBy(loader::load).isInstanceOfSatisfying(ConfigException.class, e ->
        assertThat(CommandOptions.usageError(err, "serve", e)).isEqualTo(CommandOptions.USAGE));
    assertThat(bytes.toString(StandardCharsets.UTF_8).lines()).containsExactlyInAnyOrder(
        "krill serve: --max-pages: x (expected: an integer) (see krill serve --help)",
        "krill serve: --delay: soon (expected: a duration such as 30s or 500ms (units: ns, us, ms, s, m, h, d))"
            + " (see krill serve --help)",
        "krill serve: t.includ: a (unknown key; did you mean t.include?) from flag --set (see krill serve --help)");
  }
}
