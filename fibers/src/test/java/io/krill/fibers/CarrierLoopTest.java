package io.krill.fibers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.krill.fibers.internal.CarrierIo;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The carriers' inbox, awake flag and idle spin: no wake-up is ever lost, whatever the spin. */
@Timeout(60)
class CarrierLoopTest {

  /** Joins from this test thread, giving up (and letting the assertions report it) after 50 s. */
  private static void joinWithin(Fiber f) {
    Continuation.runOnThread(() -> {
      try {
        f.join(Duration.ofSeconds(50));
      } catch (java.util.concurrent.TimeoutException e) {
        // the isDone() assertion that follows names the fiber
      }
    });
  }

  @Test
  void parseSpinNanos_unset_isTheDefault() {
    long expected = Runtime.getRuntime().availableProcessors() > 1 ? 20_000 : 0;
    assertThat(CarrierLoop.parseSpinNanos(null)).isEqualTo(expected);
    assertThat(CarrierLoop.parseSpinNanos(" 0 ")).isZero();
    assertThat(CarrierLoop.parseSpinNanos("1000000")).isEqualTo(1_000_000);
  }

  @ParameterizedTest
  @ValueSource(strings = {"-1", "1000001", "20us", ""})
  void parseSpinNanos_badValue_throwsNamingTheProperty(String value) {
    assertThatThrownBy(() -> CarrierLoop.parseSpinNanos(value))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("krill.fibers.spinNanos: " + value + " (expected: 0..1000000 nanoseconds)");
  }

  @Test
  void constructor_spinOutOfRange_throwsNamingTheArgument() {
    assertThatThrownBy(() -> new EventLoopScheduler(1, false, CarrierIo.NIO, -5))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("spinNanos: -5 (expected: 0..1000000)");
  }

  /** Two fibers on two loops hand a turn back and forth: every hand-over is a cross-loop wake. */
  @ParameterizedTest
  @ValueSource(longs = {0, 200, 20_000, 1_000_000})
  void crossLoopPingPong_anySpin_everyHandOverArrives(long spinNanos) throws Exception {
    int handOvers = 20_000;
    try (EventLoopScheduler s = new EventLoopScheduler(2, true, CarrierIo.NIO, spinNanos)) {
      List<io.netty.channel.EventLoop> loops = new ArrayList<>();
      s.group().forEach(e -> loops.add((io.netty.channel.EventLoop) e));
      int[] turn = new int[1];
      AtomicReference<Fiber> ping = new AtomicReference<>();
      AtomicReference<Fiber> pong = new AtomicReference<>();
      int[] counts = new int[2];
      Object lock = new Object();
      pong.set(Fiber.builder().scheduler(s).home(loops.get(1)).name("pong")
          .start(player(1, handOvers / 2, turn, counts, lock, ping)));
      ping.set(Fiber.builder().scheduler(s).home(loops.get(0)).name("ping")
          .start(player(0, handOvers / 2, turn, counts, lock, pong)));
      joinWithin(ping.get());
      joinWithin(pong.get());
      assertThat(ping.get().isDone()).as("ping finished").isTrue();
      assertThat(pong.get().isDone()).as("pong finished").isTrue();
      synchronized (lock) {
        assertThat(counts).containsExactly(handOvers / 2, handOvers / 2);
      }
    }
  }

  /**
   * One side of the ping-pong: takes its turn {@code turns} times and after each wakes the other
   * side, parking while the turn is the other side's.
   */
  private static SuspendableRunnable player(int me, int turns, int[] turn, int[] counts, Object lock,
      AtomicReference<Fiber> other) {
    return () -> {
      while (counts[me] < turns) {
        boolean mine;
        synchronized (lock) {
          mine = turn[0] == me;
          if (mine) {
            turn[0] = 1 - me;
            counts[me]++;
          }
        }
        if (mine) {
          Fiber p;
          while ((p = other.get()) == null) { // the other side may start before the test thread stored it
            Fiber.yieldNow();
          }
          p.unpark();
        } else {
          Fiber.park();
        }
      }
    };
  }

  /**
   * Platform threads wake fibers on both loops at random moments, so submits race the loops'
   * spins, their sleeps and their drain tasks: every token must reach its fiber.
   */
  @Tag("stress")
  @ParameterizedTest
  @ValueSource(longs = {0, 5_000, 20_000})
  void wakesFromManyThreads_raceSpinAndSleep_noTokenLost(long spinNanos) throws Exception {
    int fibers = 64;
    int tokensPerFiber = 400;
    int threads = 4;
    try (EventLoopScheduler s = new EventLoopScheduler(2, true, CarrierIo.NIO, spinNanos)) {
      AtomicIntegerArray tokens = new AtomicIntegerArray(fibers);
      AtomicIntegerArray taken = new AtomicIntegerArray(fibers);
      Fiber[] fs = new Fiber[fibers];
      for (int i = 0; i < fibers; i++) {
        int me = i;
        fs[i] = Fiber.builder().scheduler(s).name("taker-" + i).start(() -> {
          while (taken.get(me) < tokensPerFiber) {
            int t = tokens.get(me);
            if (t > 0 && tokens.compareAndSet(me, t, t - 1)) {
              taken.incrementAndGet(me);
            } else if (t == 0) {
              Fiber.park();
            }
          }
        });
      }
      List<Thread> givers = new ArrayList<>();
      for (int g = 0; g < threads; g++) {
        int first = g;
        Thread t = new Thread(() -> {
          ThreadLocalRandom r = ThreadLocalRandom.current();
          for (int i = first; i < fibers; i += threads) {
            for (int k = 0; k < tokensPerFiber; k++) {
              tokens.incrementAndGet(i);
              fs[i].unpark();
              if (r.nextInt(64) == 0) {
                java.util.concurrent.locks.LockSupport.parkNanos(r.nextInt(50_000)); // let loops go idle
              }
            }
          }
        }, "giver-" + g);
        givers.add(t);
        t.start();
      }
      for (Thread t : givers) {
        t.join(50_000);
      }
      for (Fiber f : fs) {
        joinWithin(f);
        assertThat(f.isDone()).as(f.name() + " finished").isTrue();
      }
      for (int i = 0; i < fibers; i++) {
        assertThat(taken.get(i)).as("tokens taken by fiber " + i).isEqualTo(tokensPerFiber);
        assertThat(tokens.get(i)).as("tokens left for fiber " + i).isZero();
      }
    }
  }
}
