package io.krill.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.krill.testkit.CapturedRun;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
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

  /** What a run that failed with one usage line wrote. */
  private static CapturedRun usage(int code, String line) {
    return new CapturedRun(code, line + System.lineSeparator(), "");
  }

  @Test
  void usageError_launcherSubcommandOrNested_oneLineNamingItAndStatus2() {
    assertThat(CapturedRun.of((out, err) -> launcher(err).execute("--bogus")))
        .isEqualTo(usage(CommandOptions.USAGE, "krill: Unknown option: '--bogus' (see krill --help)"));
    assertThat(CapturedRun.of((out, err) -> launcher(err).execute("fibers", "--bogus")))
        .isEqualTo(usage(2, "krill fibers: Unknown option: '--bogus' (see krill fibers --help)"));
    assertThat(CapturedRun.of((out, err) -> launcher(err).execute("fibers", "dump", "x"))).isEqualTo(usage(2,
        "krill fibers dump: Invalid value for positional parameter at index 0 (PARAM): 'x' is not a long"
            + " (see krill fibers dump --help)"));
    assertThat(CapturedRun.of((out, err) -> CommandOptions.usageError(err, "crawl", "--max-pages: 0 (expected: > 0)")))
        .isEqualTo(usage(2, "krill crawl: --max-pages: 0 (expected: > 0) (see krill crawl --help)"));
  }

  @Test
  void commandLine_commandAlone_usageLineNamesIt() {
    CommandSpec spec = CommandOptions.spec(new Object(), "crawl", "crawls", BINDING.schema());
    assertThat(CapturedRun.of((out, err) -> CommandOptions.commandLine(spec, out, err).execute("--max-pages")))
        .isEqualTo(usage(2,
            "krill crawl: Missing required parameter for option '--max-pages' (N) (see krill crawl --help)"));
  }

  @Test
  void usageError_everyProblem_oneLineEachAsTyped() {
    CommandSpec spec = CommandSpec.create();
    CommandOptions.addTo(spec, BINDING.schema());
    new CommandLine(spec).parseArgs("--delay", "soon", "--max-pages", "x");
    ConfigLoader loader = CommandOptions.flags(spec, BINDING.schema(), BINDING.schema().loader().environment(Map.of()))
        .set("t.includ=a");
    ConfigException problems = catchThrowableOfType(ConfigException.class, loader::load);
    CapturedRun r = CapturedRun.of((out, err) -> CommandOptions.usageError(err, "serve", problems));
    assertThat(r.code()).isEqualTo(CommandOptions.USAGE);
    assertThat(r.err().lines()).containsExactlyInAnyOrder(
        "krill serve: --max-pages: x (expected: an integer) (see krill serve --help)",
        "krill serve: --delay: soon (expected: a duration such as 30s or 500ms (units: ns, us, ms, s, m, h, d))"
            + " (see krill serve --help)",
        "krill serve: t.includ: a (unknown key; did you mean t.include?) from flag --set (see krill serve --help)");
  }
  @Test
  void ioError_fileSystemFailures_pathWithWhatWentWrong_exitOne(@TempDir Path dir) throws IOException {
    Path file = Files.writeString(dir.resolve("plain.txt"), "x");
    IOException missing = catchThrowableOfType(() -> Files.readString(dir.resolve("gone.txt")), IOException.class);
    IOException underFile = catchThrowableOfType(() -> Files.createDirectories(file.resolve("sub")), FileSystemException.class);
    assertThat(missing.getMessage()).isEqualTo(dir.resolve("gone.txt").toString()); // the JDK's message alone: only the path
    assertThat(CommandOptions.describe(missing)).isEqualTo(dir.resolve("gone.txt") + ": no such file or directory");
    assertThat(CommandOptions.describe(underFile)).isEqualTo(file.resolve("sub") + ": Not a directory");
    assertThat(CommandOptions.describe(new IOException("port 8080 is in use"))).isEqualTo("port 8080 is in use");
    assertThat(CommandOptions.describe(new IOException())).isEqualTo("IOException");

    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    int status = CommandOptions.ioError(new PrintStream(bytes, true, StandardCharsets.UTF_8), "crawl", "cannot start", missing);
    assertThat(status).isEqualTo(1);
    assertThat(bytes.toString(StandardCharsets.UTF_8))
        .isEqualTo("krill crawl: cannot start: " + dir.resolve("gone.txt") + ": no such file or directory" + System.lineSeparator());
  }

  @Test
  void writableDirectory_missing_createdWithItsParents(@TempDir Path dir) {
    Path out = dir.resolve("a/b");
    assertThat(CommandOptions.writableDirectory("--out", out)).isEqualTo(out);
    assertThat(out).isDirectory();
  }

  @Test
  void writableDirectory_underARegularFile_namesTheOptionAndWhatFailed(@TempDir Path dir) throws IOException {
    Path file = Files.writeString(dir.resolve("plain.txt"), "x");
    assertThatThrownBy(() -> CommandOptions.writableDirectory("--results", file.resolve("r")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("--results: " + file.resolve("r") + " (expected: a directory krill can write; " + file.resolve("r")
            + ": Not a directory)");
  }
}

