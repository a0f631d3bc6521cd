package io.krill.fibers;

import static io.krill.fibers.CspTestSupport.assertQuiescent;
import static io.krill.fibers.CspTestSupport.failureOf;
import static io.krill.fibers.CspTestSupport.fiber;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

class SelectTest extends CspTest {
  /** Starts a fiber "selector" that selects once over the cases {@code cases} adds and logs the result. */
  private void selectAndLog(UnaryOperator<Select<String>> cases) {
    fiber(s, "selector", () -> log.add(cases.apply(Select.<String>create()).select()));
  }

  /** Starts a fiber "selector" that selects once over the cases {@code cases} adds. */
  private Fiber selecting(UnaryOperator<Select<String>> cases) {
    return fiber(s, "selector", () -> cases.apply(Select.<String>create()).select());
  }

  /** Asserts that {@code f} failed on the closed channel {@code name} and left no case registered on {@code other}. */
  private void assertFailedOnClosed(Fiber f, String operation, String name, Channel<String> other) {
    assertThat(failureOf(f)).isInstanceOf(ChannelClosedException.class)
        .hasMessage(operation + " on closed channel \"" + name + "\"");
    assertThat(other.trySend("x")).as("no case left registered").isFalse();
    assertQuiescent(s);
  }

  private static Channel<String> buffered(String name, String... items) {
    Channel<String> ch = Channel.create(Math.max(1, items.length), name);
    for (String i : items) {
      ch.trySend(i);
    }
    return ch;
  }

  @Test
  void select_severalCasesReady_firstInDeclarationOrderWins() {
    Channel<String> a = buffered("a", "a1");
    Channel<String> b = buffered("b", "b1");
    fiber(s, "selector", () -> {
      log.add(Select.<String>create().onReceive(b, x -> "b:" + x).onReceive(a, x -> "a:" + x).select());
      log.add(Select.<String>create().onReceive(a, x -> "a:" + x).onReceive(b, x -> "b:" + x).select());
    });
    s.runUntilIdle();
    assertThat(log).containsExactly("b:b1", "a:a1");
    assertQuiescent(s);
  }

  @Test
  void select_readySendBeforeReadyReceive_sendWinsByOrderAndReceiveHasNoEffect() {
    Channel<String> in = buffered("in", "x");
    Channel<String> out = Channel.create(1, "out");
    selectAndLog(sel -> sel
        .onSend(out, "y", () -> "sent")
        .onReceive(in, x -> "received " + x));
    s.runUntilIdle();
    assertThat(log).containsExactly("sent");
    assertThat(out.tryReceive()).isEqualTo("y");
    assertThat(in.tryReceive()).as("the losing receive took nothing").isEqualTo("x");
    assertQuiescent(s);
  }

  @Test
  void select_noCaseReady_defaultRunsWithoutWaiting() {
    Channel<String> a = Channel.rendezvous();
    selectAndLog(sel -> sel
        .onReceive(a, x -> "a")
        .onDefault(() -> "default"));
    s.runUntilIdle();
    assertThat(log).containsExactly("default");
    assertThat(a.trySend("x")).as("the default left no registration behind").isFalse();
    assertQuiescent(s);
  }

  @Test
  void select_caseReady_defaultDoesNotRun() {
    Channel<String> a = buffered("a", "x");
    selectAndLog(sel -> sel
        .onReceive(a, x -> "a:" + x)
        .onDefault(() -> "default"));
    s.runUntilIdle();
    assertThat(log).containsExactly("a:x");
    assertQuiescent(s);
  }

  @Test
  void select_waits_firstCounterpartyToArriveWins_loserKeepsItsItem() {
    Channel<String> a = Channel.create(0, "a");
    Channel<String> b = Channel.create(0, "b");
    selectAndLog(sel -> sel
        .onReceive(a, x -> "a:" + x)
        .onReceive(b, x -> "b:" + x));
    s.runUntilIdle();
    fiber(s, "sendsToB", () -> b.send("1"));
    fiber(s, "sendsToA", () -> {
      a.send("2");
      log.add("a delivered");
    });
    s.runUntilIdle();
    assertThat(log).containsExactly("b:1");
    assertThat(a.tryReceive()).as("the sender to a is still waiting with its item").isEqualTo("2");
    s.runUntilIdle();
    assertThat(log).containsExactly("b:1", "a delivered");
    assertQuiescent(s);
  }

  @Test
  void select_timeout_firesExactlyAtVirtualDeadline_andUnregisters() {
    Channel<String> a = Channel.create(0, "a");
    selectAndLog(sel -> sel
        .onReceive(a, x -> "a")
        .onTimeout(Duration.ofMillis(10), () -> "timeout@" + s.nanoTime() / 1_000_000));
    s.runUntilIdle();
    s.advance(Duration.ofNanos(9_999_999));
    assertThat(log).isEmpty();
    s.advance(Duration.ofNanos(1));
    assertThat(log).containsExactly("timeout@10");
    assertThat(a.trySend("late")).as("no receive registration left").isFalse();
    assertQuiescent(s);
  }

  @Test
  void select_caseCompletesBeforeTimeout_timerIsCancelled() {
    Channel<String> a = Channel.create(0, "a");
    selectAndLog(sel -> sel
        .onReceive(a, x -> "a:" + x + "@" + s.nanoTime() / 1_000_000)
        .onTimeout(Duration.ofMillis(10), () -> "timeout"));
    s.runUntilIdle();
    s.advance(Duration.ofMillis(4));
    fiber(s, "sender", () -> a.send("x"));
    s.runUntilIdle();
    assertThat(log).containsExactly("a:x@4");
    assertQuiescent(s);
  }

  @Test
  void select_zeroTimeout_behavesAsDefault() {
    Channel<String> a = Channel.rendezvous();
    selectAndLog(sel -> sel
        .onReceive(a, x -> "a")
        .onTimeout(Duration.ZERO, () -> "timeout"));
    s.runUntilIdle();
    assertThat(log).containsExactly("timeout");
    assertQuiescent(s);
  }

  @Test
  void select_timeoutOnly_sleepsOnVirtualClock() {
    selectAndLog(sel -> sel
        .onTimeout(Duration.ofSeconds(3), () -> "woke@" + s.nanoTime() / 1_000_000_000));
    s.run();
    assertThat(log).containsExactly("woke@3");
    assertQuiescent(s);
  }

  @Test
  void select_sendCase_completesWithParkedReceiver() {
    Channel<String> out = Channel.create(0, "out");
    fiber(s, "receiver", () -> log.add("received " + out.receive()));
    s.runUntilIdle();
    selectAndLog(sel -> sel
        .onSend(out, "v", () -> "sent"));
    s.runUntilIdle();
    assertThat(log).containsExactly("sent", "received v");
    assertQuiescent(s);
  }

  @Test
  void select_parkedSendCase_completedByLaterReceiver() {
    Channel<String> out = Channel.create(0, "out");
    Channel<String> other = Channel.create(0, "other");
    selectAndLog(sel -> sel
        .onReceive(other, x -> "other")
        .onSend(out, "v", () -> "sent"));
    s.runUntilIdle();
    fiber(s, "receiver", () -> log.add("received " + out.receive()));
    s.runUntilIdle();
    assertThat(log).containsExactly("received v", "sent");
    assertThat(other.trySend("x")).isFalse();
    assertQuiescent(s);
  }

  @Test
  void select_againstSelect_matchExactlyOnce() {
    Channel<String> a = Channel.create(0, "a");
    Channel<String> b = Channel.create(0, "b");
    fiber(s, "sendingSelect", () -> log.add(Select.<String>create()
        .onSend(a, "va", () -> "sent a")
        .onSend(b, "vb", () -> "sent b")
        .select()));
    s.runUntilIdle();
    fiber(s, "receivingSelect", () -> log.add(Select.<String>create()
        .onReceive(b, x -> "got " + x)
        .onReceive(a, x -> "got " + x)
        .select()));
    s.runUntilIdle();
    assertThat(log).containsExactly("got vb", "sent b");
    assertThat(a.tryReceive()).isNull();
    assertThat(b.tryReceive()).isNull();
    assertQuiescent(s);
  }

  @Test
  void select_sendAndReceiveOnSameChannel_neverMatchesItself() {
    Channel<String> a = Channel.create(0, "a");
    selectAndLog(sel -> sel
        .onSend(a, "x", () -> "sent")
        .onReceive(a, x -> "received " + x)
        .onTimeout(Duration.ofMillis(1), () -> "timeout"));
    s.run();
    assertThat(log).containsExactly("timeout");
    assertQuiescent(s);
  }

  @Test
  void select_closedChannelCase_isReadyAndThrows() {
    Channel<String> a = Channel.create(0, "a");
    Channel<String> closed = Channel.create(0, "gone");
    closed.close();
    Fiber f = selecting(sel -> sel.onReceive(a, x -> "a").onReceive(closed, x -> "closed"));
    s.runUntilIdle();
    assertFailedOnClosed(f, "receive", "gone", a);
  }

  @Test
  void select_channelClosedWhileWaiting_wakesAndThrows_otherCasesUnregistered() {
    Channel<String> a = Channel.create(0, "a");
    Channel<String> b = Channel.create(0, "b");
    Fiber f = selecting(sel -> sel.onReceive(a, x -> "a").onSend(b, "x", () -> "b"));
    s.runUntilIdle();
    b.close();
    s.runUntilIdle();
    assertFailedOnClosed(f, "send", "b", a);
  }

  @Test
  void select_cancelledWhileWaiting_throwsAndUnregistersEveryCase() {
    Channel<String> a = Channel.create(0, "a");
    Channel<String> b = Channel.create(0, "b");
    Fiber f = parked("selector", () -> Select.<String>create()
        .onReceive(a, x -> "a")
        .onSend(b, "x", () -> "b")
        .onTimeout(Duration.ofHours(1), () -> "timeout")
        .select());
    assertThat(s.dumpParked()).contains("waiting on Select[receive Channel[a, capacity 0], send Channel[b, capacity 0], timeout PT1H]");
    assertThat(cancelled(f)).isInstanceOf(FiberCancelledException.class);
    assertThat(a.trySend("x")).isFalse();
    assertThat(b.tryReceive()).isNull();
    assertQuiescent(s);
  }

  @Test
  void select_handlerMaySuspend() {
    Channel<String> in = buffered("in", "x");
    Channel<String> out = Channel.create(0, "out");
    fiber(s, "selector", () -> Select.<Void>create()
        .onReceive(in, x -> {
          out.send(x + "!");
          return null;
        })
        .select());
    fiber(s, "receiver", () -> log.add(out.receive()));
    s.runUntilIdle();
    assertThat(log).containsExactly("x!");
    assertQuiescent(s);
  }

  @Test
  void select_reused_eachCallIsAFreshChoice() {
    Channel<Integer> a = Channel.create(0, "a");
    Channel<Integer> b = Channel.create(0, "b");
    fiber(s, "producerA", () -> {
      for (int i = 0; i < 3; i++) {
        a.send(i);
      }
    });
    fiber(s, "producerB", () -> {
      for (int i = 0; i < 3; i++) {
        b.send(10 + i);
      }
    });
    fiber(s, "merger", () -> {
      Select<String> sel = Select.<String>create().onReceive(a, x -> "a" + x).onReceive(b, x -> "b" + x);
      for (int i = 0; i < 6; i++) {
        log.add(sel.select());
      }
    });
    s.runUntilIdle();
    // FIFO trace: both producers park (a0, b10). The merger takes a0 (first ready case),
    // then b10 (producerA is runnable, not yet back at a), then parks. producerA hands a1
    // straight to the parked select and parks with a2; producerB finds that select decided
    // and parks with b11. The merger then takes a1, a2 (a is first and ready), b11, parks,
    // and gets b12 from producerB.
    assertThat(log).containsExactly("a0", "b10", "a1", "a2", "b11", "b12");
    assertQuiescent(s);
  }

  @Test
  void randomOrder_allCasesReady_choicesFollowTheDocumentedShuffleOfTheSeed() {
    int n = 4;
    int rounds = 400;
    List<Channel<Integer>> chs = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      chs.add(Channel.create(rounds));
      for (int r = 0; r < rounds; r++) {
        chs.get(i).trySend(i);
      }
    }
    List<Integer> chosen = new ArrayList<>();
    fiber(s, "selector", () -> {
      Select<Integer> sel = Select.<Integer>create().randomOrder(new Random(42));
      for (Channel<Integer> ch : chs) {
        sel.onReceive(ch, x -> x);
      }
      for (int r = 0; r < rounds; r++) {
        chosen.add(sel.select());
      }
    });
    s.runUntilIdle();
    Random expected = new Random(42);
    List<Integer> predicted = new ArrayList<>();
    for (int r = 0; r < rounds; r++) {
      int[] ord = {0, 1, 2, 3};
      for (int k = n - 1; k > 0; k--) {
        int j = expected.nextInt(k + 1);
        int t = ord[k];
        ord[k] = ord[j];
        ord[j] = t;
      }
      predicted.add(ord[0]);
    }
    assertThat(chosen).isEqualTo(predicted);
    for (int i = 0; i < n; i++) {
      int c = i;
      assertThat(chosen.stream().filter(x -> x == c).count()).as("case " + i).isBetween(70L, 130L);
    }
    assertQuiescent(s);
  }

  @Test
  void builder_invalidCombinations_rejected() {
    Channel<String> a = Channel.rendezvous();
    assertThatThrownBy(() -> Select.create().onTimeout(Duration.ofMillis(-1), () -> null))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("timeout: -1ms (expected: >= 0)");
    assertThatThrownBy(() -> Select.create().onDefault(() -> null).onTimeout(Duration.ZERO, () -> null))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("default case already");
    assertThatThrownBy(() -> Select.create().onSend(a, null, () -> null)).isInstanceOf(NullPointerException.class);
    assertThatThrownBy(() -> Continuation.runOnThread(() -> Select.create().select()))
        .isInstanceOf(IllegalStateException.class).hasMessage("select: no cases");
  }

  @Test
  void offFiber_threadSelects_overChannelsFedByFibers() {
    try (FiberScheduler loop = FiberScheduler.eventLoop(1)) {
      Channel<Integer> a = Channel.rendezvous();
      Channel<Integer> b = Channel.rendezvous();
      Fiber pa = Fiber.builder().scheduler(loop).start(() -> {
        for (int i = 0; i < 50; i++) {
          a.send(1);
        }
      });
      Fiber pb = Fiber.builder().scheduler(loop).start(() -> {
        for (int i = 0; i < 50; i++) {
          b.send(1000);
        }
      });
      int sum = Continuation.callOnThread(() -> {
        Select<Integer> sel = Select.<Integer>create().onReceive(a, x -> x).onReceive(b, x -> x)
            .onTimeout(Duration.ofSeconds(10), () -> -1_000_000);
        int total = 0;
        for (int i = 0; i < 100; i++) {
          total += sel.select();
        }
        return total;
      });
      CspTestSupport.join(pa);
      CspTestSupport.join(pb);
      assertThat(sum).isEqualTo(50 * 1 + 50 * 1000);
    }
  }

  // ------------------------------------------------------------------ stress

  @Tag("stress")
  @Test
  void stress_selectsRacedFromBothEventLoops_withTimeouts_everyItemExactlyOnce() {
    int producers = 4;
    int perProducer = 10_000;
    int total = producers * perProducer;
    try (FiberScheduler loops = FiberScheduler.eventLoop(2)) {
      Channel<Integer> a = Channel.create(0, "a");
      Channel<Integer> b = Channel.create(2, "b");
      List<Fiber> fibers = new ArrayList<>();
      for (int p = 0; p < producers; p++) {
        int base = p * perProducer;
        fibers.add(Fiber.builder().scheduler(loops).start(() -> {
          // Sends race as select cases too: each item goes to whichever of a or b is ready first.
          for (int i = 0; i < perProducer; i++) {
            int v = base + i;
            Select.<Void>create().onSend(a, v, () -> null).onSend(b, v, () -> null).select();
          }
        }));
      }
      Map<Integer, AtomicInteger> seen = new ConcurrentHashMap<>();
      AtomicLong received = new AtomicLong();
      AtomicLong timeouts = new AtomicLong();
      for (int c = 0; c < 4; c++) {
        fibers.add(Fiber.builder().scheduler(loops).start(() -> {
          Select<Integer> sel = Select.<Integer>create()
              .onReceive(a, x -> x)
              .onReceive(b, x -> x)
              .onTimeout(Duration.ofNanos(20_000), () -> -1);
          while (received.get() < total) {
            int v = sel.select();
            if (v < 0) {
              timeouts.incrementAndGet();
            } else {
              seen.computeIfAbsent(v, k -> new AtomicInteger()).incrementAndGet();
              received.incrementAndGet();
            }
          }
        }));
      }
      fibers.forEach(CspTestSupport::join);
      assertThat(received.get()).isEqualTo(total);
      assertThat(seen).hasSize(total);
      assertThat(seen.values()).allMatch(n -> n.get() == 1);
      assertThat(a.tryReceive()).isNull();
      assertThat(b.tryReceive()).isNull();
    }
  }
}
