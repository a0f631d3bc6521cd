package io.krill.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class HelpRendererTest {
  @Test
  void helpText_everySetting_oneAlignedRowWithDefault() {
    String help = TestSchema.SCHEMA.helpText();
    List<String> lines = help.lines().toList();
    assertThat(lines).hasSize(TestSchema.SCHEMA.settings().size() + 2);
    assertThat(lines.get(0)).startsWith("  SETTING ").contains("TYPE").contains("DEFAULT").endsWith("DESCRIPTION");
    int typeColumn = lines.get(0).indexOf("TYPE");
    int defaultColumn = lines.get(0).indexOf("DEFAULT");
    int docColumn = lines.get(0).indexOf("DESCRIPTION");
    for (int i = 0; i < TestSchema.SCHEMA.settings().size(); i++) {
      Setting<?> s = TestSchema.SCHEMA.settings().get(i);
      String line = lines.get(i + 1);
      assertThat(line.substring(2)).startsWith(s.key() + " ");
      assertThat(line.substring(typeColumn)).startsWith(s.describeType());
      assertThat(line.substring(defaultColumn)).startsWith(s.describeDefault() + " ");
      assertThat(line.substring(docColumn)).isEqualTo(s.doc());
    }
    assertThat(help).contains("  httpd.port ")
        .contains("int, 0..65535")
        .contains("fiber|virtual|platform")
        .contains("bytes, 0B..1TiB")
        .contains("duration, >= 1ms")
        .contains(" 1m ")
        .contains(" 10MiB ")
        .contains(" (none) ");
    assertThat(lines.get(lines.size() - 1))
        .isEqualTo("Environment: KRILL_<SETTING> in upper case with . and - as _ (httpd.port is KRILL_HTTPD_PORT).");
  }

  @Test
  void markdownTable_everySetting_rowWithEnvironmentAndDefault() {
    String md = TestSchema.SCHEMA.markdownTable();
    List<String> lines = md.lines().toList();
    assertThat(lines.get(0)).isEqualTo("| Setting | Environment | Type | Default | Description |");
    assertThat(lines.get(1)).isEqualTo("|---|---|---|---|---|");
    assertThat(lines).hasSize(TestSchema.SCHEMA.settings().size() + 2);
    assertThat(lines).contains(
        "| `httpd.port` | `KRILL_HTTPD_PORT` | int, 0..65535 | `8080` | TCP port; 0 picks a free one |",
        "| `httpd.execution-mode` | `KRILL_HTTPD_EXECUTION_MODE` | fiber\\|virtual\\|platform | `fiber` | What runs a connection |",
        "| `httpd.tls.cert-file` | `KRILL_HTTPD_TLS_CERT_FILE` | path | `(none)` | PEM certificate chain |");
  }
}
