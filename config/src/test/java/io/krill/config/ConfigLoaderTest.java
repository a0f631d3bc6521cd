package io.krill.config;

import static io.krill.config.TestSchema.CERT;
import static io.krill.config.TestSchema.IDLE;
import static io.krill.config.TestSchema.INDEX;
import static io.krill.config.TestSchema.MAX_BODY;
import static io.krill.config.TestSchema.MODE;
import static io.krill.config.TestSchema.PORT;
import static io.krill.config.TestSchema.SCHEMA;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigLoaderTest {
  @TempDir
  Path dir;

  private Path conf(String text) throws IOException {
    Path file = dir.resolve("krill.conf");
    Files.writeString(file, text, StandardCharsets.UTF_8);
    return file;
  }

  private static ConfigLoader loader() {
    return SCHEMA.loader().environment(Map.of());
  }

  @Test
  void load_noLayers_defaultsWithOriginDefault() {
    Settings s = loader().load();
    assertThat(s.get(PORT)).isEqualTo(8080);
    assertThat(s.get(IDLE)).isEqualTo(Duration.ofSeconds(60));
    assertThat(s.get(MODE)).isEqualTo(TestSchema.Mode.FIBER);
    assertThat(s.origin(PORT)).isEqualTo("default");
  }

  @Test
  void load_file_overridesDefaultAndNamesFileAndLine() throws IOException {
    Path file = conf("# krill\nhttpd {\n  port = 9000\n  limits.max-body-bytes = 1MiB\n}\n");
    Settings s = loader().file(file).load();
    assertThat(s.get(PORT)).isEqualTo(9000);
    assertThat(s.get(MAX_BODY)).isEqualTo(1L << 20);
    assertThat(s.origin(PORT)).isEqualTo("file " + file + " line 3");
    assertThat(s.origin(MAX_BODY)).isEqualTo("file " + file + " line 4");
    assertThat(s.origin(IDLE)).isEqualTo("default");
  }

  @Test
  void load_environment_overridesFile() throws IOException {
    Path file = conf("httpd.port = 9000\nhttpd.timeouts.idle = 5s\n");
    Settings s = SCHEMA.loader().file(file).environment(Map.of("KRILL_HTTPD_PORT", "9100")).load();
    assertThat(s.get(PORT)).isEqualTo(9100);
    assertThat(s.origin(PORT)).isEqualTo("environment KRILL_HTTPD_PORT");
    assertThat(s.get(IDLE)).isEqualTo(Duration.ofSeconds(5));
  }

  @Test
  void load_flags_overrideEnvironmentAndLaterFlagWins() throws IOException {
    Path file = conf("httpd.port = 9000\n");
    Settings s = SCHEMA.loader().file(file)
        .environment(Map.of("KRILL_HTTPD_PORT", "9100", "KRILL_HTTPD_EXECUTION_MODE", "virtual"))
        .set("httpd.port=9200")
        .flag(PORT, "9300", "--port")
        .load();
    assertThat(s.get(PORT)).isEqualTo(9300);
    assertThat(s.origin(PORT)).isEqualTo("flag --port");
    assertThat(s.get(MODE)).isEqualTo(TestSchema.Mode.VIRTUAL);

    Settings t = loader().flag(PORT, "9300", "--port").set("httpd.port=9200").load();
    assertThat(t.get(PORT)).isEqualTo(9200);
    assertThat(t.origin(PORT)).isEqualTo("flag --set");
  }

  @Test
  void load_badValueInFile_messageNamesKeyValueExpectationFileAndLine() throws IOException {
    Path file = conf("httpd {\n  gzip = true\n  port = 70000\n}\n");
    ConfigException e = catchThrowableOfType(ConfigException.class, () -> loader().file(file).load());
    assertThat(e).hasMessage("httpd.port: 70000 (expected: 0..65535) from file " + file + " line 3");
    assertThat(e.key()).isEqualTo("httpd.port");
    assertThat(e.value()).isEqualTo("70000");
    assertThat(e.reason()).isEqualTo("expected: 0..65535");
    assertThat(e.origin()).isEqualTo("file " + file + " line 3");
  }

  @Test
  void load_badValueInEnvironment_messageNamesVariable() {
    ConfigException e = catchThrowableOfType(ConfigException.class, () -> SCHEMA.loader()
        .environment(Map.of("KRILL_HTTPD_LIMITS_MAX_BODY_BYTES", "lots")).load());
    assertThat(e).hasMessage("httpd.limits.max-body-bytes: lots (expected: a byte size such as 8k or 10MiB"
        + " (k = 1024, kB = 1000)) from environment KRILL_HTTPD_LIMITS_MAX_BODY_BYTES");
  }

  @Test
  void load_badValueFromFlag_messageNamesFlag() {
    assertThatThrownBy(() -> loader().flag(PORT, "-1", "--port").load())
        .isInstanceOf(ConfigException.class)
        .hasMessage("httpd.port: -1 (expected: 0..65535) from flag --port");
    assertThatThrownBy(() -> loader().set("httpd.port=http").load())
        .hasMessage("httpd.port: http (expected: an integer) from flag --set");
  }

  @Test
  void load_badLowerValueOverriddenByHigherLayer_loads() throws IOException {
    Path file = conf("httpd.port = 70000\n");
    Settings s = SCHEMA.loader().file(file).environment(Map.of("KRILL_HTTPD_PORT", "8081")).load();
    assertThat(s.get(PORT)).isEqualTo(8081);
  }

  @Test
  void load_severalProblems_reportsEveryOneInLayerOrder() throws IOException {
    Path file = conf("httpd.port = 70000\nhttpd.prot = 80\n");
    ConfigException e = catchThrowableOfType(ConfigException.class, () -> SCHEMA.loader().file(file)
        .environment(Map.of("KRILL_HTTPD_TIMEOUTS_IDLE", "soon"))
        .flag(MODE, "green", "--mode")
        .load());
    assertThat(e.problems()).extracting(ConfigException.Problem::toString).containsExactly(
        "httpd.prot: 80 (unknown key; did you mean httpd.port?) from file " + file + " line 2",
        "httpd.port: 70000 (expected: 0..65535) from file " + file + " line 1",
        "httpd.timeouts.idle: soon (expected: a duration such as 30s or 500ms (units: ns, us, ms, s, m, h, d))"
            + " from environment KRILL_HTTPD_TIMEOUTS_IDLE",
        "httpd.execution-mode: green (expected: one of fiber, virtual, platform) from flag --mode");
    assertThat(e.getMessage().lines()).hasSize(4);
  }

  @Test
  void load_unknownKeyInFile_namesKeyAndSuggests() throws IOException {
    Path file = conf("httpd {\n  limits {\n    max-body-byte = 1k\n  }\n  max-connections = 5\n  zzz = 1\n}\n");
    ConfigException e = catchThrowableOfType(ConfigException.class, () -> loader().file(file).load());
    assertThat(e.problems()).extracting(ConfigException.Problem::toString).containsExactly(
        "httpd.limits.max-body-byte: 1k (unknown key; did you mean httpd.limits.max-body-bytes?) from file "
            + file + " line 3",
        "httpd.max-connections: 5 (unknown key; did you mean httpd.limits.max-connections?) from file "
            + file + " line 5",
        "httpd.zzz: 1 (unknown key) from file " + file + " line 6");
  }

  @Test
  void load_misspeltNamespace_reportedWithSuggestion() throws IOException {
    Path file = conf("htpd.port = 1\n");
    assertThatThrownBy(() -> loader().file(file).load())
        .hasMessage("htpd.port: 1 (unknown key; did you mean httpd.port?) from file " + file + " line 1");
  }

  @Test
  void load_keysOutsideNamespacesAndNulls_ignoredOrDefaulted() throws IOException {
    Path file = conf("crawler.depth = 3\nakka.loglevel = DEBUG\nhttpd.port = null\n");
    Settings s = loader().file(file).load();
    assertThat(s.get(PORT)).isEqualTo(8080);
    assertThat(s.origin(PORT)).isEqualTo("default");
  }

  @Test
  void load_hoconFeatures_substitutionsListsAndUnits() throws IOException {
    Path file = conf("base = 9000\nhttpd.port = ${base}\nhttpd.index-files = [index.html, \"default.htm\"]\n"
        + "httpd.timeouts.idle = 2 minutes\nhttpd.execution-mode = PLATFORM\n");
    Settings s = loader().file(file).load();
    assertThat(s.get(PORT)).isEqualTo(9000);
    assertThat(s.get(INDEX)).containsExactly("index.html", "default.htm");
    assertThat(s.get(IDLE)).isEqualTo(Duration.ofMinutes(2));
    assertThat(s.get(MODE)).isEqualTo(TestSchema.Mode.PLATFORM);
  }

  @Test
  void load_objectWhereScalarExpected_namesExpectation() throws IOException {
    Path file = conf("httpd.index-files = [[a]]\n");
    assertThatThrownBy(() -> loader().file(file).load())
        .hasMessage("httpd.index-files: [[\"a\"]] (expected: a list of strings (HOCON list or comma-separated))"
            + " from file " + file + " line 1");
  }

  @Test
  void load_malformedHocon_namesFileAndLine() throws IOException {
    Path file = conf("httpd {\n  port = 8080\n  limits {\n");
    ConfigException e = catchThrowableOfType(ConfigException.class, () -> loader().file(file).load());
    assertThat(e.key()).isNull();
    assertThat(e.origin()).isEqualTo("file " + file + " line 4");
    assertThat(e.reason()).startsWith("malformed HOCON: ");
    assertThat(e.getMessage()).startsWith("file " + file + " line 4: malformed HOCON: ");
  }

  @Test
  void load_unresolvedSubstitution_namesFileAndLine() throws IOException {
    Path file = conf("httpd.port = ${nowhere}\n");
    ConfigException e = catchThrowableOfType(ConfigException.class, () -> loader().file(file).load());
    assertThat(e.origin()).isEqualTo("file " + file + " line 1");
    assertThat(e.reason()).startsWith("malformed HOCON: ").contains("nowhere");
  }

  @Test
  void load_missingFile_namesFile() {
    Path file = dir.resolve("absent.conf");
    assertThatThrownBy(() -> loader().file(file).load()).hasMessage("file " + file + ": no such file");
    assertThatThrownBy(() -> loader().file(dir).load()).hasMessage("file " + dir + ": not a readable regular file");
  }

  @Test
  void load_unknownEnvironmentVariableInNamespace_namesItAndSuggests() {
    assertThatThrownBy(() -> SCHEMA.loader().environment(Map.of("KRILL_HTTPD_PROT", "80")).load())
        .hasMessage("KRILL_HTTPD_PROT: 80 (unknown environment variable; did you mean KRILL_HTTPD_PORT?)"
            + " from environment KRILL_HTTPD_PROT");
  }

  @Test
  void load_unrelatedEnvironment_ignored() {
    Settings s = SCHEMA.loader().environment(Map.of("PATH", "/bin", "KRILL_JAVA_OPTS", "-Xmx1g",
        "KRILL_CRAWLER_DEPTH", "3", "HTTPD_PORT", "1")).load();
    assertThat(s.get(PORT)).isEqualTo(8080);
  }

  @Test
  void load_environmentMapping_everySettingReachable() {
    assertThat(SCHEMA.envName(MAX_BODY)).isEqualTo("KRILL_HTTPD_LIMITS_MAX_BODY_BYTES");
    assertThat(SCHEMA.envName(MODE)).isEqualTo("KRILL_HTTPD_EXECUTION_MODE");
    Settings s = SCHEMA.loader().environment(Map.of(
        "KRILL_HTTPD_LIMITS_MAX_BODY_BYTES", "64k",
        "KRILL_HTTPD_INDEX_FILES", "a.html, b.html",
        "KRILL_HTTPD_TLS_CERT_FILE", "/etc/cert.pem")).load();
    assertThat(s.get(MAX_BODY)).isEqualTo(65536L);
    assertThat(s.get(INDEX)).containsExactly("a.html", "b.html");
    assertThat(s.get(CERT)).isEqualTo(Path.of("/etc/cert.pem"));
    assertThat(s.origin(CERT)).isEqualTo("environment KRILL_HTTPD_TLS_CERT_FILE");
  }

  @Test
  void load_customPrefix_readsOnlyThatPrefix() {
    ConfigSchema schema = ConfigSchema.builder().envPrefix("APP_").add(PORT).build();
    Settings s = schema.loader().environment(Map.of("APP_HTTPD_PORT", "1234", "KRILL_HTTPD_PORT", "1")).load();
    assertThat(s.get(PORT)).isEqualTo(1234);
    assertThat(schema.envName(PORT)).isEqualTo("APP_HTTPD_PORT");
  }

  @Test
  void load_unknownSetKey_namesItAndSuggests() {
    assertThatThrownBy(() -> loader().set("httpd.timeouts.idel=5s").load())
        .hasMessage("httpd.timeouts.idel: 5s (unknown key; did you mean httpd.timeouts.idle?) from flag --set");
    assertThatThrownBy(() -> loader().set("elsewhere.x=1").load())
        .hasMessage("elsewhere.x: 1 (unknown key) from flag --set");
  }

  @Test
  void load_setWithoutEquals_namesExpectedShape() {
    assertThatThrownBy(() -> loader().set("httpd.port").load())
        .hasMessage("httpd.port (expected: key=value) from flag --set");
  }

  @Test
  void load_setValueWithEquals_keepsEverythingAfterFirstEquals() {
    Settings s = loader().set("httpd.server-name=a=b").load();
    assertThat(s.get(TestSchema.NAME)).isEqualTo("a=b");
  }

  @Test
  void find_optionalUnset_emptyAndGetThrows() {
    Settings s = loader().load();
    assertThat(s.find(CERT)).isEmpty();
    assertThatThrownBy(() -> s.get(CERT)).isInstanceOf(NoSuchElementException.class)
        .hasMessage("httpd.tls.cert-file: not set (no default)");
    assertThat(s.find(PORT)).contains(8080);
  }

  @Test
  void get_settingOfAnotherSchema_throwsNamingIt() {
    Setting<Integer> other = Setting.ofInt("other.port").defaultValue(1).doc("x").build();
    assertThatThrownBy(() -> loader().load().get(other)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("setting: other.port (expected: a setting of this schema)");
    assertThatThrownBy(() -> loader().flag(other, "1", "--x")).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void toString_listsEveryValueWithOrigin() {
    String text = loader().flag(PORT, "81", "--port").load().toString();
    assertThat(text).contains("httpd.port = 81 (flag --port)\n")
        .contains("httpd.timeouts.idle = 1m (default)\n")
        .contains("httpd.tls.cert-file = (none) (default)\n");
    assertThat(text.lines()).hasSize(SCHEMA.settings().size());
  }

  @Test
  void defaults_matchDeclaredDefaults() {
    Settings s = SCHEMA.defaults();
    for (Setting<?> setting : SCHEMA.settings()) {
      assertThat(s.find(setting)).isEqualTo(setting.defaultValue());
    }
    assertThat(List.of(s.origin(PORT), s.origin(CERT))).containsOnly("default");
  }

  @Test
  void load_ruleAcrossSettingsFails_reportedAgainstSubjectWithOrigin() {
    Setting<Path> key = Setting.ofPath("httpd.tls.key-file").optional().doc("key").build();
    ConfigSchema schema = ConfigSchema.builder().add(CERT, key)
        .rule(key, s -> s.find(key).isPresent() == s.find(CERT).isPresent(), "set together with httpd.tls.cert-file")
        .build();
    assertThatThrownBy(() -> schema.loader().environment(Map.of("KRILL_HTTPD_TLS_CERT_FILE", "/c.pem")).load())
        .hasMessage("httpd.tls.key-file: (none) (expected: set together with httpd.tls.cert-file) from default");
    assertThatThrownBy(() -> schema.loader().environment(Map.of()).flag(key, "/k.pem", "--tls-key").load())
        .hasMessage("httpd.tls.key-file: /k.pem (expected: set together with httpd.tls.cert-file) from flag --tls-key");
    Settings both = schema.loader().environment(Map.of()).set("httpd.tls.key-file=/k").set("httpd.tls.cert-file=/c").load();
    assertThat(both.get(key)).isEqualTo(Path.of("/k"));
  }

  @Test
  void load_unknownKeysInEveryLayer_reportedFileThenEnvironmentThenFlags() throws IOException {
    Path file = conf("httpd.prot = 1\n");
    ConfigException e = catchThrowableOfType(ConfigException.class, () -> SCHEMA.loader().file(file)
        .environment(Map.of("KRILL_HTTPD_PROT", "2")).set("httpd.prot=3").load());
    assertThat(e.problems()).extracting(ConfigException.Problem::origin)
        .containsExactly("file " + file + " line 1", "environment KRILL_HTTPD_PROT", "flag --set");
  }
}
