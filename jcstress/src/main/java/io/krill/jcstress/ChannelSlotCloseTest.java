package io.krill.jcstress;

import io.krill.fibers.Channel;
import io.krill.fibers.ChannelClosedException;
import io.krill.fibers.Continuation;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * The lock-free rendezvous slot against a close: a blocking send and a blocking receive meet
 * in the slot (whichever comes first parks there) while a third thread closes the channel.
 * Either the value crosses exactly once and both return, or both throw
 * {@link ChannelClosedException}; never one without the other. Result: send (1 sent, 2
 * closed), receive (42, or 0 closed).
 */
@JCStressTest
@Outcome(id = "1, 42", expect = Expect.ACCEPTABLE, desc = "handed over before the close")
@Outcome(id = "2, 0", expect = Expect.ACCEPTABLE, desc = "the close came first; both ends saw it")
@Outcome(id = "1, 0", expect = Expect.FORBIDDEN, desc = "the send returned, the value was lost")
@Outcome(id = "2, 42", expect = Expect.FORBIDDEN, desc = "the send failed, the value was delivered")
@Outcome(expect = Expect.FORBIDDEN, desc = "anything else")
@State
public class ChannelSlotCloseTest {
  private final Channel<Integer> channel = Channel.rendezvous();

  @Actor
  public void sender(II_Result r) {
    try {
      Continuation.runOnThread(() -> channel.send(42));
      r.r1 = 1;
    } catch (ChannelClosedException e) {
      r.r1 = 2;
    }
  }

  @Actor
  public void receiver(II_Result r) {
    try {
      r.r2 = Continuation.callOnThread(channel::receive);
    } catch (ChannelClosedException e) {
      r.r2 = 0;
    }
  }

  @Actor
  public void closer() {
    channel.close();
  }
}
