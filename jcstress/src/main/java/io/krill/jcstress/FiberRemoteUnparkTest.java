package io.krill.jcstress;

import io.krill.fibers.Fiber;
import io.krill.fibers.FiberScheduler;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.I_Result;

/**
 * A remote unpark racing a fiber's park on its own carrier is never lost. The fiber's body is
 * one park; one actor starts it (its carrier then runs it and commits the park with plain
 * stores), the other unparks it from another thread at the same time: before the start, while
 * it runs, between its park and the commit, or after. In every order the fiber finishes.
 * Result: 1 if it finished within {@link Patience#SECONDS}.
 */
@JCStressTest
@Outcome(id = "1", expect = Expect.ACCEPTABLE, desc = "the park ended")
@Outcome(id = "0", expect = Expect.FORBIDDEN, desc = "wake-up lost: the fiber stayed parked")
@State
public class FiberRemoteUnparkTest {
  private static final FiberScheduler LOOP = FiberScheduler.eventLoop(1);

  private final Fiber fiber = Fiber.builder().scheduler(LOOP).unstarted(Fiber::park);

  @Actor
  public void starter() {
    fiber.start();
  }

  @Actor
  public void waker() {
    fiber.unpark();
  }

  @Arbiter
  public void finished(I_Result r) {
    r.r1 = Patience.finishes(fiber) ? 1 : 0;
  }
}
