package io.krill.httpd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.util.AsciiString;
import org.junit.jupiter.api.Test;

/** The response header map's value checks and the server's own cached values. */
class CompactHeadersTest {
  @Test
  void responses_serverDateAccepted_handlerValuesStillChecked() {
    HttpHeaders h = CompactHeaders.RESPONSES.newHeaders();
    AsciiString date = Dates.now();
    h.add(HttpHeaderNames.DATE, date);
    assertThat(h.get(HttpHeaderNames.DATE)).isEqualTo(date.toString());
    assertThatThrownBy(() -> h.set("x-a", "one\r\nx-injected: two"))
        .isInstanceOf(IllegalArgumentException.class);
    // The Date's text in another object is a handler's value: checked like any other.
    AsciiString bad = AsciiString.of(date + "\r\nx-injected: two");
    assertThatThrownBy(() -> h.set(HttpHeaderNames.DATE, bad)).isInstanceOf(IllegalArgumentException.class);
    assertThat((Object) Dates.cachedValue()).isSameAs(date);
  }

  @Test
  void contentLengths_decimal_smallOnesCached() {
    assertThat(ContentLengths.of(0).toString()).isEqualTo("0");
    assertThat(ContentLengths.of(13).toString()).isEqualTo("13");
    assertThat((Object) ContentLengths.of(13)).isSameAs(ContentLengths.of(13));
    assertThat(ContentLengths.of(ContentLengths.CACHED - 1).toString()).isEqualTo(String.valueOf(ContentLengths.CACHED - 1));
    assertThat(ContentLengths.of(ContentLengths.CACHED).toString()).isEqualTo(String.valueOf(ContentLengths.CACHED));
    assertThat(ContentLengths.of(5_000_000_000L).toString()).isEqualTo("5000000000");
    assertThatThrownBy(() -> ContentLengths.of(-1)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("length");
  }
}
