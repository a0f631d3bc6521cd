package io.krill.crawler.frontier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class SeenSetTest {
  @Test
  void add_underBudget_staysExact() {
    SeenSet s = new SeenSet(1 << 20, 1000, 0.01);
    assertThat(s.add("http://a.test/1")).isTrue();
    assertThat(s.add("http://a.test/1")).isFalse();
    assertThat(s.isBloom()).isFalse();
    assertThat(s.falsePositiveRate()).isZero();
  }

  @Test
  void add_pastBudget_switchesToBloomAndKeepsEveryUrlSeen() {
    SeenSet s = new SeenSet(100_000, 50_000, 0.01);
    int n = 20_000;
    for (int i = 0; i < n; i++) {
      s.add("http://a.test/page/" + i);
    }
    assertThat(s.isBloom()).isTrue();
    assertThat(s.falsePositiveRate()).isEqualTo(0.01);
    for (int i = 0; i < n; i++) {
      assertThat(s.contains("http://a.test/page/" + i)).isTrue();
      assertThat(s.add("http://a.test/page/" + i)).isFalse();
    }
    assertThat(s.describe()).startsWith("bloom");
  }

  @Test
  void bloom_falsePositives_nearTheStatedRate() {
    SeenSet s = new SeenSet(1, 10_000, 0.01);
    for (int i = 0; i < 10_000; i++) {
      s.add("http://a.test/in/" + i);
    }
    int fp = 0;
    int probes = 100_000;
    for (int i = 0; i < probes; i++) {
      if (s.contains("http://b.test/out/" + i)) {
        fp++;
      }
    }
    // at the design size the rate is 1%; allow for variance but catch a broken hash (which gives far more)
    assertThat(fp / (double) probes).isLessThan(0.02);
  }

  @Test
  void constructor_badRate_namesTheField() {
    assertThatThrownBy(() -> new SeenSet(1, 1, 1.5)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("bloomFpp: 1.5 (expected: > 0 and < 1)");
  }
}
