package io.krill.fibers;

import static io.krill.fibers.CspTestSupport.assertQuiescent;
import static io.krill.fibers.CspTestSupport.fiber;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.krill.fibers.CspTestSupport.StrandThread;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

class BarrierTest extends CspTest {
  @Test
  void sync_everyPhase_nobodyPassesUntilAllArrived() {
    Barrier b = Barrier.create(3);
    for (int p = 0; p < 3; p++) {
      int id = p;
      fiber(s, "p" + p, () -> {
        for (int phase = 0; phase < 3; phase++) {
          for (int i = 0; i < id; i++) {
            Fiber.yieldNow(); // arrive at different times
          }
          log.add(phase + ":" + id);
          b.sync();
        }
        b.resign();
      });
    }
    s.runUntilIdle();
    assertThat(log).containsExactly("0:0", "0:1", "0:2", "1:0", "1:1", "1:2", "2:0", "2:1", "2:2");
    assertThat(b.phase()).isEqualTo(3);
    assertThat(b.parties()).isZero();
    assertQuiescent(s);
  }

  @Test
  void resign_lastMissingParty_endsThePhase() {
    Barrier b = Barrier.create(3);
    for (String name : List.of("a", "b")) {
      fiber(s, name, () -> {
        b.sync();
        log.add(name + " passed");
      });
    }
    s.runUntilIdle();
    assertThat(log).isEmpty();
    assertThat(b.toString()).isEqualTo("Barrier[2 of 3 synced, phase 0]");
    b.resign();
    s.runUntilIdle();
    assertThat(log).containsExactlyInAnyOrder("a passed", "b passed");
    assertThat(b.phase()).isEqualTo(1);
    assertQuiescent(s);
  }

  @Test
  void enroll_duringAPhase_phaseWaitsForTheNewParty() {
    Barrier b = Barrier.create(1);
    b.enroll();
    fiber(s, "a", () -> {
      b.sync();
      log.add("a passed");
    });
    s.runUntilIdle();
    b.enroll();
    fiber(s, "b", () -> {
      b.sync();
      log.add("b passed");
    });
    s.runUntilIdle();
    assertThat(log).isEmpty();
    fiber(s, "c", () -> {
      b.sync();
      log.add("c passed");
    });
    s.runUntilIdle();
    assertThat(log).containsExactly("c passed", "a passed", "b passed");
    assertQuiescent(s);
  }

  @Test
  void cancel_waitingParty_withdrawsItsArrival() {
    Barrier b = Barrier.create(2);
    Fiber a = parked("a", b::sync);
    assertThat(b.toString()).isEqualTo("Barrier[1 of 2 synced, phase 0]");
    assertThat(cancelled(a)).isInstanceOf(FiberCancelledException.class);
    assertThat(b.toString()).isEqualTo("Barrier[0 of 2 synced, phase 0]");
    fiber(s, "b", () -> {
      b.sync();
      log.add("b passed");
    });
    s.runUntilIdle();
    assertThat(log).as("one arrival of two does not end the phase").isEmpty();
    b.resign();
    s.runUntilIdle();
    assertThat(log).containsExactly("b passed");
    assertQuiescent(s);
  }

  @Test
  void sync_moreArrivalsThanEnrolled_throws() {
    Barrier b = Barrier.create(2);
    fiber(s, "a", b::sync);
    s.runUntilIdle();
    b.resign();
    s.runUntilIdle();
    assertThatThrownBy(() -> Continuation.runOnThread(() -> {
      Barrier none = Barrier.create(0);
      none.sync();
    })).isInstanceOf(IllegalStateException.class).hasMessage("barrier: sync by 1 parties in a phase with 0 enrolled");
    assertThatThrownBy(Barrier.create(0)::resign).isInstanceOf(IllegalStateException.class)
        .hasMessage("barrier: resign with no enrolled party");
    assertQuiescent(s);
  }

  @Test
  void offFiber_threadsAndFibers_syncTogether() throws Exception {
    try (FiberScheduler loops = FiberScheduler.eventLoop(2)) {
      int rounds = 200;
      Barrier b = Barrier.create(4);
      List<String> events = Collections.synchronizedList(new ArrayList<>());
      List<Fiber> fibers = new ArrayList<>();
      List<StrandThread> threads = new ArrayList<>();
      for (int i = 0; i < 2; i++) {
        fibers.add(Fiber.builder().scheduler(loops).start(() -> {
          for (int r = 0; r < rounds; r++) {
            events.add(r + "");
            b.sync();
          }
        }));
        threads.add(StrandThread.start("thread" + i, () -> {
          for (int r = 0; r < rounds; r++) {
            events.add(r + "");
            b.sync();
          }
        }));
      }
      fibers.forEach(CspTestSupport::join);
      for (StrandThread t : threads) {
        assertThat(t.join()).isNull();
      }
      for (int r = 0; r < rounds; r++) {
        String round = r + "";
        assertThat(events.subList(r * 4, r * 4 + 4)).allMatch(round::equals);
      }
      assertThat(b.phase()).isEqualTo(rounds);
    }
  }
}
