package io.krill.fibers;

import static io.krill.fibers.CspTestSupport.create;
import static io.krill.fibers.CspTestSupport.join;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

@Timeout(30)
class FiberTest {
  static Stream<String> schedulers() {
    return CspTestSupport.kinds();
  }

  @ParameterizedTest
  @MethodSource("schedulers")
  void start_manyFibers_allRunAndJoin(String kind) {
    try (FiberScheduler s = create(kind)) {
      AtomicInteger sum = new AtomicInteger();
      List<Fiber> fibers = new ArrayList<>();
      for (int i = 0; i < 10_000; i++) {
        int v = i;
        fibers.add(Fiber.builder().scheduler(s).start(() -> {
          Fiber.yieldNow();
          sum.addAndGet(v);
        }));
      }
      fibers.forEach(CspTestSupport::join);
      assertThat(sum.get()).isEqualTo(10_000 * 9_999 / 2);
      assertThat(fibers).allMatch(Fiber::isDone);
    }
  }

  @ParameterizedTest
  @MethodSource("schedulers")
  void park_unparkFromThread_resumes(String kind) throws Exception {
    try (FiberScheduler s = create(kind)) {
      AtomicReference<String> seen = new AtomicReference<>();
      Fiber f = Fiber.builder().scheduler(s).name("parker").start(() -> {
        while (seen.get() == null) {
          Fiber.park("a test");
        }
      });
      while (!f.isParked()) {
        Thread.onSpinWait();
      }
      assertThat(s.dumpParked()).contains("\"parker\"").contains("waiting on a test");
      seen.set("go");
      f.unpark();
      join(f);
      assertThat(f.isDone()).isTrue();
    }
  }

  @ParameterizedTest
  @MethodSource("schedulers")
  void unpark_beforePark_permitMakesParkReturn(String kind) {
    try (FiberScheduler s = create(kind)) {
      Fiber f = Fiber.builder().scheduler(s).unstarted(() -> Fiber.park());
      f.unpark();
      f.start();
      join(f);
      assertThat(f.isDone()).isTrue();
    }
  }

  @ParameterizedTest
  @MethodSource("schedulers")
  void unpark_fromThreadsRacingParks_neverLosesAWakeUp(String kind) throws Exception {
    int rounds = 20_000;
    try (FiberScheduler s = create(kind)) {
      java.util.concurrent.atomic.AtomicLong posted = new java.util.concurrent.atomic.AtomicLong();
      Fiber f = Fiber.builder().scheduler(s).start(() -> {
        for (long seen = 0; seen < rounds; ) {
          long now = posted.get();
          if (now == seen) {
            Fiber.park("the posts");
          } else {
            seen = now;
          }
        }
      });
      Thread[] wakers = new Thread[2];
      for (int t = 0; t < wakers.length; t++) {
        wakers[t] = new Thread(() -> {
          while (posted.get() < rounds) { // each post is followed by an unpark: a lost one hangs the fiber
            if (posted.incrementAndGet() <= rounds) {
              f.unpark();
            }
          }
        });
        wakers[t].start();
      }
      for (Thread t : wakers) {
        t.join();
      }
      join(f);
      assertThat(f.isDone()).isTrue();
    }
  }

  @Test
  void fields_ownInstanceFields_fitFourteenBytes() {
    // A parked fiber's heap (design record 008): Fiber's own fields take 14 bytes, so that with
    // Stack's 22 they make 36 and the object is 48 bytes on 12-byte headers. A field more (or
    // a byte grown into an int) undoes it: put rarely used data in Extras instead.
    List<String> fields = new ArrayList<>();
    assertThat(instanceFieldBytes(Fiber.class, fields)).as("Fiber's instance fields %s", fields).isLessThanOrEqualTo(14);
  }

  @Test
  void fields_stackAndFiberTogether_fitThirtySixBytes() {
    // The frame store's fields and the fiber's together: 36 bytes and a 12-byte header fill a
    // 48-byte object; one byte more pads it to 56. The woven code's two flags share one byte
    // (Stack.flow) for this.
    List<String> fields = new ArrayList<>();
    int stack = instanceFieldBytes(Stack.class, fields);
    assertThat(stack).as("Stack's instance fields %s", fields).isLessThanOrEqualTo(22);
    assertThat(stack + instanceFieldBytes(Fiber.class, fields)).as("Stack's and Fiber's instance fields %s", fields)
        .isLessThanOrEqualTo(36);
  }

  /* The bytes of cls's own instance fields on compressed references; adds "name:size" to names. */
  private static int instanceFieldBytes(Class<?> cls, List<String> names) {
    int bytes = 0;
    for (java.lang.reflect.Field f : cls.getDeclaredFields()) {
      if (java.lang.reflect.Modifier.isStatic(f.getModifiers())) {
        continue;
      }
      Class<?> t = f.getType();
      int size = t == long.class || t == double.class ? 8
          : t == int.class || t == float.class ? 4
          : t == short.class || t == char.class ? 2
          : t == byte.class || t == boolean.class ? 1
          : 4; // a reference, compressed
      bytes += size;
      names.add(f.getName() + ":" + size);
    }
    return bytes;
  }

  @ParameterizedTest
  @MethodSource("schedulers")
  void join_racingTheFirstIdAndTheEnd_joinerWokenAndIdStable(String kind) throws Exception {
    // The joiners' stack and the rarely used data share a word: a join pushing itself while the
    // data are installed, or while the fiber closes the stack, must not be lost.
    int rounds = 2_000;
    try (FiberScheduler s = create(kind)) {
      for (int i = 0; i < rounds; i++) {
        Fiber f = Fiber.builder().scheduler(s).unstarted(() -> { });
        java.util.concurrent.CyclicBarrier gate = new java.util.concurrent.CyclicBarrier(3);
        long[] ids = new long[2];
        Thread joiner = new Thread(() -> {
          await(gate);
          join(f);
        });
        Thread namer = new Thread(() -> {
          await(gate);
          ids[0] = f.id();
          ids[1] = f.id();
        });
        joiner.start();
        namer.start();
        await(gate);
        f.start();
        joiner.join(60_000);
        namer.join(60_000);
        assertThat(joiner.isAlive()).as("joiner of round %d still waiting", i).isFalse();
        assertThat(ids[1]).isEqualTo(ids[0]).isEqualTo(f.id()).isPositive();
      }
    }
  }

  private static void await(java.util.concurrent.CyclicBarrier gate) {
    try {
      gate.await();
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  @ParameterizedTest
  @MethodSource("schedulers")
  void unpark_fromThreadWhileFiberRuns_nextParkReturns(String kind) {
    try (FiberScheduler s = create(kind)) {
      java.util.concurrent.CountDownLatch running = new java.util.concurrent.CountDownLatch(1);
      java.util.concurrent.atomic.AtomicBoolean unparked = new java.util.concurrent.atomic.AtomicBoolean();
      Fiber f = Fiber.builder().scheduler(s).start(() -> {
        running.countDown();
        while (!unparked.get()) {
          Thread.onSpinWait(); // holds the carrier: the unpark arrives while the fiber runs
        }
        Fiber.park();
      });
      Continuation.runOnThread(() -> {
        try {
          running.await();
        } catch (InterruptedException e) {
          throw new IllegalStateException(e);
        }
      });
      f.unpark();
      unparked.set(true);
      join(f);
      assertThat(f.isDone()).isTrue();
    }
  }

  @Test
  void handOff_twoFibersWakingEachOther_doNotStarveAThirdOnTheirCarrier() {
    int cap = 1_000_000;
    try (FiberScheduler s = FiberScheduler.eventLoop(1)) {
      Channel<Integer> ping = Channel.rendezvous();
      Channel<Integer> pong = Channel.rendezvous();
      java.util.concurrent.atomic.AtomicInteger exchanges = new java.util.concurrent.atomic.AtomicInteger();
      java.util.concurrent.atomic.AtomicInteger exchangesWhenThirdRan = new java.util.concurrent.atomic.AtomicInteger(-1);
      Fiber b = Fiber.builder().scheduler(s).start(() -> {
        try {
          while (true) {
            pong.send(ping.receive());
          }
        } catch (ChannelClosedException e) {
          // the pair is done
        }
      });
      Fiber a = Fiber.builder().scheduler(s).start(() -> {
        Fiber.start(() -> exchangesWhenThirdRan.set(exchanges.get())); // runnable on this carrier from now on
        while (exchangesWhenThirdRan.get() < 0 && exchanges.get() < cap) {
          ping.send(1);
          pong.receive();
          exchanges.incrementAndGet();
        }
        ping.close();
      });
      join(a);
      join(b);
      assertThat(exchangesWhenThirdRan.get()).isBetween(0, 10 * LocalRunQueue.HANDOFF_BOUND);
    }
  }

  @ParameterizedTest
  @MethodSource("schedulers")
  void cancel_parkedFiber_throwsAndRunsFinally(String kind) {
    try (FiberScheduler s = create(kind)) {
      List<String> events = new CopyOnWriteArrayList<>();
      Fiber f = Fiber.builder().scheduler(s).uncaughtExceptionHandler((t, e) -> events.add("uncaught")).start(() -> {
        try {
          Fiber.sleep(Duration.ofHours(1));
        } finally {
          events.add("finally");
        }
      });
      while (!f.isParked()) {
        Thread.onSpinWait();
      }
      f.cancel();
      Throwable failure = Continuation.callOnThread(f::joinFailure);
      assertThat(failure).isInstanceOf(FiberCancelledException.class).hasMessageContaining(f.name());
      assertThat(events).containsExactly("finally");
      assertThat(f.isCancelled()).isTrue();
    }
  }

  @Test
  void join_timeout_throwsTimeoutException() {
    try (FiberScheduler s = FiberScheduler.eventLoop(1)) {
      Fiber f = Fiber.builder().scheduler(s).start(() -> Fiber.park());
      assertThatThrownBy(() -> Continuation.callOnThread(() -> {
        f.join(Duration.ofMillis(20));
        return null;
      }))
          .isInstanceOf(TimeoutException.class).hasMessageContaining(f.name());
      f.unpark();
      join(f);
    }
  }

  @Test
  void uncaughtException_goesToHandler() {
    try (FiberScheduler s = FiberScheduler.eventLoop(1)) {
      AtomicReference<Throwable> got = new AtomicReference<>();
      Fiber f = Fiber.builder().scheduler(s).uncaughtExceptionHandler((t, e) -> got.set(e))
          .start(() -> {
            Fiber.yieldNow();
            throw new IllegalStateException("boom");
          });
      assertThat(Continuation.callOnThread(f::joinFailure)).hasMessage("boom");
      assertThat(got.get()).hasMessage("boom");
    }
  }

  @Test
  void eventLoop_fiberSpawnedOnLoop_staysOnThatLoop() {
    try (FiberScheduler s = FiberScheduler.eventLoop(2)) {
      List<String> threads = Collections.synchronizedList(new ArrayList<>());
      Fiber parent = Fiber.builder().scheduler(s).start(() -> {
        threads.add(Thread.currentThread().getName());
        List<Fiber> kids = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
          kids.add(Fiber.start(() -> {
            Fiber.yieldNow();
            threads.add(Thread.currentThread().getName());
          }));
        }
        for (Fiber k : kids) {
          k.join();
        }
      });
      join(parent);
      assertThat(threads).hasSize(21);
      assertThat(threads.stream().distinct()).hasSize(1);
    }
  }

  @Test
  void deterministic_sleepers_wakeInVirtualTimeOrder() {
    DeterministicScheduler s = FiberScheduler.deterministic();
    List<String> order = new ArrayList<>();
    for (int ms : new int[] {30, 10, 20}) {
      Fiber.builder().scheduler(s).start(() -> {
        Fiber.sleep(Duration.ofMillis(ms));
        order.add(ms + "@" + s.nanoTime() / 1_000_000);
      });
    }
    s.runUntilIdle();
    assertThat(order).isEmpty();
    s.advance(Duration.ofMillis(15));
    assertThat(order).containsExactly("10@10");
    s.run();
    assertThat(order).containsExactly("10@10", "20@20", "30@30");
    assertThat(s.nanoTime()).isEqualTo(30_000_000L);
    assertThat(s.liveFibers()).isEmpty();
  }

  @Test
  void deterministic_yield_roundRobinsInFifoOrder() {
    DeterministicScheduler s = FiberScheduler.deterministic();
    List<String> order = new ArrayList<>();
    for (String name : new String[] {"a", "b", "c"}) {
      Fiber.builder().scheduler(s).start(() -> {
        for (int i = 0; i < 2; i++) {
          order.add(name + i);
          Fiber.yieldNow();
        }
      });
    }
    s.run();
    assertThat(order).containsExactly("a0", "b0", "c0", "a1", "b1", "c1");
  }

  @Test
  void deterministic_timerRacesUnpark_exactlyOneWakeup() {
    DeterministicScheduler s = FiberScheduler.deterministic();
    AtomicInteger wakes = new AtomicInteger();
    Fiber f = Fiber.builder().scheduler(s).start(() -> {
      Fiber.parkNanos("race", Duration.ofMillis(5).toNanos());
      wakes.incrementAndGet();
      Fiber.park("after");
    });
    s.runUntilIdle();
    s.advance(Duration.ofMillis(5));
    f.unpark();
    s.runUntilIdle();
    assertThat(wakes.get()).isEqualTo(1);
    assertThat(s.pendingTimers()).isZero();
    assertThat(f.isDone()).isTrue();
  }

  @Test
  void deterministic_allParked_reportsDeadlockWithWaiters() {
    DeterministicScheduler s = FiberScheduler.deterministic();
    Fiber.builder().scheduler(s).name("left").start(() -> Fiber.park("the right fork"));
    Fiber.builder().scheduler(s).name("right").start(() -> Fiber.park("the left fork"));
    s.run();
    String report = s.deadlockReport();
    assertThat(report).startsWith("System is deadlocked: all 2 fibers")
        .contains("\"left\"").contains("waiting on the right fork")
        .contains("\"right\"").contains("waiting on the left fork")
        .contains("at io.krill.fibers.FiberTest.lambda$");
    s.liveFibers().forEach(Fiber::cancel);
    s.run();
    assertThat(s.liveFibers()).isEmpty();
  }

  /* The fiber holds its carrier until the watchdog has reported it, then four thresholds more: no clock race. */
  @Test
  void watchdog_fiberBlockingItsCarrier_reportedOnceWithNameAndStack() throws Exception {
    try (FiberScheduler s = FiberScheduler.eventLoop(1)) {
      List<String> reports = new CopyOnWriteArrayList<>();
      java.util.concurrent.CountDownLatch reported = new java.util.concurrent.CountDownLatch(1);
      s.watchdog(Duration.ofMillis(50), r -> {
        reports.add(r);
        reported.countDown();
      });
      Fiber f = Fiber.builder().scheduler(s).name("sleepy").start(() -> {
        try {
          if (reported.await(60, java.util.concurrent.TimeUnit.SECONDS)) {
            Thread.sleep(200);
          }
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      });
      join(f);
      assertThat(reports).hasSize(1);
      assertThat(reports.get(0)).contains("fiber \"sleepy\" has held carrier")
          .contains("java.util.concurrent.CountDownLatch.await");
    }
  }

  @Test
  void fiberLocal_separateValuesPerFiber() {
    DeterministicScheduler s = FiberScheduler.deterministic();
    FiberLocal<String> local = new FiberLocal<>(() -> "init");
    List<String> seen = new ArrayList<>();
    for (String v : new String[] {"x", "y"}) {
      Fiber.builder().scheduler(s).start(() -> {
        seen.add(local.get());
        local.set(v);
        Fiber.yieldNow();
        seen.add(local.get());
      });
    }
    s.run();
    assertThat(seen).containsExactly("init", "init", "x", "y");
  }


  @Test
  void builderHome_eventLoop_pinsFiberToThatLoop() {
    try (FiberScheduler s = FiberScheduler.eventLoop(2)) {
      EventLoopScheduler els = (EventLoopScheduler) s;
      for (io.netty.util.concurrent.EventExecutor loop : els.group()) {
        AtomicBoolean onLoop = new AtomicBoolean();
        Fiber f = Fiber.builder().scheduler(s).home(loop).start(() -> {
          Fiber.yieldNow();
          onLoop.set(loop.inEventLoop());
        });
        join(f);
        assertThat(onLoop).isTrue();
      }
      assertThatThrownBy(() -> Fiber.builder().scheduler(s).home("elsewhere").unstarted(() -> { }))
          .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("home: elsewhere (expected: an event loop of");
    }
  }

  @Test
  void joinTimeout_repeated_doesNotGrowTheWaiterList() throws Exception {
    DeterministicScheduler s = FiberScheduler.deterministic();
    Fiber target = Fiber.builder().scheduler(s).start(() -> Fiber.park("forever"));
    AtomicInteger timeouts = new AtomicInteger();
    Fiber poller = Fiber.builder().scheduler(s).start(() -> {
      for (int i = 0; i < 1000; i++) {
        try {
          target.join(Duration.ofMillis(1));
        } catch (TimeoutException e) {
          timeouts.incrementAndGet();
        }
      }
    });
    s.run();
    assertThat(timeouts.get()).isEqualTo(1000);
    assertThat(Joiner.head(target)).isNull();
    target.unpark();
    s.run();
    assertThat(poller.isDone()).isTrue();
  }

  @Test
  @Timeout(180)
  void deterministic_millionFibers_simulatedExactly() {
    DeterministicScheduler s = FiberScheduler.deterministic();
    int n = 1_000_000;
    long[] total = new long[1];
    for (int i = 0; i < n; i++) {
      int delay = i % 1000;
      Fiber.builder().scheduler(s).start(() -> {
        Fiber.sleep(Duration.ofMillis(delay));
        total[0] += s.nanoTime() / 1_000_000;
      });
    }
    s.run();
    assertThat(total[0]).isEqualTo((long) n / 1000 * (999L * 1000 / 2));
    assertThat(s.nanoTime()).isEqualTo(999_000_000L);
    assertThat(s.liveFibers()).isEmpty();
  }

  @Test
  void dumpAll_listsParkedFibersOfEveryScheduler() {
    DeterministicScheduler s = FiberScheduler.deterministic();
    Fiber f = Fiber.builder().scheduler(s).name("dumped").start(() -> Fiber.park("the dump test"));
    s.runUntilIdle();
    assertThat(Fibers.dumpAll()).contains(s.name() + ":").contains("\"dumped\"").contains("waiting on the dump test");
    f.unpark();
    s.run();
  }
  @Test
  void eventLoop_sameLoopWakes_runInWakeOrder() {
    try (FiberScheduler s = FiberScheduler.eventLoop(1)) {
      List<Integer> order = new CopyOnWriteArrayList<>();
      Fiber main = Fiber.builder().scheduler(s).start(() -> {
        List<Fiber> parked = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
          int id = i;
          parked.add(Fiber.start(() -> {
            Fiber.park("order");
            order.add(id);
          }));
        }
        while (!parked.stream().allMatch(Fiber::isParked)) {
          Fiber.yieldNow();
        }
        for (int i = 4; i >= 0; i--) {
          parked.get(i).unpark();
        }
        for (Fiber f : parked) {
          f.join();
        }
      });
      join(main);
      assertThat(main.isDone()).isTrue();
      assertThat(order).containsExactly(4, 3, 2, 1, 0); // plain unparks keep FIFO order; only channel hand-offs jump it
    }
  }

  @Test
  void eventLoop_unparkFromItsOwnLoop_queuedLocally_runsBeforeTheWakerYieldsBack() {
    try (FiberScheduler s = FiberScheduler.eventLoop(1)) {
      List<String> order = new CopyOnWriteArrayList<>();
      Fiber main = Fiber.builder().scheduler(s).start(() -> {
        Fiber parked = Fiber.start(() -> {
          Fiber.park("woken locally");
          order.add("woken");
        });
        while (!parked.isParked()) {
          Fiber.yieldNow();
        }
        // On the home loop the wake goes to the carrier's run queue, behind which the waker
        // yields: the woken fiber runs first. Through the loop's inbox (the path for other
        // threads) it would run only after this slice's queue is empty, after the waker.
        parked.unpark();
        Fiber.yieldNow();
        order.add("waker");
        parked.join();
      });
      join(main);
      assertThat(main.isDone()).isTrue();
      assertThat(order).containsExactly("woken", "waker");
    }
  }

  @Test
  void eventLoop_endlessPingPongOnOneLoop_doesNotStarveTheLoopsTasks() throws Exception {
    try (FiberScheduler s = FiberScheduler.eventLoop(1)) {
      EventLoopScheduler els = (EventLoopScheduler) s;
      io.netty.channel.EventLoop loop = els.group().next();
      Channel<Integer> ping = Channel.rendezvous();
      Channel<Integer> pong = Channel.rendezvous();
      AtomicInteger hops = new AtomicInteger();
      Fiber a = Fiber.builder().scheduler(s).home(loop).uncaughtExceptionHandler((t, e) -> { }).start(() -> {
        for (;;) {
          ping.send(hops.incrementAndGet());
          pong.receive();
        }
      });
      Fiber b = Fiber.builder().scheduler(s).home(loop).uncaughtExceptionHandler((t, e) -> { }).start(() -> {
        for (;;) {
          pong.send(ping.receive());
        }
      });
      while (hops.get() < 1_000) {
        Thread.sleep(1);
      }
      // Every hop wakes a fiber on its own loop; the loop must still run other tasks.
      java.util.concurrent.CompletableFuture<Integer> seen = new java.util.concurrent.CompletableFuture<>();
      loop.execute(() -> seen.complete(hops.get()));
      assertThat(seen.get(10, java.util.concurrent.TimeUnit.SECONDS)).isGreaterThanOrEqualTo(1_000);
      ping.close();
      pong.close();
      join(a);
      join(b);
      assertThat(Continuation.callOnThread(a::joinFailure)).isInstanceOf(ChannelClosedException.class);
    }
  }
}
