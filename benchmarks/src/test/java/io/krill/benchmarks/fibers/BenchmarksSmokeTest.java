package io.krill.benchmarks.fibers;

import static org.assertj.core.api.Assertions.assertThat;

import io.krill.fibers.VirtualThreads;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Runs each fiber benchmark once per competitor at its smallest size, outside JMH, and checks
 * what it computed. Not a measurement: no timing is asserted, only generous timeouts.
 */
@Timeout(120)
class BenchmarksSmokeTest {
  /* Virtual-thread competitors need JDK 21+: on older JDKs they are left out of the matrix (with a printed line), not skipped. */
  private static Stream<String> available(String... competitors) {
    return Stream.of(competitors).filter(c -> {
      boolean ok = !c.startsWith("virtual") || VirtualThreads.available();
      if (!ok) {
        System.out.println(c + ": skipped: " + VirtualThreads.UNAVAILABLE);
      }
      return ok;
    });
  }

  /* One JMH trial by hand: the set-up, the benchmark body, and the tear-down even when the body fails. */
  private static void trial(Runnable setUp, Runnable body, Runnable tearDown) {
    setUp.run();
    try {
      body.run();
    } finally {
      tearDown.run();
    }
  }

  static Stream<String> channelCompetitors() {
    return available("fiber", "virtualThreadSyncQueue", "virtualThreadChannel", "platformSyncQueue", "platformChannel");
  }

  static Stream<String> spawnCompetitors() {
    return available("fiber", "fiberTracked", "virtualThread", "platform");
  }

  static Stream<String> parkCompetitors() {
    return available("fiber", "virtualThread", "platform");
  }

  @ParameterizedTest
  @MethodSource("channelCompetitors")
  void commsTime_twoBatches_consumerSeesConsecutiveNumbers(String competitor) {
    CommsTimeBenchmark b = new CommsTimeBenchmark();
    b.competitor = competitor;
    trial(b::setUp, () -> {
      b.cycles();
      b.cycles();
      assertThat(b.cyclesDone()).isEqualTo(2L * CommsTimeBenchmark.BATCH);
    }, b::tearDown);
  }

  @ParameterizedTest
  @MethodSource("channelCompetitors")
  void ring_oneAndManyTokens_everyTokenMakesItsLaps(String competitor) {
    for (int tokens : new int[] {1, 64}) {
      RingBenchmark b = new RingBenchmark();
      b.competitor = competitor;
      b.tokens = tokens;
      trial(b::setUp, b::hops, b::tearDown); // lapAll checks the sum of the tokens that came back
    }
  }

  @ParameterizedTest
  @MethodSource("spawnCompetitors")
  void spawnJoin_batch_runsEveryChild(String competitor) {
    SpawnJoinBenchmark b = new SpawnJoinBenchmark();
    b.competitor = competitor;
    trial(b::setUp, () -> {
      long before = SpawnJoinBenchmark.sink;
      b.spawnJoin();
      assertThat(SpawnJoinBenchmark.sink).isGreaterThan(before);
    }, b::tearDown);
  }

  @ParameterizedTest
  @MethodSource("parkCompetitors")
  void parkUnpark_oneAndTwoCarriers_handOversComplete(String competitor) {
    ParkUnparkBenchmark one = new ParkUnparkBenchmark();
    one.competitor = competitor;
    trial(one::setUp, one::handOvers, one::tearDown);
    List<String> cross = new ArrayList<>(List.of(competitor));
    if (competitor.equals("fiber")) {
      cross.add("fiberSameLoop");
    }
    for (String c : cross) {
      CrossLoopUnparkBenchmark two = new CrossLoopUnparkBenchmark();
      two.competitor = c;
      trial(two::setUp, two::handOvers, two::tearDown);
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
