package io.krill.fibers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class ChecksTest {
  @Test
  void positive_zero_namesArgumentValueAndRule() {
    assertThatThrownBy(() -> Checks.positive("maxConnections", 0))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("maxConnections: 0 (expected: > 0)");
    assertThat(Checks.positive("n", 3L)).isEqualTo(3L);
  }

  @Test
  void inRange_outside_printsTheRange() {
    assertThatThrownBy(() -> Checks.inRange("port", 70000, 0, 65535)).hasMessage("port: 70000 (expected: 0..65535)");
    assertThatThrownBy(() -> Checks.port("port", -1)).hasMessage("port: -1 (expected: 0..65535)");
    assertThat(Checks.inRange("bytes", 5L, 1L, 9L)).isEqualTo(5L);
  }

  @Test
  void durations_printCompactly() {
    assertThatThrownBy(() -> Checks.inRange("latency", Duration.ofSeconds(61), Duration.ZERO, Duration.ofSeconds(60)))
        .hasMessage("latency: 61s (expected: 0s..60s)");
    assertThatThrownBy(() -> Checks.positive("idle", Duration.ZERO)).hasMessage("idle: 0s (expected: > 0)");
    assertThatThrownBy(() -> Checks.nonNegative("delay", Duration.ofMillis(-250))).hasMessage("delay: -250ms (expected: >= 0)");
    assertThat(Checks.format(Duration.ofNanos(1_500_000))).isEqualTo("1.5ms");
  }

  @Test
  void rates_outsideUnitInterval_rejected() {
    assertThatThrownBy(() -> Checks.rate("notFoundRate", 1.5)).hasMessage("notFoundRate: 1.5 (expected: 0..1)");
    assertThatThrownBy(() -> Checks.probability("p", 0)).hasMessage("p: 0.0 (expected: > 0 and < 1)");
    assertThat(Checks.rate("r", 0)).isZero();
  }

  @Test
  void bad_buildsTheSameFormat() {
    assertThat(Checks.bad("seeds", "[]", "at least one URL")).hasMessage("seeds: [] (expected: at least one URL)");
  }
}
