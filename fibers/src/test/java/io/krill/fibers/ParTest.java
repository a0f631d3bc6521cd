package io.krill.fibers;

import static io.krill.fibers.CspTestSupport.assertQuiescent;
import static io.krill.fibers.CspTestSupport.failureOf;
import static io.krill.fibers.CspTestSupport.fiber;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class ParTest extends CspTest {
  @Test
  void run_allChildrenFinish_thenParentContinues() {
    fiber(s, "parent", () -> {
      Par.run(
          () -> {
            Fiber.sleep(Duration.ofMillis(20));
            log.add("slow");
          },
          () -> log.add("fast"));
      log.add("joined@" + s.nanoTime() / 1_000_000);
    });
    s.run();
    assertThat(log).containsExactly("fast", "slow", "joined@20");
    assertQuiescent(s);
  }

  @Test
  void run_children_areNamedAfterTheParent() {
    fiber(s, "parent", () -> Par.run(
        () -> log.add(Fiber.current().name()),
        () -> log.add(Fiber.current().name())));
    s.run();
    assertThat(log).containsExactly("parent/par-0", "parent/par-1");
    assertQuiescent(s);
  }

  @Test
  void run_childFails_siblingsCancelled_firstFailureRethrownWithOthersSuppressed() {
    Fiber parent = fiber(s, "parent", () -> Par.run(
        () -> {
          try {
            Fiber.sleep(Duration.ofHours(1));
          } finally {
            log.add("sleeper finally");
          }
        },
        () -> {
          Fiber.yieldNow();
          throw new IllegalStateException("boom");
        },
        () -> {
          Fiber.yieldNow();
          Fiber.yieldNow();
          throw new IllegalArgumentException("also");
        }));
    s.run();
    Throwable failure = failureOf(parent);
    assertThat(failure).isInstanceOf(IllegalStateException.class).hasMessage("boom");
    assertThat(failure.getSuppressed()).hasSize(1);
    assertThat(failure.getSuppressed()[0]).isInstanceOf(IllegalArgumentException.class).hasMessage("also");
    assertThat(log).containsExactly("sleeper finally");
    assertThat(s.nanoTime()).as("nobody waited for the hour").isZero();
    assertQuiescent(s);
  }

  @Test
  void run_childBlockedOnChannel_isCancelledByASiblingFailure() {
    Channel<String> never = Channel.create(0, "never");
    Fiber parent = fiber(s, "parent", () -> Par.run(
        () -> never.receive(),
        () -> {
          throw new IllegalStateException("stop");
        }));
    s.run();
    assertThat(failureOf(parent)).hasMessage("stop");
    assertThat(never.trySend("x")).as("the cancelled receiver unregistered").isFalse();
    assertQuiescent(s);
  }

  @Test
  void run_parentCancelled_cancelsChildrenWaitsForThemAndThrows() {
    Fiber parent = fiber(s, "parent", () -> {
      try {
        Par.run(
            () -> {
              try {
                Fiber.sleep(Duration.ofHours(1));
              } finally {
                log.add("child finally");
              }
            },
            () -> Fiber.park("forever"));
      } finally {
        log.add("parent finally");
      }
    });
    s.runUntilIdle();
    parent.cancel();
    s.run();
    assertThat(failureOf(parent)).isInstanceOf(FiberCancelledException.class).hasMessageContaining("parent");
    assertThat(log).containsExactly("child finally", "parent finally");
    assertQuiescent(s);
  }

  @Test
  void run_nested_innerFailureReachesOuterParent() {
    Fiber parent = fiber(s, "parent", () -> Par.run(
        () -> Par.run(() -> Fiber.park("inner sibling"), () -> {
          throw new IllegalStateException("deep");
        }),
        () -> Fiber.sleep(Duration.ofMinutes(1))));
    s.run();
    assertThat(failureOf(parent)).hasMessage("deep");
    assertQuiescent(s);
  }

  @Test
  void run_noChildren_returnsAtOnce() {
    fiber(s, "parent", () -> {
      Par.run();
      log.add("done");
    });
    s.run();
    assertThat(log).containsExactly("done");
    assertQuiescent(s);
  }

  @Test
  void offFiber_threadRunsParOnAScheduler() {
    try (FiberScheduler loops = FiberScheduler.eventLoop(2)) {
      AtomicLong sum = new AtomicLong();
      List<SuspendableRunnable> kids = new ArrayList<>();
      for (int i = 1; i <= 100; i++) {
        long v = i;
        kids.add(() -> {
          Fiber.yieldNow();
          sum.addAndGet(v);
        });
      }
      Continuation.runOnThread(() -> Par.run(loops, kids));
      assertThat(sum.get()).isEqualTo(5050);
      List<String> names = Collections.synchronizedList(new ArrayList<>());
      assertThatThrownBy(() -> Continuation.runOnThread(() -> Par.run(loops, List.of(
          () -> names.add(Thread.currentThread().getName()),
          () -> {
            throw new IllegalStateException("from a child");
          }))))
          .isInstanceOf(IllegalStateException.class).hasMessage("from a child");
    }
  }
}
