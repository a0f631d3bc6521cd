package io.krill.jcstress;

import io.krill.fibers.Continuation;
import io.krill.fibers.Fiber;
import io.krill.fibers.FiberScheduler;
import java.time.Duration;
import java.util.concurrent.TimeoutException;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * A thread joining a fiber, the fiber's first {@link Fiber#id()} and the fiber's end, all at
 * once (the end on the fiber's loop, right after the other actor starts it; two actors, so the
 * test runs on two CPUs). The joiners' stack and the fiber's rarely used data share one word
 * (the stack moves into the data when they are first needed), so a join that pushes itself
 * while the data are installed, or while the fiber closes the stack, must neither be lost nor
 * lose the id. Result: (1 if the join returned within {@link Patience#SECONDS}, 1 if
 * {@code id()} gave the same id twice).
 */
@JCStressTest
@Outcome(id = "1, 1", expect = Expect.ACCEPTABLE, desc = "joined; the id is stable")
@Outcome(id = "0, .*", expect = Expect.FORBIDDEN, desc = "the joiner was lost: never woken")
@Outcome(id = ".*, 0", expect = Expect.FORBIDDEN, desc = "the id changed")
@State
public class FiberJoinNameTest {
  private static final FiberScheduler LOOP = FiberScheduler.eventLoop(1);

  private final Fiber fiber = Fiber.builder().scheduler(LOOP).unstarted(() -> { });

  @Actor
  public void joiner(II_Result r) {
    r.r1 = Continuation.callOnThread(() -> {
      try {
        fiber.join(Duration.ofSeconds(Patience.SECONDS));
        return 1;
      } catch (TimeoutException e) {
        return 0;
      }
    });
  }

  @Actor
  public void starterAndNamer(II_Result r) {
    fiber.start(); // the fiber ends on its loop's thread while this asks for its id
    long id = fiber.id();
    r.r2 = id == fiber.id() ? 1 : 0;
  }
}
