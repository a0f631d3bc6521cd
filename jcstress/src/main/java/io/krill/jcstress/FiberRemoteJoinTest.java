package io.krill.jcstress;

import io.krill.fibers.Fiber;
import io.krill.fibers.FiberScheduler;
import java.time.Duration;
import java.util.concurrent.TimeoutException;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.I_Result;

/**
 * A fiber on one event loop joins a fiber that ends on another loop at the same moment. A
 * finishing fiber reads its joiners' stack with a plain load and no fence, so a joiner on
 * another carrier that pushes itself just then must reach the finished fiber's loop through
 * its JOIN request, or sleep forever. One actor starts the target (it ends on its loop at
 * once), the other starts the joining fiber on the second loop. Result: 1 if the join returned
 * within {@link Patience#SECONDS}.
 */
@JCStressTest
@Outcome(id = "1", expect = Expect.ACCEPTABLE, desc = "joined")
@Outcome(id = "0", expect = Expect.FORBIDDEN, desc = "the joiner was lost: never woken")
@State
public class FiberRemoteJoinTest {
  private static final FiberScheduler LOOP_A = FiberScheduler.eventLoop(1);
  private static final FiberScheduler LOOP_B = FiberScheduler.eventLoop(1);

  private final Fiber target = Fiber.builder().scheduler(LOOP_A).unstarted(() -> { });
  private volatile int joined;
  private final Fiber joiner = Fiber.builder().scheduler(LOOP_B).unstarted(() -> {
    try {
      target.join(Duration.ofSeconds(Patience.SECONDS));
      joined = 1;
    } catch (TimeoutException e) {
      joined = 0;
    }
  });

  @Actor
  public void ender() {
    target.start();
  }

  @Actor
  public void joinerOnAnotherLoop() {
    joiner.start();
  }

  @Arbiter
  public void result(I_Result r) {
    r.r1 = Patience.finishes(joiner) ? joined : 0;
  }
}
