package io.krill.benchmarks.fibers;

import io.krill.fibers.VirtualThreads;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Runs {@link DeepRingBenchmark} once per depth (the loop and the receive that deep) and per way
 * the frames above the loop call each other, outside JMH; the lap checks the tokens.
 */
@Timeout(120)
class DeepRingSmokeTest {
  @ParameterizedTest
  @ValueSource(ints = {1, 5, 20})
  void deepRing_everyDepth_tokenMakesItsLaps(int depth) {
    for (String competitor : new String[] {"fiber", "virtualThreadChannel"}) {
      if (competitor.startsWith("virtual") && !VirtualThreads.available()) {
        System.out.println(competitor + ": skipped: " + VirtualThreads.UNAVAILABLE);
        continue;
      }
      for (String aboveCall : new String[] {"static", "interface"}) {
        DeepRingBenchmark b = new DeepRingBenchmark();
        b.competitor = competitor;
        b.receiveDepth = depth;
        b.loopDepth = depth;
        b.aboveCall = aboveCall;
        b.setUp();
        try {
          b.hops(); // lapAll checks the sum of the tokens that came back
        } finally {
          b.tearDown();
        }
      }
    }
  }
}
