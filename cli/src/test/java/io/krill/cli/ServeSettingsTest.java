package io.krill.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.krill.config.Setting;
import io.krill.httpd.HttpServer;
import io.krill.httpd.http2.Http2Options;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.Locale;
import org.junit.jupiter.api.Test;

class ServeSettingsTest {
  /** Every DEFAULT_* of the server builder has a setting with the same default: a new builder limit cannot be forgotten. */
  @Test
  void schema_everyServerBuilderDefault_hasASettingWithThatDefault() throws IllegalAccessException {
    int checked = 0;
    for (Field f : HttpServer.Builder.class.getFields()) {
      if (!Modifier.isStatic(f.getModifiers()) || !f.getName().startsWith("DEFAULT_")) {
        continue;
      }
      String name = f.getName().substring("DEFAULT_".length()).toLowerCase(Locale.ROOT).replace('_', '-');
      String suffix = name.endsWith("-timeout") ? "timeouts." + name.substring(0, name.length() - "-timeout".length())
          : name.equals("shutdown-grace") ? "timeouts.shutdown-grace" : name;
      Setting<?> setting = ServeSettings.SCHEMA.settings().stream()
          .filter(s -> s.key().endsWith("." + suffix) || s.key().endsWith("-" + suffix))
          .findFirst().orElse(null);
      assertThat(setting).as("a setting for HttpServer.Builder.%s", f.getName()).isNotNull();
      // The one default serve changes: an idle serve gives memory back, an embedded server only when asked.
      Object expected = f.getName().equals("DEFAULT_IDLE_COLLECTION") ? ServeSettings.DEFAULT_IDLE_COLLECTION : f.get(null);
      Object actual = setting.defaultValue().orElseThrow();
      if (expected instanceof Number) {
        assertThat(((Number) actual).longValue()).as(setting.key()).isEqualTo(((Number) expected).longValue());
      } else {
        assertThat(actual).as(setting.key()).isEqualTo(expected);
      }
      checked++;
    }
    assertThat(checked).isGreaterThanOrEqualTo(13);
  }

  /** Every DEFAULT_* of the HTTP/2 options has an httpd.http2 setting with the same default. */
  @Test
  void schema_everyHttp2Default_hasAnHttp2SettingWithThatDefault() throws IllegalAccessException {
    int checked = 0;
    for (Field f : Http2Options.class.getFields()) {
      if (!Modifier.isStatic(f.getModifiers()) || !f.getName().startsWith("DEFAULT_")) {
        continue;
      }
      String key = "httpd.http2." + f.getName().substring("DEFAULT_".length()).toLowerCase(Locale.ROOT).replace('_', '-');
      Setting<?> setting = ServeSettings.SCHEMA.settings().stream().filter(s -> s.key().equals(key))
          .findFirst().orElse(null);
      assertThat(setting).as("a setting %s for Http2Options.%s", key, f.getName()).isNotNull();
      Object expected = f.get(null);
      Object actual = setting.defaultValue().orElseThrow();
      if (expected instanceof Number) {
        assertThat(((Number) actual).longValue()).as(key).isEqualTo(((Number) expected).longValue());
      } else {
        assertThat(actual).as(key).isEqualTo(expected);
      }
      checked++;
    }
    assertThat(checked).isEqualTo(9);
  }
}
