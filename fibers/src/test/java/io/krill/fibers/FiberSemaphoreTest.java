package io.krill.fibers;

import static io.krill.fibers.CspTestSupport.assertQuiescent;
import static io.krill.fibers.CspTestSupport.fiber;
import static io.krill.fibers.CspTestSupport.threadsFeedingFibers;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

class FiberSemaphoreTest extends CspTest {
  @Test
  void acquire_fair_bigRequestAtHeadIsNotOvertaken() {
    FiberSemaphore sem = FiberSemaphore.create(1);
    fiber(s, "big", () -> {
      sem.acquire(3);
      log.add("big");
    });
    fiber(s, "small", () -> {
      sem.acquire(1);
      log.add("small");
    });
    s.runUntilIdle();
    assertThat(log).isEmpty();
    assertThat(sem.tryAcquire()).as("no barging past waiters").isFalse();
    sem.release(2);
    s.runUntilIdle();
    assertThat(log).containsExactly("big");
    sem.release();
    s.runUntilIdle();
    assertThat(log).containsExactly("big", "small");
    assertThat(sem.availablePermits()).isZero();
    assertQuiescent(s);
  }

  @Test
  void tryAcquire_timeoutOfHeadWaiter_letsTheNextOneThrough() {
    FiberSemaphore sem = FiberSemaphore.create(2);
    fiber(s, "big", () -> log.add("big " + sem.tryAcquire(5, Duration.ofMillis(10)) + "@" + s.nanoTime() / 1_000_000));
    fiber(s, "small", () -> {
      sem.acquire(2);
      log.add("small@" + s.nanoTime() / 1_000_000);
    });
    s.run();
    assertThat(log).containsExactly("big false@10", "small@10");
    assertQuiescent(s);
  }

  @Test
  void cancel_waitingFiber_takesNoPermit() {
    FiberSemaphore sem = FiberSemaphore.create(0);
    assertThat(cancelled(parked("waiter", sem::acquire))).isInstanceOf(FiberCancelledException.class);
    sem.release();
    assertThat(sem.availablePermits()).isEqualTo(1);
    assertQuiescent(s);
  }

  @Tag("stress")
  @Test
  void stress_manyThreadsReleasingToTheSameFibers_everyPermitConsumedOnce() throws Exception {
    int threads = 6;
    int perThread = 20_000;
    FiberSemaphore sem = FiberSemaphore.create(0);
    AtomicLong acquired = new AtomicLong();
    int consumers = 4;
    threadsFeedingFibers(consumers, () -> {
      for (int i = 0; i < threads * perThread / consumers; i++) {
        sem.acquire();
        acquired.incrementAndGet();
      }
    }, threads, "releaser", () -> {
      for (int i = 0; i < perThread; i++) {
        sem.release();
      }
    }, () -> {});
    assertThat(acquired.get()).isEqualTo((long) threads * perThread);
    assertThat(sem.availablePermits()).isZero();
  }
}
