package io.krill.httpd;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The parts of the condition evaluation that need no request: tag lists and dates. */
class PreconditionsTest {
  private static final String[] TAGS = {"\"a-b\"", "\"a-b-gz\""};

  @Test
  void matches_entityTagLists_weakUnlessStrong() {
    assertThat(Preconditions.matches("\"a-b\"", TAGS, false)).isTrue();
    assertThat(Preconditions.matches("\"x\", W/\"a-b-gz\"", TAGS, false)).isTrue();
    assertThat(Preconditions.matches("W/\"a-b\"", TAGS, true)).isFalse();
    assertThat(Preconditions.matches("*", TAGS, true)).isTrue();
    assertThat(Preconditions.matches("\"a-c\"", TAGS, false)).isFalse();
    assertThat(Preconditions.matches("a-b", TAGS, false)).isFalse();
    assertThat(Preconditions.matches("\"a-b\"", new String[0], false)).isFalse();
  }

  @Test
  void parseDate_imfFixdate_epochSecondsElseUnknown() {
    assertThat(Preconditions.parseDate("Tue, 14 Nov 2023 22:13:20 GMT")).isEqualTo(1_700_000_000L);
    assertThat(Preconditions.parseDate("yesterday")).isEqualTo(Preconditions.UNKNOWN_TIME);
    assertThat(Preconditions.parseDate(null)).isEqualTo(Preconditions.UNKNOWN_TIME);
  }
}
