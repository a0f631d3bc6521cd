package io.krill.httpd.files;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.NullSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Header logic of the file handler that needs no socket: tags, codings, dates, types, builder checks. */
class HeadersTest {
  @ParameterizedTest
  @ValueSource(strings = {"gzip, deflate, br", "br;q=1.0, GZIP;q=0.5", "*"})
  void acceptsGzip_gzipOrAnyWithPositiveQValue_true(String acceptEncoding) {
    assertThat(FileHandler.acceptsGzip(acceptEncoding)).isTrue();
  }

  @ParameterizedTest
  @NullSource // no Accept-Encoding header
  @ValueSource(strings = {"gzip;q=0", "*;q=0.1, gzip;q=0", "identity", "gzip;q=x"})
  void acceptsGzip_refusedUnlistedOrMalformed_false(String acceptEncoding) {
    assertThat(FileHandler.acceptsGzip(acceptEncoding)).isFalse();
  }

  @Test
  void httpDates_imfFixdate() {
    assertThat(HttpDates.format(0)).isEqualTo("Thu, 01 Jan 1970 00:00:00 GMT");
    assertThat(HttpDates.format(1_700_000_000L)).isEqualTo("Tue, 14 Nov 2023 22:13:20 GMT");
  }

  @ParameterizedTest(name = "{0} -> {1}, compressible {2}")
  @CsvSource(delimiter = '|', value = {
    "index.HTML | text/html; charset=utf-8 | true",
    "app.js | text/javascript; charset=utf-8 | true",
    "style.css | text/css; charset=utf-8 | true",
    "icon.svg | image/svg+xml | true",
    "data.json | application/json | true",
    "logo.png | image/png | false",
    "README | application/octet-stream | false",
    "x.unknown | application/octet-stream | false",
  })
  void contentTypes_byExtensionAndCompressible(String fileName, String type, boolean compressible) {
    assertThat(ContentTypes.of(fileName)).isEqualTo(type);
    assertThat(ContentTypes.compressible(type)).isEqualTo(compressible);
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
