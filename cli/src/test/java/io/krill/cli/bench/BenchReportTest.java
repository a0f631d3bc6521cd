package io.krill.cli.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** krill bench judges its goals from the median ratio of the fastest competitor a goal names. */
class BenchReportTest {
  private static BenchReport.Ratio ratio(String benchmark, String params, String competitor, double... perRound) {
    BenchReport.Ratio r = new BenchReport.Ratio(benchmark, params, competitor, "fiber");
    for (double v : perRound) {
      r.perRound().add(v);
    }
    return r;
  }

  @Test
  void goals_fastestNamedCompetitorDecides_medianAgainstTheFactor() {
    List<String[]> goals = BenchReport.goals(List.of(
        ratio("RingBenchmark.hops", "tokens=1", "virtualThreadSyncQueue", 6, 7, 8),
        ratio("RingBenchmark.hops", "tokens=1", "virtualThreadChannel", 2.5, 2.6, 9),
        ratio("RingBenchmark.hops", "tokens=1", "platformChannel", 1, 1, 1),
        ratio("SpawnJoinBenchmark.spawn", "", "virtualThread", 16, 17, 15)));
    assertThat(goals).hasSize(2);
    assertThat(goals.get(0)).containsExactly("ring of 256, 1 token, ns per hop, one carrier",
        "≥ 8× faster than virtualThreadSyncQueue or virtualThreadChannel",
        "2.60× (2.50×–9.00×) against virtualThreadChannel", "missed");
    assertThat(goals.get(1)[0]).isEqualTo("spawn + join, ns per child, one carrier");
    assertThat(goals.get(1)[2]).startsWith("16.00× (15.00×–17.00×)");
    assertThat(goals.get(1)[3]).isEqualTo("met");
  }

  @Test
  void goals_otherParameters_mustMatch() {
    assertThat(BenchReport.goals(List.of(ratio("RingBenchmark.hops", "tokens=2", "virtualThreadChannel", 9)))).isEmpty();
  }

  @Test
  void ratio_median_evenAndOddCounts() {
    assertThat(ratio("A.b", "", "x", 3, 1, 2).median()).isEqualTo(2);
    assertThat(ratio("A.b", "", "x", 4, 1, 2, 3).median()).isEqualTo(2.5);
  }
}
