package io.krill.fibers;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingStream;
import org.junit.jupiter.api.Test;

/** The runtime's JFR events, read back with a {@link RecordingStream}. */
class FiberEventsTest {
  private static final long HANG_SECONDS = 60;

  /** Collects the events of a stream and waits for one that matches. */
  private static final class Events implements AutoCloseable {
    final RecordingStream stream = new RecordingStream();
    final Map<String, List<RecordedEvent>> seen = new ConcurrentHashMap<>();

    Events enable(String name, Duration threshold) {
      stream.enable(name).withThreshold(threshold).withPeriod(Duration.ofMillis(100));
      stream.onEvent(name, e -> seen.computeIfAbsent(name, k -> new CopyOnWriteArrayList<>()).add(e));
      return this;
    }

    Events start() {
      stream.startAsync();
      return this;
    }

    RecordedEvent await(String name, Predicate<RecordedEvent> match) throws InterruptedException {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(HANG_SECONDS);
      while (System.nanoTime() < deadline) {
        for (RecordedEvent e : seen.getOrDefault(name, List.of())) {
          if (match.test(e)) {
            return e;
          }
        }
        Thread.sleep(20);
      }
      throw new AssertionError("no " + name + " event matched; seen: " + seen.getOrDefault(name, List.of()));
    }

    @Override
    public void close() {
      stream.close();
    }
  }

  @Test
  void fiberStartEndAndPark_recordedWithNameAndBlocker() throws Exception {
    try (Events events = new Events().enable("io.krill.FiberStart", Duration.ZERO)
        .enable("io.krill.FiberEnd", Duration.ZERO).enable("io.krill.FiberPark", Duration.ZERO).start();
        FiberScheduler s = FiberScheduler.eventLoop(1)) {
      Fiber f = Fiber.builder().scheduler(s).name("recorded").start(() -> Fiber.sleep(Duration.ofMillis(30)));
      Continuation.runOnThread(f::join);
      RecordedEvent start = events.await("io.krill.FiberStart", e -> "recorded".equals(e.getString("fiberName")));
      assertThat(start.getLong("fiberId")).isEqualTo(f.id());
      assertThat(start.getString("scheduler")).isEqualTo(s.name());
      RecordedEvent end = events.await("io.krill.FiberEnd", e -> "recorded".equals(e.getString("fiberName")));
      assertThat(end.getBoolean("failed")).isFalse();
      RecordedEvent park = events.await("io.krill.FiberPark", e -> "recorded".equals(e.getString("fiberName")));
      assertThat(park.getString("blocker")).isEqualTo("sleep");
      assertThat(park.getDuration()).isPositive();
    }
  }

  @Test
  void fiberStart_disabledByDefault() {
    assertThat(jdk.jfr.EventType.getEventType(FiberEvents.Start.class).isEnabled()).isFalse();
    assertThat(jdk.jfr.EventType.getEventType(FiberEvents.End.class).isEnabled()).isFalse();
  }

  @Test
  void carrierHeld_recordsFiberCarrierAndStack() throws Exception {
    try (Events events = new Events().enable("io.krill.CarrierHeld", Duration.ZERO).start();
        FiberScheduler s = FiberScheduler.workStealing(1)) {
      CountDownLatch reported = new CountDownLatch(1);
      s.watchdog(Duration.ofMillis(50), r -> reported.countDown());
      Fiber f = Fiber.builder().scheduler(s).name("hog").start(() -> {
        try {
          reported.await(HANG_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      });
      Continuation.runOnThread(f::join);
      RecordedEvent e = events.await("io.krill.CarrierHeld", x -> "hog".equals(x.getString("fiberName")));
      assertThat(e.getString("carrier")).isEqualTo(s.name() + "-1");
      assertThat(e.getString("carrierStack")).contains("java.util.concurrent.CountDownLatch.await(");
      assertThat(e.getLong("held")).isGreaterThanOrEqualTo(Duration.ofMillis(50).toNanos());
    }
  }

  @Test
  void blockingQueueWaitAndSchedulerStatistics_recorded() throws Exception {
    try (Events events = new Events().enable("io.krill.BlockingQueueWait", Duration.ZERO)
        .enable("io.krill.SchedulerStatistics", Duration.ZERO).start();
        FiberScheduler s = FiberScheduler.eventLoop(1)) {
      Fiber f = Fiber.builder().scheduler(s).name("caller").start(() -> {
        try {
          Blocking.call(() -> 42);
        } catch (Exception e) {
          throw new IllegalStateException(e);
        }
      });
      Continuation.runOnThread(f::join);
      RecordedEvent wait = events.await("io.krill.BlockingQueueWait", e -> "caller".equals(e.getString("fiberName")));
      assertThat(wait.getInt("queued")).isGreaterThanOrEqualTo(0);
      // A periodic event may have been taken while the fiber still ran: wait for one after its end.
      RecordedEvent stats = events.await("io.krill.SchedulerStatistics",
          e -> s.name().equals(e.getString("scheduler")) && e.getLong("slices") > 0 && e.getInt("live") == 0);
      assertThat(stats.getBoolean("tracking")).isTrue();
    }
  }
}
