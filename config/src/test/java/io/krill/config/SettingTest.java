package io.krill.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class SettingTest {
  @Test
  void ofInt_badKey_namesTheShape() {
    assertThatThrownBy(() -> Setting.ofInt("Port")).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("key: Port (expected: two or more dot-separated lower-case words, e.g. httpd.limits.max-body-bytes)");
    assertThatThrownBy(() -> Setting.ofInt("port")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Setting.ofInt("httpd..port")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Setting.ofInt("httpd.port-")).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void build_defaultFailsCheck_throwsNamingIt() {
    assertThatThrownBy(() -> Setting.ofInt("a.b").defaultValue(0).atLeast(1).doc("x").build())
        .isInstanceOf(IllegalArgumentException.class).hasMessage("a.b: default 0 (expected: >= 1)");
    assertThatThrownBy(() -> Setting.ofDuration("a.b").defaultValue(Duration.ofHours(2))
        .range(Duration.ofMillis(1), Duration.ofHours(1)).doc("x").build())
        .hasMessage("a.b: default 2h (expected: 1ms..1h)");
  }

  @Test
  void build_withoutDocOrDefault_throws() {
    assertThatThrownBy(() -> Setting.ofInt("a.b").defaultValue(1).build())
        .isInstanceOf(IllegalStateException.class).hasMessage("a.b: no doc (call doc(..))");
    assertThatThrownBy(() -> Setting.ofInt("a.b").doc("x").build())
        .isInstanceOf(IllegalStateException.class).hasMessage("a.b: no default (call defaultValue(..) or optional())");
  }

  @Test
  void range_unorderedTypeOrInverted_throws() {
    assertThatThrownBy(() -> Setting.ofBoolean("a.b").range(false, true))
        .isInstanceOf(IllegalStateException.class).hasMessage("a.b: range needs an ordered type, not boolean");
    assertThatThrownBy(() -> Setting.ofInt("a.b").range(5, 1))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("range: 5..1 (expected: min <= max)");
  }

  @Test
  void oneOf_value_checkedAndDescribed() {
    Setting<String> s = Setting.ofString("a.b").defaultValue("x").oneOf(java.util.List.of("x", "y")).doc("d").build();
    ConfigSchema schema = ConfigSchema.builder().add(s).build();
    assertThat(s.describeType()).isEqualTo("string, one of x, y");
    assertThatThrownBy(() -> schema.loader().environment(java.util.Map.of()).set("a.b=z").load())
        .hasMessage("a.b: z (expected: one of x, y) from flag --set");
  }

  @Test
  void equals_sameKey_equal() {
    Setting<Integer> a = Setting.ofInt("a.b").defaultValue(1).doc("x").build();
    Setting<Integer> b = Setting.ofInt("a.b").defaultValue(2).doc("y").build();
    assertThat(a).isEqualTo(b).hasSameHashCodeAs(b);
    assertThat(a.toString()).isEqualTo("a.b (int, default 1)");
  }

  @Test
  void schemaBuild_duplicateKeyOrEnvironmentClash_throws() {
    Setting<Integer> a = Setting.ofInt("a.b-c").defaultValue(1).doc("x").build();
    Setting<Integer> b = Setting.ofInt("a.b.c").defaultValue(1).doc("x").build();
    assertThatThrownBy(() -> ConfigSchema.builder().add(a, a).build())
        .hasMessage("setting: a.b-c (expected: each key once)");
    assertThatThrownBy(() -> ConfigSchema.builder().add(a, b).build())
        .hasMessage("setting: a.b.c (expected: an environment name different from a.b-c's KRILL_A_B_C)");
    assertThatThrownBy(() -> ConfigSchema.builder().envPrefix("krill"))
        .hasMessage("envPrefix: krill (expected: upper case ending with _, or empty)");
  }

  @Test
  void nearest_typos_suggestClosestOrSameLastSegment() {
    java.util.List<String> keys = java.util.List.of("httpd.port", "httpd.limits.max-body-bytes", "httpd.timeouts.idle");
    assertThat(Suggestions.nearest("httpd.prot", keys, '.')).isEqualTo("httpd.port");
    assertThat(Suggestions.nearest("httpd.max-body-bytes", keys, '.')).isEqualTo("httpd.limits.max-body-bytes");
    assertThat(Suggestions.nearest("httpd.colour", keys, '.')).isNull();
    assertThat(Suggestions.distance("kitten", "sitting")).isEqualTo(3);
    assertThat(Suggestions.distance("prot", "port")).isEqualTo(1);
    assertThat(Suggestions.nearest("httpd.zzz", java.util.List.of("httpd.gzip"), '.')).isNull();
  }
}
