package io.krill.fibers;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.util.concurrent.EventExecutor;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class ResumeHereTest {
  /** Waits until {@code f} parks; a fiber that never parks fails the test by its timeout. */
  private static void awaitParked(Fiber f) throws InterruptedException {
    while (!f.isParked()) {
      Thread.sleep(1);
    }
  }

  @Test
  void resumeHere_onHomeLoop_runsTheParkedFiberInsideTheCall() throws Exception {
    try (FiberScheduler s = FiberScheduler.eventLoop(1)) {
      EventExecutor loop = ((EventLoopScheduler) s).group().next();
      List<String> steps = new CopyOnWriteArrayList<>();
      Fiber f = Fiber.builder().scheduler(s).home(loop).start(() -> {
        Fiber.park("test");
        steps.add("resumed on loop " + loop.inEventLoop());
      });
      awaitParked(f);
      loop.submit(() -> {
        boolean ran = f.resumeHere();
        steps.add("resumeHere returned " + ran);
      }).get(10, TimeUnit.SECONDS);
      assertThat(steps).containsExactly("resumed on loop true", "resumeHere returned true");
      assertThat(f.isDone()).isTrue();
    }
  }

  @Test
  void resumeHere_offItsLoop_returnsFalseAndLeavesTheFiberParked() throws Exception {
    try (FiberScheduler s = FiberScheduler.eventLoop(1)) {
      EventExecutor loop = ((EventLoopScheduler) s).group().next();
      AtomicBoolean resumed = new AtomicBoolean();
      Fiber f = Fiber.builder().scheduler(s).home(loop).start(() -> {
        Fiber.park("test");
        resumed.set(true);
      });
      awaitParked(f);
      assertThat(f.resumeHere()).isFalse();
      assertThat(f.isParked()).isTrue();
      assertThat(resumed).isFalse();
      f.unpark();
      Continuation.runOnThread(f::join);
      assertThat(resumed).isTrue();
    }
  }

  @Test
  void resumeHere_insideAnotherFibersSlice_returnsFalse() throws Exception {
    try (FiberScheduler s = FiberScheduler.eventLoop(1)) {
      EventExecutor loop = ((EventLoopScheduler) s).group().next();
      Fiber parked = Fiber.builder().scheduler(s).home(loop).start(() -> Fiber.park("test"));
      awaitParked(parked);
      List<Boolean> results = new CopyOnWriteArrayList<>();
      Fiber other = Fiber.builder().scheduler(s).home(loop).start(() -> results.add(parked.resumeHere()));
      Continuation.runOnThread(other::join);
      assertThat(results).containsExactly(false);
      assertThat(parked.isParked()).isTrue();
      parked.unpark();
      Continuation.runOnThread(parked::join);
      assertThat(parked.isDone()).isTrue();
    }
  }

  @Test
  void resumeHere_workStealingScheduler_returnsFalse() throws Exception {
    try (FiberScheduler s = FiberScheduler.workStealing(1)) {
      Fiber f = Fiber.builder().scheduler(s).start(() -> Fiber.park("test"));
      awaitParked(f);
      assertThat(f.resumeHere()).isFalse();
      f.unpark();
      Continuation.runOnThread(f::join);
      assertThat(f.isDone()).isTrue();
    }
  }
}
