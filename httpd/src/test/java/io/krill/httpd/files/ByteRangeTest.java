package io.krill.httpd.files;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class ByteRangeTest {
  @ParameterizedTest(name = "{0} of 100 -> {1}..{2}")
  @CsvSource(delimiter = '|', value = {
    "bytes=0-9|0|9", "bytes=10-|10|99", "bytes=-10|90|99", "bytes=0-999|0|99", "bytes=99-99|99|99",
    "bytes=-1000|0|99", "BYTES=5-6|5|6", "bytes= 5 - 6 |5|6", "bytes=0-99999999999999999999|0|99"})
  void parse_singleRange_clampedToSize(String header, long first, long last) {
    ByteRange r = ByteRange.parse(header, 100);
    assertThat(r.first).isEqualTo(first);
    assertThat(r.last).isEqualTo(last);
    assertThat(r.length()).isEqualTo(last - first + 1);
  }

  @ParameterizedTest
  @ValueSource(strings = {"bytes=100-", "bytes=100-200", "bytes=-0", "bytes=1000-"})
  void parse_startPastEnd_unsatisfiable(String header) {
    assertThat(ByteRange.parse(header, 100)).isSameAs(ByteRange.UNSATISFIABLE);
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "bytes", "bytes=", "bytes=-", "bytes=5-4", "bytes=a-b", "bytes=-5-6", "bytes=+1-2",
      "items=0-1", "bytes=0-1,5-6", "bytes=1--2"})
  void parse_malformedOrMultiple_whole(String header) {
    assertThat(ByteRange.parse(header, 100)).isSameAs(ByteRange.WHOLE);
  }

  @Test
  void parse_absentOrEmptyFile_wholeOrUnsatisfiable() {
    assertThat(ByteRange.parse(null, 100)).isSameAs(ByteRange.WHOLE);
    assertThat(ByteRange.parse("bytes=0-", 0)).isSameAs(ByteRange.UNSATISFIABLE);
    assertThat(ByteRange.parse("bytes=-5", 0)).isSameAs(ByteRange.UNSATISFIABLE);
  }
}
