package io.krill.jcstress;

import io.krill.fibers.Channel;
import io.krill.fibers.Continuation;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * A rendezvous hand-over between two parked threads: whichever of sender and receiver comes
 * first waits for the other, and the value crosses exactly once. Each actor blocks only until
 * its partner on the same state arrives. Result: send returned, value received.
 */
@JCStressTest
@Outcome(id = "1, 42", expect = Expect.ACCEPTABLE, desc = "handed over")
@Outcome(expect = Expect.FORBIDDEN, desc = "anything else")
@State
public class ChannelRendezvousTest {
  private final Channel<Integer> channel = Channel.rendezvous();

  @Actor
  public void sender(II_Result r) {
    Continuation.runOnThread(() -> channel.send(42));
    r.r1 = 1;
  }

  @Actor
  public void receiver(II_Result r) {
    r.r2 = Continuation.callOnThread(channel::receive);
  }
}
