package io.krill.fibers;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class LocalRunQueueTest {
  private final DeterministicScheduler scheduler = FiberScheduler.deterministic();
  private final LocalRunQueue queue = new LocalRunQueue(new CarrierThread(() -> { }, "test-carrier"));

  private Fiber fiber() {
    return Fiber.builder().scheduler(scheduler).unstarted(() -> { });
  }

  @Test
  void addAndPoll_throughOneAndSeveralFibers_firstInFirstOut() {
    Fiber a = fiber();
    Fiber b = fiber();
    Fiber c = fiber();
    Fiber d = fiber();
    List<Fiber> polled = new ArrayList<>();

    queue.add(a); // one fiber: no tail
    polled.add(queue.poll());
    assertThat(queue.isEmpty()).isTrue();

    queue.add(a);
    queue.add(b); // one to two
    queue.add(c);
    polled.add(queue.poll()); // three to two
    polled.add(queue.poll()); // two to one
    queue.add(d); // one to two again
    polled.add(queue.poll());
    polled.add(queue.poll());
    assertThat(queue.poll()).isNull();
    assertThat(queue.isEmpty()).isTrue();

    assertThat(polled).containsExactly(a, a, b, c, d);
    assertThat(List.of(a, b, c, d)).allSatisfy(f -> assertThat(f.aux).isNull());
  }

  @Test
  void addAndPoll_fibersHoldingTheirChannelWaiter_interleavedInOrderAndWaitersKept() {
    List<Fiber> added = new ArrayList<>();
    List<Object> parkedOn = new ArrayList<>();
    List<Fiber> polled = new ArrayList<>();
    for (int round = 0; round < 3; round++) { // entries of both kinds meet as head, tail and link
      for (int i = 0; i < 7; i++) {
        Fiber f = fiber();
        Object blocker = (added.size() % 3 == 0) ? "blocker " + added.size() : new Waiter(f, null);
        f.aux = blocker;
        added.add(f);
        parkedOn.add(blocker);
        queue.add(f);
      }
      for (int i = 0; i < 3; i++) {
        polled.add(queue.poll());
      }
    }
    Fiber f;
    while ((f = queue.poll()) != null) {
      polled.add(f);
    }

    assertThat(polled).containsExactlyElementsOf(added);
    assertThat(queue.isEmpty()).isTrue();
    for (int i = 0; i < added.size(); i++) {
      Object blocker = parkedOn.get(i);
      if (blocker instanceof Waiter) { // the channel operation reads its waiter back when it resumes
        assertThat(added.get(i).aux).isSameAs(blocker);
        assertThat(((Waiter) blocker).runLink).isNull();
      } else { // a runnable fiber's other blocker is dropped: aux was its link
        assertThat(added.get(i).aux).isNull();
      }
    }
  }

  @Test
  void handOff_aheadOfTheQueue_displacedFiberGoesToTheTail() {
    Fiber a = fiber();
    Fiber b = fiber();
    Fiber c = fiber();

    queue.add(a);
    queue.handOff(b);
    queue.handOff(c); // b is displaced behind a

    assertThat(queue.poll()).isSameAs(c);
    assertThat(queue.poll()).isSameAs(a);
    assertThat(queue.poll()).isSameAs(b);
    assertThat(queue.isEmpty()).isTrue();
  }
}
