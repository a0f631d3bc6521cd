package io.krill.httpd.files;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Header logic of the file handler that needs no socket: tags, codings, dates, types, builder checks. */
class HeadersTest {
  @Test
  void matches_entityTagLists_weakUnlessStrong() {
    String id = "\"a-b\"";
    String gz = "\"a-b-gz\"";
    assertThat(FileHandler.matches("\"a-b\"", id, gz, false)).isTrue();
    assertThat(FileHandler.matches("\"x\", W/\"a-b-gz\"", id, gz, false)).isTrue();
    assertThat(FileHandler.matches("W/\"a-b\"", id, gz, true)).isFalse();
    assertThat(FileHandler.matches("*", id, gz, true)).isTrue();
    assertThat(FileHandler.matches("\"a-c\"", id, gz, false)).isFalse();
    assertThat(FileHandler.matches("a-b", id, gz, false)).isFalse();
  }

  @Test
  void acceptsGzip_codingsAndQValues() {
    assertThat(FileHandler.acceptsGzip("gzip, deflate, br")).isTrue();
    assertThat(FileHandler.acceptsGzip("br;q=1.0, GZIP;q=0.5")).isTrue();
    assertThat(FileHandler.acceptsGzip("gzip;q=0")).isFalse();
    assertThat(FileHandler.acceptsGzip("*")).isTrue();
    assertThat(FileHandler.acceptsGzip("*;q=0.1, gzip;q=0")).isFalse();
    assertThat(FileHandler.acceptsGzip("identity")).isFalse();
    assertThat(FileHandler.acceptsGzip("gzip;q=x")).isFalse();
    assertThat(FileHandler.acceptsGzip(null)).isFalse();
  }

  @Test
  void httpDates_imfFixdateRoundTrip() {
    assertThat(HttpDates.format(0)).isEqualTo("Thu, 01 Jan 1970 00:00:00 GMT");
    assertThat(HttpDates.format(1_700_000_000L)).isEqualTo("Tue, 14 Nov 2023 22:13:20 GMT");
    assertThat(HttpDates.parse("Tue, 14 Nov 2023 22:13:20 GMT")).isEqualTo(1_700_000_000L);
    assertThat(HttpDates.parse("yesterday")).isEqualTo(Long.MIN_VALUE);
    assertThat(HttpDates.parse(null)).isEqualTo(Long.MIN_VALUE);
  }

  @Test
  void contentTypes_byExtensionAndCompressible() {
    assertThat(ContentTypes.of("index.HTML")).isEqualTo("text/html; charset=utf-8");
    assertThat(ContentTypes.of("app.js")).isEqualTo("text/javascript; charset=utf-8");
    assertThat(ContentTypes.of("logo.png")).isEqualTo("image/png");
    assertThat(ContentTypes.of("README")).isEqualTo("application/octet-stream");
    assertThat(ContentTypes.of("x.unknown")).isEqualTo("application/octet-stream");
    assertThat(ContentTypes.compressible("text/css; charset=utf-8")).isTrue();
    assertThat(ContentTypes.compressible("image/svg+xml")).isTrue();
    assertThat(ContentTypes.compressible("application/json")).isTrue();
    assertThat(ContentTypes.compressible("image/png")).isFalse();
  }

  @Test
  void builder_badArguments_namedInMessage(@TempDir Path dir) {
    assertThatThrownBy(() -> StaticFiles.handler(dir.resolve("absent")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("root: " + dir.resolve("absent") + " (expected: an existing directory)");
    assertThatThrownBy(() -> StaticFiles.builder(dir).indexFile("../x"))
        .hasMessage("indexFile: ../x (expected: a file name without separators)");
    assertThatThrownBy(() -> StaticFiles.builder(dir).mountPrefix("static/"))
        .hasMessage("mountPrefix: static/ (expected: / or /a/b without a trailing /)");
    assertThatThrownBy(() -> StaticFiles.builder(dir).gzipMinBytes(-1))
        .hasMessage("gzipMinBytes: -1 (expected: >= 0)");
    assertThat(StaticFiles.handler(dir).toString()).startsWith("StaticFiles[");
  }
}
