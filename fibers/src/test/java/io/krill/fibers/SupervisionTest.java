package io.krill.fibers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.krill.fibers.spi.Carriers;
import io.krill.fibers.userland.PoolScheduler;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiFunction;
import java.util.stream.Stream;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The watchdog, the deadlock report and the fiber dump on every kind of threaded scheduler. */
class SupervisionTest {
  private static final long HANG_SECONDS = 60;

  /* Scheduler kinds: (carriers, tracking) -> scheduler. */
  static Stream<Arguments> kinds() {
    BiFunction<Integer, Boolean, FiberScheduler> loop = (n, t) -> Carriers.eventLoop(n, t);
    BiFunction<Integer, Boolean, FiberScheduler> steal = (n, t) -> new WorkStealingScheduler(n, t);
    BiFunction<Integer, Boolean, FiberScheduler> user = (n, t) -> new PoolScheduler(n, t);
    return Stream.of(Arguments.of("event loop", loop), Arguments.of("work stealing", steal),
        Arguments.of("user-built", user));
  }

  /* The fiber holds its carrier until the watchdog has reported it, then sleeps four thresholds more. */
  @ParameterizedTest(name = "{0}")
  @MethodSource("kinds")
  void watchdog_fiberBlockingItsCarrier_reportsFiberCarrierAndStack(String kind,
      BiFunction<Integer, Boolean, FiberScheduler> factory) throws Exception {
    try (FiberScheduler s = factory.apply(2, true)) {
      List<String> reports = new CopyOnWriteArrayList<>();
      CountDownLatch reported = new CountDownLatch(1);
      s.watchdog(Duration.ofMillis(50), r -> {
        reports.add(r);
        reported.countDown();
      });
      AtomicReference<String> carrier = new AtomicReference<>();
      Fiber f = Fiber.builder().scheduler(s).name("sleepy").start(() -> {
        carrier.set(Thread.currentThread().getName());
        try {
          if (reported.await(HANG_SECONDS, TimeUnit.SECONDS)) {
            Thread.sleep(200);
          }
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      });
      Continuation.runOnThread(f::join);
      assertThat(reports).hasSize(1);
      assertThat(reports.get(0)).contains("fiber \"sleepy\" has held carrier " + carrier.get() + " for ")
          .contains("java.util.concurrent.CountDownLatch.await(")
          .contains("io.krill.fibers.SupervisionTest.lambda$");
    }
  }

  /* Tracking is off for the scheduler (the surefire command line turns it on for the defaults only). */
  @ParameterizedTest(name = "{0}")
  @MethodSource("kinds")
  void runMain_deadlockWithoutTracking_namesBothFibersAndBothChannels(String kind,
      BiFunction<Integer, Boolean, FiberScheduler> factory) {
    try (FiberScheduler s = factory.apply(2, false)) {
      assertThat(s.tracking).isFalse();
      Channel<String> left = Channel.create(0, "left");
      Channel<String> right = Channel.create(0, "right");
      assertThatThrownBy(() -> Fibers.runMain(s, true, () -> {
        Fiber.builder().name("other").start(() -> {
          left.receive();
          right.send("from other");
        });
        right.receive();
        left.send("from main");
      })).isInstanceOf(DeadlockException.class)
          .hasMessageStartingWith("System is deadlocked: all 2 fibers of " + s.name())
          .hasMessageContaining("\"main\"")
          .hasMessageContaining("\"other\"")
          .hasMessageContaining("waiting on Channel[left, capacity 0]")
          .hasMessageContaining("waiting on Channel[right, capacity 0]");
      cancelAll(s);
    }
  }

  /* Parked on a timer and on the blocking pool for longer than two detector periods: no false report. */
  @ParameterizedTest(name = "{0}")
  @MethodSource("kinds")
  void runMain_timersAndBlockingCallsWithoutTracking_noFalseDeadlock(String kind,
      BiFunction<Integer, Boolean, FiberScheduler> factory) throws Exception {
    try (FiberScheduler s = factory.apply(2, false)) {
      long period = Fibers.DEADLOCK_CHECK_PERIOD.toMillis();
      List<String> done = new CopyOnWriteArrayList<>();
      Fibers.runMain(s, true, () -> {
        Fiber sleeper = Fiber.builder().name("sleeper").start(() -> {
          Fiber.sleep(Duration.ofMillis(3 * period));
          done.add("slept");
        });
        try {
          Blocking.call(() -> {
            Thread.sleep(3 * period);
            return null;
          });
        } catch (Exception e) {
          throw new IllegalStateException(e);
        }
        done.add("blocked");
        sleeper.join();
      });
      assertThat(done).containsExactlyInAnyOrder("slept", "blocked");
      assertThat(s.timers.sum()).isZero();
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("kinds")
  void dump_parkedFiber_inTextJsonAndMBean(String kind, BiFunction<Integer, Boolean, FiberScheduler> factory)
      throws Exception {
    try (FiberScheduler s = factory.apply(2, true)) {
      Channel<String> ch = Channel.create(0, "dumped \"quoted\"");
      int line = new Throwable().getStackTrace()[0].getLineNumber(); Fiber f = Fiber.builder().scheduler(s).name("dumped").start(() -> ch.receive());
      awaitParked(f);
      assertThat(Fibers.dumpAll()).contains(s.name() + ":").contains("\"dumped\" #" + f.id() + " parked")
          .contains("waiting on Channel[dumped \"quoted\", capacity 0]")
          .contains("at io.krill.fibers.SupervisionTest.lambda$")
          .containsPattern("at io\\.krill\\.fibers\\.SupervisionTest\\.lambda\\$\\S+\\(SupervisionTest\\.java:" + line + "\\)"); // the line it parks at
      String json = Fibers.dumpAllJson();
      assertThat(json).startsWith("{\"schedulers\":[").contains("{\"name\":\"" + s.name() + "\",\"tracking\":true")
          .contains("{\"id\":" + f.id() + ",\"name\":\"dumped\",\"state\":\"parked\","
              + "\"blocker\":\"Channel[dumped \\\"quoted\\\", capacity 0]\",\"stack\":[\"");

      MBeanServer server = ManagementFactory.getPlatformMBeanServer();
      ObjectName name = Supervision.objectName(s.name());
      awaitRegistered(server, name, true);
      assertThat(server.getAttribute(name, "ParkedFibers")).isEqualTo(1);
      assertThat(server.getAttribute(name, "LiveFibers")).isEqualTo(1);
      assertThat((String) server.invoke(name, "dumpFibers", null, null)).contains("\"dumped\"");
      assertThat((String) server.invoke(name, "dumpFibersJson", null, null)).contains("\"name\":\"dumped\"");
      server.setAttribute(name, new javax.management.Attribute("WatchdogThresholdMillis", 250L));
      assertThat(s.watchdogThreshold()).isEqualTo(Duration.ofMillis(250));
      f.cancel();
      Continuation.runOnThread(f::join);
      s.close();
      if (!(s instanceof PoolScheduler)) { // a user's close() cannot unregister: its MBean goes once the scheduler is collected
        awaitRegistered(server, name, false);
      }
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("kinds")
  void mbean_setTracking_turnsTrackingOn(String kind, BiFunction<Integer, Boolean, FiberScheduler> factory)
      throws Exception {
    try (FiberScheduler s = factory.apply(1, false)) {
      MBeanServer server = ManagementFactory.getPlatformMBeanServer();
      ObjectName name = Supervision.objectName(s.name());
      awaitRegistered(server, name, true);
      assertThat(server.getAttribute(name, "LiveFibers")).isEqualTo(-1);
      server.setAttribute(name, new javax.management.Attribute("Tracking", true));
      Fiber f = Fiber.builder().scheduler(s).name("seen").start(() -> Fiber.park("the test"));
      awaitParked(f);
      assertThat(server.getAttribute(name, "LiveFibers")).isEqualTo(1);
      assertThat((Long) server.getAttribute(name, "Slices")).isPositive();
      f.cancel();
      Continuation.runOnThread(f::join);
    }
  }

  @org.junit.jupiter.api.Test
  void workStealing_workers_haveUniqueNames() throws Exception {
    try (FiberScheduler s = FiberScheduler.workStealing(3)) {
      CountDownLatch all = new CountDownLatch(3); // each fiber holds its worker until all three run
      List<String> names = new CopyOnWriteArrayList<>();
      List<Fiber> fibers = new java.util.ArrayList<>();
      for (int i = 0; i < 3; i++) {
        fibers.add(Fiber.builder().scheduler(s).start(() -> {
          names.add(Thread.currentThread().getName());
          all.countDown();
          try {
            all.await(HANG_SECONDS, TimeUnit.SECONDS);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        }));
      }
      for (Fiber f : fibers) {
        Continuation.runOnThread(f::join);
      }
      assertThat(names).doesNotHaveDuplicates().hasSize(3)
          .allMatch(n -> n.matches(java.util.regex.Pattern.quote(s.name()) + "-[1-3]"), "krill-steal-<pool>-<n>");
    }
  }

  private static void awaitParked(Fiber f) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(HANG_SECONDS);
    while (!f.isParked() && System.nanoTime() < deadline) {
      Thread.sleep(5);
    }
    assertThat(f.isParked()).as("fiber parked").isTrue();
  }

  private static void awaitRegistered(MBeanServer server, ObjectName name, boolean registered)
      throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(HANG_SECONDS);
    while (server.isRegistered(name) != registered && System.nanoTime() < deadline) {
      Thread.sleep(5);
    }
    assertThat(server.isRegistered(name)).as(name + " registered").isEqualTo(registered);
  }

  private static void cancelAll(FiberScheduler s) {
    for (Fiber f : s.liveFibers()) {
      f.cancel();
    }
    for (Fiber f : s.liveFibers()) {
      Continuation.runOnThread(f::join);
    }
  }
}
