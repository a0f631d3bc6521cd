package io.krill.fibers;

import static io.krill.fibers.CspTestSupport.assertQuiescent;
import static io.krill.fibers.CspTestSupport.failureOf;
import static io.krill.fibers.CspTestSupport.fiber;
import static io.krill.fibers.CspTestSupport.threadsFeedingFibers;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.krill.fibers.CspTestSupport.StrandThread;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ChannelTest extends CspTest {
  @Test
  void rendezvous_senderFirst_waitsUntilReceiverTakesItem() {
    Channel<String> ch = Channel.rendezvous();
    fiber(s, "sender", () -> {
      ch.send("a");
      log.add("sent");
    });
    s.runUntilIdle();
    assertThat(log).isEmpty();
    fiber(s, "receiver", () -> log.add("received " + ch.receive()));
    s.runUntilIdle();
    assertThat(log).containsExactly("received a", "sent");
    assertQuiescent(s);
  }

  @Test
  void rendezvous_receiverFirst_senderCompletesWithoutWaiting() {
    Channel<String> ch = Channel.rendezvous();
    fiber(s, "receiver", () -> log.add("received " + ch.receive()));
    s.runUntilIdle();
    fiber(s, "sender", () -> {
      ch.send("a");
      log.add("sent");
    });
    s.runUntilIdle();
    assertThat(log).containsExactly("sent", "received a");
    assertQuiescent(s);
  }

  @Test
  void rendezvous_fromSlotToQueuesAndBack_eachItemOnceInOrder() {
    // One waiter at a time uses the lock-free slot; a second waiter, a select and a close move
    // the channel to its locked queues; once nobody waits it hands over through the slot again.
    Channel<String> ch = Channel.rendezvous();
    fiber(s, "a", () -> ch.send("a"));
    s.runUntilIdle();
    fiber(s, "b", () -> ch.send("b"));
    s.runUntilIdle();
    fiber(s, "selector", () -> log.add(Select.<String>create().onReceive(ch, x -> "select " + x).select()));
    s.runUntilIdle();
    fiber(s, "receiver", () -> {
      log.add(ch.receive());
      for (int i = 0; i < 3; i++) {
        log.add(ch.receive());
      }
    });
    fiber(s, "sender", () -> {
      for (String x : List.of("c", "d", "e")) {
        ch.send(x);
      }
      ch.close();
    });
    s.runUntilIdle();
    assertThat(log).containsExactly("select a", "b", "c", "d", "e");
    assertQuiescent(s);
  }

  @Test
  void buffered_sendsBeyondCapacity_waitUntilReceived() {
    Channel<Integer> ch = Channel.create(2);
    fiber(s, "sender", () -> {
      for (int i = 1; i <= 4; i++) {
        ch.send(i);
        log.add("sent " + i);
      }
    });
    s.runUntilIdle();
    assertThat(log).containsExactly("sent 1", "sent 2");
    assertThat(ch.tryReceive()).isEqualTo(1);
    s.runUntilIdle();
    assertThat(log).containsExactly("sent 1", "sent 2", "sent 3");
    assertThat(List.of(ch.tryReceive(), ch.tryReceive(), ch.tryReceive())).containsExactly(2, 3, 4);
    assertThat(ch.tryReceive()).isNull();
    assertQuiescent(s);
  }

  @Test
  void sendersParked_receivedInArrivalOrder() {
    Channel<String> ch = Channel.rendezvous();
    for (String name : List.of("a", "b", "c")) {
      fiber(s, name, () -> ch.send(name));
    }
    s.runUntilIdle();
    fiber(s, "receiver", () -> {
      for (int i = 0; i < 3; i++) {
        log.add(ch.receive());
      }
    });
    s.runUntilIdle();
    assertThat(log).containsExactly("a", "b", "c");
    assertQuiescent(s);
  }

  @Test
  void receiversParked_servedInArrivalOrder() {
    Channel<Integer> ch = Channel.create(1);
    for (String name : List.of("a", "b", "c")) {
      fiber(s, name, () -> log.add(name + ch.receive()));
    }
    s.runUntilIdle();
    fiber(s, "sender", () -> {
      for (int i = 1; i <= 3; i++) {
        ch.send(i);
      }
    });
    s.runUntilIdle();
    assertThat(log).containsExactly("a1", "b2", "c3");
    assertQuiescent(s);
  }

  @Test
  void trySend_rendezvousWithoutReceiver_returnsFalse_andWithParkedReceiver_delivers() {
    Channel<String> ch = Channel.rendezvous();
    assertThat(ch.trySend("lost")).isFalse();
    fiber(s, "receiver", () -> log.add(ch.receive()));
    s.runUntilIdle();
    assertThat(ch.trySend("x")).isTrue();
    s.runUntilIdle();
    assertThat(log).containsExactly("x");
    assertThat(ch.tryReceive()).isNull();
    assertQuiescent(s);
  }

  @Test
  void send_nullItem_throwsNpe() {
    Channel<String> ch = Channel.create(1);
    assertThatThrownBy(() -> ch.trySend(null)).isInstanceOf(NullPointerException.class).hasMessage("item");
  }

  @Test
  void close_receiverParked_wakesWithChannelClosedException() {
    Channel<String> ch = Channel.create(0, "jobs");
    Fiber r = fiber(s, "receiver", () -> {
      try {
        ch.receive();
      } finally {
        log.add("finally");
      }
    });
    s.runUntilIdle();
    assertThat(ch.close()).isTrue();
    assertThat(ch.close()).isFalse();
    s.runUntilIdle();
    assertThat(failureOf(r)).isInstanceOf(ChannelClosedException.class)
        .hasMessage("receive on closed channel \"jobs\"")
        .satisfies(e -> assertThat(((ChannelClosedException) e).channel()).isEqualTo("jobs"));
    assertThat(log).containsExactly("finally");
    assertQuiescent(s);
  }

  @Test
  void close_senderParked_wakesWithChannelClosedException_itemNotDelivered() {
    Channel<String> ch = Channel.create(1, "out");
    Fiber w = fiber(s, "sender", () -> {
      ch.send("kept");
      ch.send("refused");
    });
    s.runUntilIdle();
    assertThat(w.isParked()).isTrue();
    ch.close();
    s.runUntilIdle();
    assertThat(failureOf(w)).isInstanceOf(ChannelClosedException.class).hasMessage("send on closed channel \"out\"");
    assertThat(ch.tryReceive()).isEqualTo("kept");
    assertThatThrownBy(ch::tryReceive).isInstanceOf(ChannelClosedException.class);
    assertQuiescent(s);
  }

  @Test
  void close_bufferedItems_remainReceivableThenReceiveThrows() {
    Channel<Integer> ch = Channel.create(3, "q");
    ch.trySend(1);
    ch.trySend(2);
    ch.close();
    assertThatThrownBy(() -> ch.trySend(3)).isInstanceOf(ChannelClosedException.class)
        .hasMessage("send on closed channel \"q\"");
    Fiber r = fiber(s, "drain", () -> {
      while (true) {
        log.add("got " + ch.receive());
      }
    });
    s.runUntilIdle();
    assertThat(log).containsExactly("got 1", "got 2");
    assertThat(failureOf(r)).isInstanceOf(ChannelClosedException.class).hasMessage("receive on closed channel \"q\"");
    assertThat(ch.isClosed()).isTrue();
    assertQuiescent(s);
  }

  @Test
  void cancel_receiverParked_throwsAndUnregisters() {
    Channel<String> ch = Channel.rendezvous();
    Fiber r = parked("receiver", () -> {
      try {
        ch.receive();
      } finally {
        log.add("finally");
      }
    });
    assertThat(cancelled(r)).isInstanceOf(FiberCancelledException.class);
    assertThat(log).containsExactly("finally");
    assertThat(ch.trySend("nobody")).as("the cancelled receiver is gone").isFalse();
    assertQuiescent(s);
  }

  @Test
  void cancel_senderParked_throwsAndItemIsNotDelivered() {
    Channel<String> ch = Channel.rendezvous();
    assertThat(cancelled(parked("sender", () -> ch.send("never")))).isInstanceOf(FiberCancelledException.class);
    assertThat(ch.tryReceive()).isNull();
    assertQuiescent(s);
  }

  @Test
  void cancel_racingADelivery_keepsTheItemAndThrowsAtTheNextPark() {
    Channel<String> ch = Channel.rendezvous();
    Fiber r = fiber(s, "receiver", () -> {
      log.add("got " + ch.receive());
      Fiber.park("next");
    });
    s.runUntilIdle();
    assertThat(ch.trySend("x")).isTrue(); // claims the waiter: the item is handed over
    r.cancel();                           // before the receiver runs again
    s.runUntilIdle();
    assertThat(log).containsExactly("got x");
    assertThat(failureOf(r)).isInstanceOf(FiberCancelledException.class);
    assertQuiescent(s);
  }

  @Test
  void parkedFiber_dumpAndDeadlockReport_nameTheChannel() {
    Channel<String> ch = Channel.create(0, "requests");
    fiber(s, "server", () -> ch.receive());
    s.run();
    assertThat(s.dumpParked()).contains("\"server\"").contains("waiting on Channel[requests, capacity 0]");
    assertThat(s.deadlockReport()).startsWith("System is deadlocked").contains("Channel[requests, capacity 0]");
    ch.close();
    assertQuiescent(s);
  }

  @Test
  void wokenReceiver_queuedWithItsWaiter_namesNoBlocker() {
    Channel<String> ch = Channel.create(0, "requests");
    Fiber server = fiber(s, "server", () -> ch.receive());
    s.run();
    assertThat(server.blocker()).isSameAs(ch);
    assertThat(ch.trySend("x")).isTrue(); // the receiver is queued, still holding its waiter
    assertThat(server.isParked()).isFalse();
    assertThat(server.blocker()).isNull();
    assertThat(server.describe()).doesNotContain("waiting on");
    s.runUntilIdle();
    assertQuiescent(s);
  }

  @Test
  void offFiber_threadSendsToFiber_andFiberSendsToThread() throws Exception {
    try (FiberScheduler loop = FiberScheduler.eventLoop(1)) {
      Channel<Integer> toFiber = Channel.rendezvous();
      Channel<Integer> toThread = Channel.rendezvous();
      Fiber echo = Fiber.builder().scheduler(loop).start(() -> {
        for (int i = 0; i < 100; i++) {
          toThread.send(toFiber.receive() * 2);
        }
      });
      List<Integer> got = new ArrayList<>();
      Continuation.runOnThread(() -> {
        for (int i = 0; i < 100; i++) {
          toFiber.send(i);
          got.add(toThread.receive());
        }
      });
      CspTestSupport.join(echo);
      assertThat(got).hasSize(100).element(99).isEqualTo(198);
    }
  }

  @Test
  void rendezvous_confinedToOneCarrierThenReachedFromAThreadAndAnotherCarrier_sharedAndEachItemOnceInOrder() {
    int rounds = 1_000;
    try (FiberScheduler a = FiberScheduler.eventLoop(1); FiberScheduler b = FiberScheduler.eventLoop(1)) {
      Channel<Integer> ch = Channel.rendezvous();
      Channel<Integer> back = Channel.rendezvous();
      Fiber echo = Fiber.builder().scheduler(a).start(() -> {
        for (;;) {
          back.send(ch.receive() + 1);
        }
      });
      List<Integer> got = new CopyOnWriteArrayList<>();
      SuspendableRunnable pingPong = () -> {
        for (int i = 0; i < rounds; i++) {
          ch.send(i);
          got.add(back.receive() - i);
        }
      };
      CspTestSupport.join(Fiber.builder().scheduler(a).start(pingPong));
      assertThat(ch.slotOwner()).as("used by loop a's fibers only").isInstanceOf(CarrierThread.class);
      assertThat(back.slotOwner()).isSameAs(ch.slotOwner());

      Continuation.runOnThread(pingPong); // this thread makes loop a share both slots
      assertThat(ch.slotOwner()).isNotInstanceOf(CarrierThread.class);
      assertThat(back.slotOwner()).isNotInstanceOf(CarrierThread.class);
      CspTestSupport.join(Fiber.builder().scheduler(b).start(pingPong));
      CspTestSupport.join(Fiber.builder().scheduler(a).start(pingPong));

      assertThat(got).hasSize(4 * rounds).containsOnly(1);
      ch.close();
      assertThat(failureOf(echo)).isInstanceOf(ChannelClosedException.class);
    }
  }

  @Test
  void offFiber_threadToThread_rendezvousAndClose() throws Exception {
    Channel<Integer> ch = Channel.rendezvous();
    AtomicLong sum = new AtomicLong();
    StrandThread receiver = StrandThread.start("receiver", () -> {
      while (true) {
        sum.addAndGet(ch.receive());
      }
    });
    Continuation.runOnThread(() -> {
      for (int i = 1; i <= 1000; i++) {
        ch.send(i);
      }
    });
    ch.close();
    assertThat(receiver.join()).isInstanceOf(ChannelClosedException.class);
    assertThat(sum.get()).isEqualTo(500_500);
  }

  @Test
  void offFiber_interruptedThreadInReceive_throwsFiberCancelledAndUnregisters() throws Exception {
    Channel<Integer> ch = Channel.rendezvous();
    StrandThread t = StrandThread.start("receiver", ch::receive);
    while (t.thread.getState() != Thread.State.WAITING) {
      Thread.onSpinWait();
    }
    t.thread.interrupt();
    assertThat(t.join()).isInstanceOf(FiberCancelledException.class);
    assertThat(ch.trySend(1)).isFalse();
  }

  @Test
  void offFiber_virtualThreads_exchangeWithFibers() throws Exception {
    boolean virtual = CspTestSupport.hasVirtualThreads();
    if (!virtual) {
      System.out.println("virtual threads need JDK 21+: exchanging with platform threads instead");
    }
    try (FiberScheduler loop = FiberScheduler.eventLoop(1)) {
      Channel<Integer> ch = Channel.create(4);
      AtomicLong sum = new AtomicLong();
      List<StrandThread> senders = new ArrayList<>();
      for (int v = 0; v < 4; v++) {
        senders.add(StrandThread.start("virtual-" + v, () -> {
          for (int i = 1; i <= 250; i++) {
            ch.send(i);
          }
        }, virtual));
      }
      Fiber consumer = Fiber.builder().scheduler(loop).start(() -> {
        for (int i = 0; i < 1000; i++) {
          sum.addAndGet(ch.receive());
        }
      });
      for (StrandThread t : senders) {
        assertThat(t.join()).isNull();
      }
      CspTestSupport.join(consumer);
      assertThat(sum.get()).isEqualTo(4 * 250 * 251 / 2);
    }
  }

  // ------------------------------------------------------------------ stress

  @Tag("stress")
  @Test
  void stress_cancelRacingTheSlotFromTheOtherLoop_eachItemDeliveredOnceOrWithdrawn() {
    // A sender fiber waits in the rendezvous slot; the receiver on the other loop takes it while
    // the test thread cancels the sender: the item is delivered exactly when the send returned.
    int rounds = 3_000;
    try (EventLoopScheduler loops = new EventLoopScheduler(2, true)) {
      List<Object> homes = new ArrayList<>();
      loops.group().forEach(homes::add);
      Channel<Integer> ch = Channel.create(0, "slot");
      List<Integer> received = new CopyOnWriteArrayList<>();
      Fiber receiver = Fiber.builder().scheduler(loops).home(homes.get(1))
          .uncaughtExceptionHandler((t, e) -> {}).start(() -> {
            java.util.SplittableRandom random = new java.util.SplittableRandom(1);
            while (true) {
              received.add(ch.receive());
              for (int spin = random.nextInt(200); spin > 0; spin--) {
                Thread.onSpinWait(); // lets the next sender get to the slot first, often
              }
            }
          });
      List<Integer> sent = new ArrayList<>();
      java.util.SplittableRandom random = new java.util.SplittableRandom(2);
      for (int i = 0; i < rounds; i++) {
        int item = i;
        AtomicInteger outcome = new AtomicInteger();
        Fiber sender = Fiber.builder().scheduler(loops).home(homes.get(0)).start(() -> {
          try {
            ch.send(item);
            outcome.set(1);
          } catch (FiberCancelledException e) {
            outcome.set(2);
          }
        });
        for (int spin = random.nextInt(400); spin > 0; spin--) {
          Thread.onSpinWait();
        }
        sender.cancel();
        CspTestSupport.join(sender);
        if (outcome.get() == 1) {
          sent.add(item);
        } else {
          assertThat(outcome.get()).isEqualTo(2);
        }
      }
      ch.close();
      CspTestSupport.join(receiver);
      assertThat(received).containsExactlyElementsOf(sent);
    }
  }

  @Tag("stress")
  @ParameterizedTest(name = "capacity {0}")
  @ValueSource(ints = {0, 1, 16})
  void stress_sharedEndsRacedFromBothEventLoops_everyItemOnceInPerSenderOrder(int capacity) {
    int producers = 4;
    int consumers = 4;
    int perProducer = 20_000;
    try (FiberScheduler loops = FiberScheduler.eventLoop(2)) {
      Channel<long[]> ch = Channel.create(capacity, "raced");
      List<Fiber> senders = new ArrayList<>();
      for (int p = 0; p < producers; p++) {
        long pid = p;
        senders.add(Fiber.builder().scheduler(loops).start(() -> {
          for (int i = 0; i < perProducer; i++) {
            ch.send(new long[] {pid, i});
          }
        }));
      }
      Map<Long, AtomicInteger> counts = new ConcurrentHashMap<>();
      List<String> orderViolations = new CopyOnWriteArrayList<>();
      List<Fiber> receivers = new ArrayList<>();
      for (int c = 0; c < consumers; c++) {
        receivers.add(Fiber.builder().scheduler(loops).uncaughtExceptionHandler((t, e) -> {}).start(() -> {
          long[] last = new long[producers];
          java.util.Arrays.fill(last, -1);
          while (true) {
            long[] item = ch.receive();
            int p = (int) item[0];
            if (item[1] <= last[p]) {
              orderViolations.add(p + ":" + last[p] + ">=" + item[1]);
            }
            last[p] = item[1];
            counts.computeIfAbsent(item[0] * perProducer + item[1], k -> new AtomicInteger()).incrementAndGet();
          }
        }));
      }
      senders.forEach(CspTestSupport::join);
      while (counts.size() < producers * perProducer) {
        Thread.onSpinWait();
      }
      ch.close();
      for (Fiber r : receivers) {
        assertThat(failureOf(r)).isInstanceOf(ChannelClosedException.class);
      }
      assertThat(orderViolations).isEmpty();
      assertThat(counts).hasSize(producers * perProducer);
      assertThat(counts.values()).allMatch(n -> n.get() == 1);
    }
  }

  @Tag("stress")
  @Test
  void stress_manyThreadsSendingToTheSameFibers_exactSum() throws Exception {
    int threads = 6;
    int perThread = 20_000;
    Channel<Integer> ch = Channel.rendezvous();
    AtomicLong sum = new AtomicLong();
    AtomicLong received = new AtomicLong();
    threadsFeedingFibers(3, () -> {
      while (true) {
        sum.addAndGet(ch.receive());
        received.incrementAndGet();
      }
    }, threads, "sender", () -> {
      for (int i = 1; i <= perThread; i++) {
        ch.send(i);
      }
    }, ch::close); // the receivers end with ChannelClosedException
    assertThat(received.get()).isEqualTo((long) threads * perThread);
    assertThat(sum.get()).isEqualTo((long) threads * perThread * (perThread + 1) / 2);
  }

  @Tag("stress")
  @Test
  void stress_ringUnderWorkStealing_fibersMigrateAndTokenCountIsExact() {
    long deadline = System.nanoTime() + 8_000_000_000L;
    AtomicLong migrations = new AtomicLong();
    try (FiberScheduler steal = FiberScheduler.workStealing(2)) {
      do {
        ring(steal, migrations); // migration is likely, not certain, in one round
      } while (migrations.get() == 0 && System.nanoTime() < deadline);
    }
    assertThat(migrations.get()).as("fibers that resumed on another worker").isPositive();
  }

  private static void ring(FiberScheduler steal, AtomicLong migrations) {
    int n = 64;
    int tokens = 8;
    int hops = 2_000;
    List<Channel<Integer>> ring = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      ring.add(Channel.create(0));
    }
    AtomicLong delivered = new AtomicLong();
    Channel<Integer> done = Channel.create(tokens);
    List<Fiber> nodes = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      Channel<Integer> in = ring.get(i);
      Channel<Integer> out = ring.get((i + 1) % n);
      nodes.add(Fiber.builder().scheduler(steal).uncaughtExceptionHandler((t, e) -> {}).start(() -> {
        while (true) {
          Thread before = Thread.currentThread();
          int left = in.receive();
          if (Thread.currentThread() != before) {
            migrations.incrementAndGet();
          }
          delivered.incrementAndGet();
          if (left == 0) {
            done.send(0);
          } else {
            out.send(left - 1);
          }
        }
      }));
    }
    Continuation.runOnThread(() -> {
      for (int t = 0; t < tokens; t++) {
        ring.get(t * (n / tokens)).send(hops);
      }
      for (int t = 0; t < tokens; t++) {
        done.receive();
      }
    });
    ring.forEach(Channel::close);
    nodes.forEach(CspTestSupport::join);
    assertThat(delivered.get()).isEqualTo((long) tokens * (hops + 1));
  }

  @Test
  void receive_blockingRepeatedlyOnACarrier_recyclesWaitersAndDeliversEachItem() {
    try (FiberScheduler loop = FiberScheduler.eventLoop(1)) {
      Channel<String> ch = Channel.rendezvous();
      List<String> got = new CopyOnWriteArrayList<>();
      Map<Waiter, Boolean> spares = Collections.synchronizedMap(new java.util.IdentityHashMap<>());
      Fiber receiver = fiber(loop, "receiver", () -> {
        for (int i = 0; i < 100; i++) {
          got.add(ch.receive());
          Waiter spare = ((CarrierThread) Thread.currentThread()).spareWaiter;
          assertThat(spare.item).isNull(); // the spare does not keep the last item alive
          spares.put(spare, true);
        }
      });
      Fiber sender = fiber(loop, "sender", () -> {
        for (int i = 0; i < 100; i++) {
          ch.send("item " + i);
        }
      });
      CspTestSupport.join(receiver);
      CspTestSupport.join(sender);
      assertThat(failureOf(receiver)).isNull();
      assertThat(got).hasSize(100).first().isEqualTo("item 0");
      assertThat(got).last().isEqualTo("item 99");
      // The pair's blocked sends and receives take turns with two waiters: none is made per operation.
      assertThat(spares.size()).isBetween(1, 2);
    }
  }

  @Test
  void send_waitingSendsClaimedOneByOne_eachDeliversItsOwnItem() {
    Channel<Integer> ch = Channel.rendezvous();
    fiber(s, "sender", () -> {
      for (int i = 1; i <= 3; i++) {
        ch.send(i);
      }
      ch.close();
    });
    List<Integer> got = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      s.runUntilIdle(); // the sender waits with item i + 1
      fiber(s, "receiver " + i, () -> got.add(ch.receive()));
    }
    s.runUntilIdle();
    assertThat(got).containsExactly(1, 2, 3);
    assertThat(ch.isClosed()).isTrue();
    assertQuiescent(s);
  }

  @Test
  void close_wakesWaitersThatCompletedEarlierOperations_eachThrowsOnce() {
    Channel<Integer> ch = Channel.rendezvous();
    List<String> outcomes = new CopyOnWriteArrayList<>();
    for (int i = 0; i < 3; i++) {
      int id = i;
      fiber(s, "receiver " + i, () -> {
        ch.send(-1); // first a completed operation
        try {
          ch.receive();
          outcomes.add(id + " received");
        } catch (ChannelClosedException e) {
          outcomes.add(id + " closed");
        }
      });
    }
    fiber(s, "drain", () -> {
      for (int i = 0; i < 3; i++) {
        ch.receive();
      }
    });
    s.runUntilIdle();
    ch.close();
    s.runUntilIdle();
    assertThat(outcomes).containsExactlyInAnyOrder("0 closed", "1 closed", "2 closed");
    assertQuiescent(s);
  }
}
