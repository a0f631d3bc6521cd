package io.krill.fibers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class BlockingTest {
  @Test
  void call_onFiber_runsOnPoolThreadAndCarrierStaysFree() {
    try (FiberScheduler s = FiberScheduler.eventLoop(1)) {
      AtomicReference<String> poolThread = new AtomicReference<>();
      AtomicBoolean otherRan = new AtomicBoolean();
      CountDownLatch release = new CountDownLatch(1);
      Fiber caller = Fiber.builder().scheduler(s).start(() -> {
        String r;
        try {
          r = Blocking.call(() -> {
            poolThread.set(Thread.currentThread().getName());
            release.await(10, TimeUnit.SECONDS);
            return "done";
          });
        } catch (Exception e) {
          throw new AssertionError(e);
        }
        assertThat(r).isEqualTo("done");
      });
      Fiber other = Fiber.builder().scheduler(s).start(() -> otherRan.set(true));
      Continuation.runOnThread(other::join);
      assertThat(otherRan).isTrue();
      release.countDown();
      assertThat(Continuation.callOnThread(caller::joinFailure)).isNull();
      assertThat(poolThread.get()).startsWith("krill-blocking-");
    }
  }

  @Test
  void call_taskThrows_exceptionReachesFiberUnchanged() {
    try (FiberScheduler s = FiberScheduler.eventLoop(1)) {
      IOException original = new IOException("disk on fire");
      AtomicReference<Throwable> caught = new AtomicReference<>();
      Fiber f = Fiber.builder().scheduler(s).start(() -> {
        try {
          Blocking.call(() -> {
            throw original;
          });
        } catch (Exception e) {
          caught.set(e);
        }
      });
      Continuation.runOnThread(f::join);
      assertThat(caught.get()).isSameAs(original);
    }
  }

  @Test
  void call_timeout_interruptsPoolThreadAndThrows() throws Exception {
    try (FiberScheduler s = FiberScheduler.eventLoop(1)) {
      CountDownLatch interrupted = new CountDownLatch(1);
      AtomicReference<Throwable> caught = new AtomicReference<>();
      Fiber f = Fiber.builder().scheduler(s).start(() -> {
        try {
          Blocking.call(() -> {
            try {
              Thread.sleep(10_000);
            } catch (InterruptedException e) {
              interrupted.countDown();
            }
            return null;
          }, Duration.ofMillis(50));
        } catch (Exception e) {
          caught.set(e);
        }
      });
      Continuation.runOnThread(f::join);
      assertThat(caught.get()).isInstanceOf(TimeoutException.class).hasMessageContaining("PT0.05S");
      assertThat(interrupted.await(5, TimeUnit.SECONDS)).isTrue();
    }
  }

  @Test
  void call_fiberCancelled_interruptsPoolThread() throws Exception {
    try (FiberScheduler s = FiberScheduler.eventLoop(1)) {
      CountDownLatch started = new CountDownLatch(1);
      CountDownLatch interrupted = new CountDownLatch(1);
      Fiber f = Fiber.builder().scheduler(s).start(() -> {
        try {
          Blocking.call(() -> {
            started.countDown();
            try {
              Thread.sleep(10_000);
            } catch (InterruptedException e) {
              interrupted.countDown();
            }
            return null;
          });
        } catch (FiberCancelledException e) {
          throw e;
        } catch (Exception e) {
          throw new AssertionError(e);
        }
      });
      assertThat(started.await(5, TimeUnit.SECONDS)).isTrue();
      f.cancel();
      assertThat(Continuation.callOnThread(f::joinFailure)).isInstanceOf(FiberCancelledException.class);
      assertThat(interrupted.await(5, TimeUnit.SECONDS)).isTrue();
    }
  }

  @Test
  void call_offFiber_runsOnCallingThread() throws Exception {
    String caller = Thread.currentThread().getName();
    List<String> ran = new ArrayList<>();
    Continuation.callOnThread(() -> Blocking.call(() -> ran.add(Thread.currentThread().getName())));
    assertThat(ran).containsExactly(caller);
  }

  @Test
  void runMain_deadlock_endsWithReportInsteadOfHang() {
    try (FiberScheduler s = FiberScheduler.eventLoop(1)) {
      assertThatThrownBy(() -> Fibers.runMain(s, true, () -> {
        Fiber other = Fiber.builder().name("other").start(() -> Fiber.park("main to finish"));
        other.join();
      })).isInstanceOf(DeadlockException.class)
          .hasMessageContaining("System is deadlocked")
          .hasMessageContaining("\"main\"")
          .hasMessageContaining("\"other\"")
          .hasMessageContaining("waiting on main to finish");
      for (Fiber f : s.liveFibers()) {
        f.cancel();
      }
    }
  }

  @Test
  void runMain_bodyThrows_rethrownToCaller() {
    try (FiberScheduler s = FiberScheduler.eventLoop(1)) {
      assertThatThrownBy(() -> Fibers.runMain(s, false, () -> {
        Fiber.yieldNow();
        throw new IllegalArgumentException("bad main");
      })).isInstanceOf(IllegalArgumentException.class).hasMessage("bad main");
    }
  }
}
