package io.krill.loadtest.fibers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.krill.loadtest.internal.VirtualThreads;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Runs each issue-3 benchmark once per competitor at its smallest size, outside JMH, and checks
 * what it computed. Not a measurement: no timing is asserted, only generous timeouts.
 */
@Timeout(120)
class BenchmarksSmokeTest {
  private static void assumeCompetitor(String competitor) {
    assumeTrue(!competitor.startsWith("virtual") || VirtualThreads.available(), VirtualThreads.SKIPPED);
  }

  @ParameterizedTest
  @ValueSource(strings = {"fiber", "virtualThreadSyncQueue", "virtualThreadChannel", "platformSyncQueue",
      "platformChannel"})
  void commsTime_twoBatches_consumerSeesConsecutiveNumbers(String competitor) {
    assumeCompetitor(competitor);
    CommsTimeBenchmark b = new CommsTimeBenchmark();
    b.competitor = competitor;
    b.setUp();
    try {
      b.cycles();
      b.cycles();
      assertThat(b.cyclesDone()).isEqualTo(2L * CommsTimeBenchmark.BATCH);
    } finally {
      b.tearDown();
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"fiber", "virtualThreadSyncQueue", "virtualThreadChannel", "platformSyncQueue",
      "platformChannel"})
  void ring_oneAndManyTokens_everyTokenMakesItsLaps(String competitor) {
    assumeCompetitor(competitor);
    for (int tokens : new int[] {1, 64}) {
      RingBenchmark b = new RingBenchmark();
      b.competitor = competitor;
      b.tokens = tokens;
      b.setUp();
      try {
        b.hops(); // lapAll checks the sum of the tokens that came back
      } finally {
        b.tearDown();
      }
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"fiber", "fiberUntracked", "virtualThread", "platform"})
  void spawnJoin_batch_runsEveryChild(String competitor) {
    assumeCompetitor(competitor);
    SpawnJoinBenchmark b = new SpawnJoinBenchmark();
    b.competitor = competitor;
    b.setUp();
    try {
      long before = SpawnJoinBenchmark.sink;
      b.spawnJoin();
      assertThat(SpawnJoinBenchmark.sink).isGreaterThan(before);
    } finally {
      b.tearDown();
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"fiber", "virtualThread", "platform"})
  void parkUnpark_oneAndTwoCarriers_handOversComplete(String competitor) {
    assumeCompetitor(competitor);
    ParkUnparkBenchmark one = new ParkUnparkBenchmark();
    one.competitor = competitor;
    one.setUp();
    try {
      one.handOvers();
    } finally {
      one.tearDown();
    }
    List<String> cross = new ArrayList<>(List.of(competitor));
    if (competitor.equals("fiber")) {
      cross.add("fiberSameLoop");
    }
    for (String c : cross) {
      CrossLoopUnparkBenchmark two = new CrossLoopUnparkBenchmark();
      two.competitor = c;
      two.setUp();
      try {
        two.handOvers();
      } finally {
        two.tearDown();
      }
    }
  }

  @Test
  void mandelbrot_everyCompetitor_matchesTheSequentialChecksum() throws Exception {
    int expected = Mandelbrot.checksum(64, 48, "sequential", 1);
    for (String c : Mandelbrot.COMPETITORS) {
      if (c.equals("virtualThread") && !VirtualThreads.available()) {
        continue;
      }
      assertThat(Mandelbrot.checksum(64, 48, c, 2)).as(c).isEqualTo(expected);
    }
  }
}
