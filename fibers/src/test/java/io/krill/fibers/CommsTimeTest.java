package io.krill.fibers;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * CommsTime, the classic occam/JCSP benchmark network, as a correctness test: prefix(0) feeds
 * delta, delta feeds succ and the consumer, succ feeds prefix; the consumer must see 0, 1, 2...
 * Each process ends when the consumer closes the channels.
 */
@Timeout(60)
class CommsTimeTest {
  static final int N = 10_000;

  static Stream<String> schedulers() {
    return Stream.of("deterministic", "eventLoop", "workStealing");
  }

  static List<Integer> commsTime(int n) throws Suspendable {
    Channel<Integer> a = Channel.create(0, "prefix->delta");
    Channel<Integer> b = Channel.create(0, "delta->succ");
    Channel<Integer> c = Channel.create(0, "succ->prefix");
    Channel<Integer> d = Channel.create(0, "delta->consumer");
    List<Integer> seen = new ArrayList<>();
    Par.run(
        () -> untilClosed(() -> {                              // prefix
          a.send(0);
          while (true) {
            a.send(c.receive());
          }
        }),
        () -> untilClosed(() -> {                              // delta
          while (true) {
            int x = a.receive();
            d.send(x);
            b.send(x);
          }
        }),
        () -> untilClosed(() -> {                              // succ
          while (true) {
            c.send(b.receive() + 1);
          }
        }),
        () -> {                                                // consumer
          for (int i = 0; i < n; i++) {
            seen.add(d.receive());
          }
          for (Channel<Integer> ch : List.of(a, b, c, d)) {
            ch.close();
          }
        });
    return seen;
  }

  private static void untilClosed(SuspendableRunnable process) throws Suspendable {
    try {
      process.run();
    } catch (ChannelClosedException e) {
      // the network is shutting down
    }
  }

  @ParameterizedTest
  @MethodSource("schedulers")
  void commsTime_consumerSeesTheNaturalNumbersInOrder(String kind) {
    List<Integer> expected = new ArrayList<>();
    for (int i = 0; i < N; i++) {
      expected.add(i);
    }
    List<List<Integer>> result = new ArrayList<>();
    if (kind.equals("deterministic")) {
      DeterministicScheduler s = FiberScheduler.deterministic();
      Fiber.builder().scheduler(s).name("commstime").start(() -> result.add(commsTime(N)));
      s.run();
      assertThat(s.liveFibers()).isEmpty();
      assertThat(s.pendingTimers()).isZero();
    } else {
      try (FiberScheduler s = CspTestSupport.create(kind)) {
        Fiber f = Fiber.builder().scheduler(s).name("commstime").start(() -> result.add(commsTime(N)));
        CspTestSupport.join(f);
        assertThat(CspTestSupport.failureOf(f)).isNull();
      }
    }
    assertThat(result).hasSize(1);
    assertThat(result.get(0)).isEqualTo(expected);
  }
}
