package io.krill.fibers;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;

/** Helpers shared by the CSP tests. */
final class CspTestSupport {
  private CspTestSupport() {}

  /** Starts a named fiber whose uncaught exceptions are left to joinFailure(). */
  static Fiber fiber(FiberScheduler s, String name, SuspendableRunnable body) {
    return Fiber.builder().scheduler(s).name(name).uncaughtExceptionHandler((t, e) -> {}).start(body);
  }

  /** @return how the (finished) fiber ended; blocks the calling thread until it has */
  static Throwable failureOf(Fiber f) {
    return Continuation.callOnThread(f::joinFailure);
  }

  static void join(Fiber f) {
    Continuation.runOnThread(f::join);
  }

  /**
   * Starts {@code fibers} fibers running {@code fiberBody} on a two-loop event-loop scheduler
   * and {@code threads} platform threads running {@code threadBody}; when the threads are done,
   * runs {@code whenThreadsDone}, joins the fibers and closes the scheduler.
   */
  static void threadsFeedingFibers(int fibers, SuspendableRunnable fiberBody, int threads, String threadName,
      SuspendableRunnable threadBody, Runnable whenThreadsDone) throws InterruptedException {
    try (FiberScheduler loops = FiberScheduler.eventLoop(2)) {
      List<Fiber> started = new ArrayList<>();
      for (int f = 0; f < fibers; f++) {
        started.add(fiber(loops, "fiber-" + f, fiberBody));
      }
      StrandThread.runAll(threads, threadName, threadBody);
      whenThreadsDone.run();
      started.forEach(CspTestSupport::join);
    }
  }

  /** Asserts the deterministic scheduler ran everything: no live fiber, no timer. */
  static void assertQuiescent(DeterministicScheduler s) {
    s.runUntilIdle();
    assertThat(s.liveFibers()).as("live fibers").isEmpty();
    assertThat(s.pendingTimers()).as("pending timers").isZero();
  }

  static Stream<String> kinds() {
    return Stream.of("eventLoop", "workStealing");
  }

  static FiberScheduler create(String kind) {
    return kind.equals("eventLoop") ? FiberScheduler.eventLoop(2) : FiberScheduler.workStealing(2);
  }

  /** A platform thread that runs suspendable code, and keeps its failure. */
  static final class StrandThread {
    final Thread thread;
    final AtomicReference<Throwable> failure = new AtomicReference<>();

    private StrandThread(Thread thread) {
      this.thread = thread;
    }

    static StrandThread start(String name, SuspendableRunnable body) {
      return start(name, body, false);
    }

    /** Starts on a virtual thread if {@code virtual} (JDK 21+), else a platform thread. */
    static StrandThread start(String name, SuspendableRunnable body, boolean virtual) {
      StrandThread[] self = new StrandThread[1];
      Runnable r = () -> {
        try {
          Continuation.runOnThread(body);
        } catch (Throwable e) {
          self[0].failure.set(e);
        }
      };
      Thread t = virtual ? unstartedVirtual(r) : new Thread(r, name);
      t.setName(name);
      self[0] = new StrandThread(t);
      t.start();
      return self[0];
    }

    /**
     * Starts {@code count} threads named {@code name-0}, {@code name-1}, ... that each run
     * {@code body}, then waits for all of them and asserts that none failed.
     */
    static void runAll(int count, String name, SuspendableRunnable body) throws InterruptedException {
      List<StrandThread> started = new ArrayList<>();
      for (int t = 0; t < count; t++) {
        started.add(start(name + "-" + t, body));
      }
      for (StrandThread t : started) {
        assertThat(t.join()).as(t.thread.getName() + " failed").isNull();
      }
    }

    Throwable join() throws InterruptedException {
      thread.join(20_000);
      assertThat(thread.isAlive()).as(thread.getName() + " finished").isFalse();
      return failure.get();
    }
  }

  /** @return true when this JDK has virtual threads */
  static boolean hasVirtualThreads() {
    try {
      Thread.class.getMethod("ofVirtual");
      return true;
    } catch (NoSuchMethodException e) {
      return false;
    }
  }

  private static Thread unstartedVirtual(Runnable r) {
    try {
      Method ofVirtual = Thread.class.getMethod("ofVirtual");
      Object builder = ofVirtual.invoke(null);
      Method unstarted = Class.forName("java.lang.Thread$Builder").getMethod("unstarted", Runnable.class);
      return (Thread) unstarted.invoke(builder, r);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("virtual threads need JDK 21+", e);
    }
  }
}
