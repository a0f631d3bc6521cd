package io.krill.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Every type read from a flag (the same parser serves file and environment), good and bad. */
class SettingTypesTest {
  private static Object load(Setting<?> setting, String text) {
    return TestSchema.SCHEMA.loader().environment(Map.of()).flag(setting, text, "--x").load().get(setting);
  }

  static Stream<Arguments> good() {
    return Stream.of(
        Arguments.of(TestSchema.PORT, "443", 443),
        Arguments.of(TestSchema.PORT, " 0 ", 0),
        Arguments.of(TestSchema.MAX_CONNECTIONS, "5000000000", 5_000_000_000L),
        Arguments.of(TestSchema.GZIP, "false", false),
        Arguments.of(TestSchema.GZIP, "YES", true),
        Arguments.of(TestSchema.GZIP, "off", false),
        Arguments.of(TestSchema.IDLE, "30s", Duration.ofSeconds(30)),
        Arguments.of(TestSchema.IDLE, "500ms", Duration.ofMillis(500)),
        Arguments.of(TestSchema.IDLE, "1.5h", Duration.ofMinutes(90)),
        Arguments.of(TestSchema.IDLE, "2 minutes", Duration.ofMinutes(2)),
        Arguments.of(TestSchema.IDLE, "2500us", Duration.ofNanos(2_500_000)),
        Arguments.of(TestSchema.IDLE, "1d", Duration.ofDays(1)),
        Arguments.of(TestSchema.MAX_BODY, "8k", 8192L),
        Arguments.of(TestSchema.MAX_BODY, "10MiB", 10L << 20),
        Arguments.of(TestSchema.MAX_BODY, "1kB", 1000L),
        Arguments.of(TestSchema.MAX_BODY, "2MB", 2_000_000L),
        Arguments.of(TestSchema.MAX_BODY, "1.5k", 1536L),
        Arguments.of(TestSchema.MAX_BODY, "512", 512L),
        Arguments.of(TestSchema.MAX_BODY, "1 GiB", 1L << 30),
        Arguments.of(TestSchema.ADDRESS, "localhost", "localhost"),
        Arguments.of(TestSchema.ADDRESS, "0.0.0.0", "0.0.0.0"),
        Arguments.of(TestSchema.ADDRESS, "::1", "::1"),
        Arguments.of(TestSchema.ADDRESS, "[::1]", "::1"),
        Arguments.of(TestSchema.ADDRESS, "www.example-1.org", "www.example-1.org"),
        Arguments.of(TestSchema.ROOT, "/srv/www", Path.of("/srv/www")),
        Arguments.of(TestSchema.MODE, "virtual", TestSchema.Mode.VIRTUAL),
        Arguments.of(TestSchema.MODE, "Platform", TestSchema.Mode.PLATFORM),
        Arguments.of(TestSchema.NAME, "krill/1", "krill/1"),
        Arguments.of(TestSchema.INDEX, "a.html,b.html", List.of("a.html", "b.html")),
        Arguments.of(TestSchema.WORKERS, "4", 4));
  }

  @ParameterizedTest(name = "{0} <- {1}")
  @MethodSource("good")
  void load_goodText_parsesToValue(Setting<?> setting, String text, Object expected) {
    assertThat(load(setting, text)).isEqualTo(expected);
  }

  static Stream<Arguments> bad() {
    String duration = "a duration such as 30s or 500ms (units: ns, us, ms, s, m, h, d)";
    String size = "a byte size such as 8k or 10MiB (k = 1024, kB = 1000)";
    String host = "a host name or IP address";
    return Stream.of(
        Arguments.of(TestSchema.PORT, "80x", "httpd.port: 80x (expected: an integer)"),
        Arguments.of(TestSchema.PORT, "8.0", "httpd.port: 8.0 (expected: an integer)"),
        Arguments.of(TestSchema.PORT, "99999999999", "httpd.port: 99999999999 (expected: an integer)"),
        Arguments.of(TestSchema.PORT, "65536", "httpd.port: 65536 (expected: 0..65535)"),
        Arguments.of(TestSchema.MAX_CONNECTIONS, "0", "httpd.limits.max-connections: 0 (expected: >= 1)"),
        Arguments.of(TestSchema.MAX_CONNECTIONS, "many", "httpd.limits.max-connections: many (expected: an integer)"),
        Arguments.of(TestSchema.GZIP, "maybe", "httpd.gzip: maybe (expected: true or false)"),
        Arguments.of(TestSchema.IDLE, "30", "httpd.timeouts.idle: 30 (expected: " + duration + ")"),
        Arguments.of(TestSchema.IDLE, "30 parsecs", "httpd.timeouts.idle: 30 parsecs (expected: " + duration + ")"),
        Arguments.of(TestSchema.IDLE, "-1s", "httpd.timeouts.idle: -1s (expected: " + duration + ")"),
        Arguments.of(TestSchema.IDLE, "0s", "httpd.timeouts.idle: 0s (expected: >= 1ms)"),
        Arguments.of(TestSchema.IDLE, "99999999d", "httpd.timeouts.idle: 99999999d (expected: " + duration + ")"),
        Arguments.of(TestSchema.MAX_BODY, "lots", "httpd.limits.max-body-bytes: lots (expected: " + size + ")"),
        Arguments.of(TestSchema.MAX_BODY, "8 KB", "httpd.limits.max-body-bytes: 8 KB (expected: " + size + ")"),
        Arguments.of(TestSchema.MAX_BODY, "1.5B", "httpd.limits.max-body-bytes: 1.5B (expected: " + size + ")"),
        Arguments.of(TestSchema.MAX_BODY, "2TiB", "httpd.limits.max-body-bytes: 2TiB (expected: 0B..1TiB)"),
        Arguments.of(TestSchema.ADDRESS, "256.1.1.1", "httpd.address: 256.1.1.1 (expected: " + host + ")"),
        Arguments.of(TestSchema.ADDRESS, "-bad.example", "httpd.address: -bad.example (expected: " + host + ")"),
        Arguments.of(TestSchema.ADDRESS, "a b", "httpd.address: a b (expected: " + host + ")"),
        Arguments.of(TestSchema.ADDRESS, "::g", "httpd.address: ::g (expected: " + host + ")"),
        Arguments.of(TestSchema.ADDRESS, "", "httpd.address: \"\" (expected: " + host + ")"),
        Arguments.of(TestSchema.ROOT, "", "httpd.root: \"\" (expected: a file system path)"),
        Arguments.of(TestSchema.ROOT, "a\0b", "httpd.root: a\0b (expected: a file system path)"),
        Arguments.of(TestSchema.MODE, "green", "httpd.execution-mode: green (expected: one of fiber, virtual, platform)"),
        Arguments.of(TestSchema.NAME, "", "httpd.server-name: \"\" (expected: non-empty)"),
        Arguments.of(TestSchema.INDEX, "", "httpd.index-files: \"\" (expected: non-empty)"),
        Arguments.of(TestSchema.WORKERS, "3", "httpd.workers: 3 (expected: an even number)"));
  }

  @ParameterizedTest(name = "{0} <- {1}")
  @MethodSource("bad")
  void load_badText_exactMessage(Setting<?> setting, String text, String message) {
    assertThatThrownBy(() -> load(setting, text)).isInstanceOf(ConfigException.class)
        .hasMessage(message + " from flag --x");
  }

  @Test
  void format_values_readBackTheSame() {
    assertThat(TestSchema.IDLE.format(Duration.ofSeconds(90))).isEqualTo("90s");
    assertThat(TestSchema.IDLE.format(Duration.ofMinutes(2))).isEqualTo("2m");
    assertThat(TestSchema.IDLE.format(Duration.ofMillis(1500))).isEqualTo("1500ms");
    assertThat(TestSchema.IDLE.format(Duration.ZERO)).isEqualTo("0s");
    assertThat(TestSchema.MAX_BODY.format(10L << 20)).isEqualTo("10MiB");
    assertThat(TestSchema.MAX_BODY.format(1000L)).isEqualTo("1000B");
    assertThat(TestSchema.MAX_BODY.format(0L)).isEqualTo("0B");
    assertThat(TestSchema.MODE.format(TestSchema.Mode.VIRTUAL)).isEqualTo("virtual");
    assertThat(TestSchema.INDEX.format(List.of("a", "b"))).isEqualTo("a,b");
    for (Duration d : List.of(Duration.ofNanos(1_000_007), Duration.ofMillis(1500), Duration.ofHours(25))) {
      assertThat(load(TestSchema.IDLE, TestSchema.IDLE.format(d))).isEqualTo(d);
    }
    for (long b : new long[] {1, 1000, 1536, 8192, 10L << 20, 1L << 40}) {
      assertThat(load(TestSchema.MAX_BODY, TestSchema.MAX_BODY.format(b))).isEqualTo(b);
    }
  }
}
