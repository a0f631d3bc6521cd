package io.krill.jcstress;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * The lock-free rendezvous slot against a close: a fiber's blocking send and a thread's
 * blocking receive meet in the slot (whichever comes first parks there) while another thread
 * closes the channel. Either the value crosses exactly once and both return, or both throw
 * {@link io.krill.fibers.ChannelClosedException}; never one without the other. Result: send
 * (1 sent, 2 closed, 3 still running after {@link Patience#SECONDS}), receive (42, or 0 closed).
 */
@JCStressTest
@Outcome(id = "1, 42", expect = Expect.ACCEPTABLE, desc = "handed over before the close")
@Outcome(id = "2, 0", expect = Expect.ACCEPTABLE, desc = "the close came first; both ends saw it")
@Outcome(id = "1, 0", expect = Expect.FORBIDDEN, desc = "the send returned, the value was lost")
@Outcome(id = "2, 42", expect = Expect.FORBIDDEN, desc = "the send failed, the value was delivered")
@Outcome(expect = Expect.FORBIDDEN, desc = "anything else: a wake-up lost")
@State
public class ChannelSlotCloseTest {
  private final SlotSender slot = new SlotSender();

  @Actor
  public void receiver(II_Result r) {
    r.r2 = slot.receive();
  }

  @Actor
  public void closer() {
    slot.channel.close();
  }

  @Arbiter
  public void sendEnded(II_Result r) {
    r.r1 = slot.sendOutcome();
  }
}
