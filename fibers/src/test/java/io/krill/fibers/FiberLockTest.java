package io.krill.fibers;

import static io.krill.fibers.CspTestSupport.assertQuiescent;
import static io.krill.fibers.CspTestSupport.failureOf;
import static io.krill.fibers.CspTestSupport.fiber;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.krill.fibers.CspTestSupport.StrandThread;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class FiberLockTest extends CspTest {
  /** Starts a fiber "holder" that takes {@code lock}, sleeps {@code d} of virtual time holding it, and lets go. */
  private void holdFor(FiberLock lock, Duration d) {
    fiber(s, "holder", () -> {
      lock.lock();
      Fiber.sleep(d);
      lock.unlock();
    });
  }

  @Test
  void lock_contended_handedOverInArrivalOrder_holderMaySuspend() {
    FiberLock lock = new FiberLock("accounts");
    fiber(s, "holder", () -> {
      lock.lock();
      try {
        Fiber.sleep(Duration.ofMillis(5)); // suspends while holding the lock
        log.add("holder");
      } finally {
        lock.unlock();
      }
    });
    for (String name : List.of("a", "b", "c")) {
      fiber(s, name, () -> {
        lock.lock();
        try {
          log.add(name);
          Fiber.yieldNow();
        } finally {
          lock.unlock();
        }
      });
    }
    s.runUntilIdle();
    assertThat(s.dumpParked()).contains("waiting on accounts[held by Fiber[holder");
    s.run();
    assertThat(log).containsExactly("holder", "a", "b", "c");
    assertThat(lock.isLocked()).isFalse();
    assertQuiescent(s);
  }

  @Test
  void lock_reentrant_releasedAfterAsManyUnlocks() {
    FiberLock lock = new FiberLock();
    fiber(s, "owner", () -> {
      lock.lock();
      lock.lock();
      log.add("held " + lock.isHeldByCurrentStrand());
      lock.unlock();
      log.add("still " + lock.isLocked());
      lock.unlock();
      log.add("free " + !lock.isLocked());
    });
    s.runUntilIdle();
    assertThat(log).containsExactly("held true", "still true", "free true");
    assertQuiescent(s);
  }

  @Test
  void unlock_byNonOwner_throwsIllegalMonitorState() {
    FiberLock lock = new FiberLock("l");
    Fiber owner = fiber(s, "owner", () -> {
      lock.lock();
      Fiber.park("hold");
      lock.unlock();
    });
    s.runUntilIdle();
    assertThatThrownBy(lock::unlock).isInstanceOf(IllegalMonitorStateException.class).hasMessageContaining("not held by");
    assertThat(lock.tryLock()).isFalse();
    owner.unpark();
    s.runUntilIdle();
    assertThat(lock.isLocked()).isFalse();
    assertQuiescent(s);
  }

  @Test
  void tryLock_timeout_failsExactlyAtTheVirtualDeadline_thenLaterWaiterStillServed() {
    FiberLock lock = new FiberLock();
    holdFor(lock, Duration.ofMillis(20));
    fiber(s, "impatient", () -> log.add("impatient " + lock.tryLock(Duration.ofMillis(10)) + "@" + s.nanoTime() / 1_000_000));
    fiber(s, "patient", () -> {
      lock.lock();
      log.add("patient@" + s.nanoTime() / 1_000_000);
      lock.unlock();
    });
    s.run();
    assertThat(log).containsExactly("impatient false@10", "patient@20");
    assertQuiescent(s);
  }

  @Test
  void tryLock_freeLockAndZeroTimeout_succeedsWithoutWaiting() {
    FiberLock lock = new FiberLock();
    fiber(s, "f", () -> {
      log.add("" + lock.tryLock(Duration.ZERO));
      lock.unlock();
    });
    s.runUntilIdle();
    assertThat(log).containsExactly("true");
    assertQuiescent(s);
  }

  @Test
  void cancel_waitingFiber_throwsAndLeavesTheQueue() {
    FiberLock lock = new FiberLock();
    holdFor(lock, Duration.ofMillis(1));
    Fiber waiter = fiber(s, "waiter", lock::lock);
    s.runUntilIdle();
    waiter.cancel();
    s.run();
    assertThat(failureOf(waiter)).isInstanceOf(FiberCancelledException.class);
    assertThat(lock.isLocked()).as("not handed to the cancelled waiter").isFalse();
    assertQuiescent(s);
  }

  @Test
  void offFiber_threadAndFibersShareTheLock() throws Exception {
    try (FiberScheduler loop = FiberScheduler.eventLoop(1)) {
      FiberLock lock = new FiberLock();
      long[] counter = {0};
      List<Fiber> fibers = new ArrayList<>();
      for (int f = 0; f < 4; f++) {
        fibers.add(Fiber.builder().scheduler(loop).start(() -> {
          for (int i = 0; i < 500; i++) {
            lock.lock();
            try {
              long v = counter[0];
              Fiber.yieldNow();
              counter[0] = v + 1;
            } finally {
              lock.unlock();
            }
          }
        }));
      }
      StrandThread t = StrandThread.start("thread", () -> {
        for (int i = 0; i < 500; i++) {
          lock.lock();
          try {
            counter[0]++;
          } finally {
            lock.unlock();
          }
        }
      });
      fibers.forEach(CspTestSupport::join);
      assertThat(t.join()).isNull();
      Continuation.runOnThread(lock::lock); // publishes counter[0] to this thread
      assertThat(counter[0]).isEqualTo(2_500);
      lock.unlock();
    }
  }

  @Tag("stress")
  @ParameterizedTest
  @MethodSource("io.krill.fibers.CspTestSupport#kinds")
  void stress_fibersContendAcrossCarriers_exactCountAndWorkStealingMigrates(String kind) {
    boolean stealing = kind.equals("workStealing");
    long deadline = System.nanoTime() + 8_000_000_000L;
    AtomicLong migrations = new AtomicLong();
    try (FiberScheduler sched = CspTestSupport.create(kind)) {
      do {
        contend(sched, migrations); // migration is likely, not certain, in one batch
      } while (stealing && migrations.get() == 0 && System.nanoTime() < deadline);
    }
    if (stealing) {
      assertThat(migrations.get()).as("fibers resumed on another worker than they parked on").isPositive();
    } else {
      assertThat(migrations.get()).as("event-loop fibers stay on their home loop").isZero();
    }
  }

  private static void contend(FiberScheduler sched, AtomicLong migrations) {
    int fibers = 200;
    int rounds = 200;
    FiberLock lock = new FiberLock();
    long[] counter = {0};
    List<Fiber> all = new ArrayList<>();
    for (int f = 0; f < fibers; f++) {
      all.add(Fiber.builder().scheduler(sched).start(() -> {
        for (int i = 0; i < rounds; i++) {
          Thread before = Thread.currentThread();
          lock.lock();
          try {
            if (Thread.currentThread() != before) {
              migrations.incrementAndGet();
            }
            long v = counter[0];
            if (i % 8 == 0) {
              Fiber.yieldNow(); // suspend inside the critical section
            }
            counter[0] = v + 1;
          } finally {
            lock.unlock();
          }
        }
      }));
    }
    all.forEach(CspTestSupport::join);
    Continuation.runOnThread(lock::lock);
    assertThat(counter[0]).isEqualTo((long) fibers * rounds);
    lock.unlock();
  }
}
