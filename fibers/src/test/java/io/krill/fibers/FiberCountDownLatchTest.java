package io.krill.fibers;

import static io.krill.fibers.CspTestSupport.assertQuiescent;
import static io.krill.fibers.CspTestSupport.fiber;
import static org.assertj.core.api.Assertions.assertThat;

import io.krill.fibers.CspTestSupport.StrandThread;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class FiberCountDownLatchTest extends CspTest {
  @Test
  void await_releasedByTheLastCountDown_waitersWakeInArrivalOrder() {
    FiberCountDownLatch latch = FiberCountDownLatch.create(2);
    for (String name : List.of("a", "b")) {
      fiber(s, name, () -> {
        latch.await();
        log.add(name);
      });
    }
    s.runUntilIdle();
    latch.countDown();
    s.runUntilIdle();
    assertThat(log).isEmpty();
    latch.countDown();
    latch.countDown();
    s.runUntilIdle();
    assertThat(log).containsExactly("a", "b");
    assertThat(latch.getCount()).isZero();
    assertQuiescent(s);
  }

  @Test
  void await_timeout_returnsFalseAtTheVirtualDeadline() {
    FiberCountDownLatch latch = FiberCountDownLatch.create(1);
    fiber(s, "waiter", () -> log.add(latch.await(Duration.ofMillis(7)) + "@" + s.nanoTime() / 1_000_000));
    s.run();
    assertThat(log).containsExactly("false@7");
    assertThat(latch.toString()).isEqualTo("FiberCountDownLatch[count 1]");
    assertQuiescent(s);
  }

  @Test
  void cancel_waiter_throws() {
    FiberCountDownLatch latch = FiberCountDownLatch.create(1);
    assertThat(cancelled(parked("waiter", latch::await))).isInstanceOf(FiberCancelledException.class);
    assertQuiescent(s);
  }

  @Test
  void offFiber_threadAwaitsFibers() throws Exception {
    try (FiberScheduler loops = FiberScheduler.eventLoop(2)) {
      FiberCountDownLatch latch = FiberCountDownLatch.create(50);
      for (int i = 0; i < 50; i++) {
        Fiber.builder().scheduler(loops).start(() -> {
          Fiber.yieldNow();
          latch.countDown();
        });
      }
      StrandThread t = StrandThread.start("awaiter", latch::await);
      assertThat(t.join()).isNull();
      assertThat(latch.getCount()).isZero();
    }
  }
}
