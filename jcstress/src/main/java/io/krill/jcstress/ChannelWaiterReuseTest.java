package io.krill.jcstress;

import io.krill.fibers.Channel;
import io.krill.fibers.Continuation;
import io.krill.fibers.Fiber;
import io.krill.fibers.FiberScheduler;
import io.krill.fibers.Suspendable;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * A fiber reuses one waiter for its blocking channel operations: two senders on other threads
 * race to hand their values to a fiber that receives twice on a rendezvous channel, so the
 * second receive reuses the waiter the first sender has just claimed. Each value arrives
 * exactly once. Result: the two values in the order received.
 */
@JCStressTest
@Outcome(id = "1, 2", expect = Expect.ACCEPTABLE, desc = "first sender first")
@Outcome(id = "2, 1", expect = Expect.ACCEPTABLE, desc = "second sender first")
@Outcome(expect = Expect.FORBIDDEN, desc = "a value lost, duplicated or torn")
@State
public class ChannelWaiterReuseTest {
  private static final FiberScheduler LOOP = FiberScheduler.eventLoop(1);

  private final Channel<Integer> channel = Channel.rendezvous();
  private final int[] received = new int[2];
  private final Fiber receiver = Fiber.builder().scheduler(LOOP).start(this::receiveTwice);

  private void receiveTwice() throws Suspendable {
    received[0] = channel.receive();
    received[1] = channel.receive();
  }

  @Actor
  public void first() {
    Continuation.runOnThread(() -> channel.send(1));
  }

  @Actor
  public void second() {
    Continuation.runOnThread(() -> channel.send(2));
  }

  @Arbiter
  public void arrived(II_Result r) {
    Patience.finishes(receiver);
    r.r1 = received[0];
    r.r2 = received[1];
  }
}
