package io.krill.jcstress;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * The lock-free rendezvous slot against a cancellation: a fiber's send waits in the slot
 * while a thread's receive takes it and another thread cancels the fiber, so the taker's CAS
 * races the fiber's withdrawal. The value crosses exactly once: if the send returned, the
 * receiver has it; if the send threw the cancellation, the receiver got nothing (the canceller
 * then closes the channel to end the receive). Result: send (1 sent, 2 cancelled, 3 still
 * running after {@link Patience#SECONDS}), receive (42, or 0 closed).
 */
@JCStressTest
@Outcome(id = "1, 42", expect = Expect.ACCEPTABLE, desc = "handed over; the cancellation waits for the next park")
@Outcome(id = "2, 0", expect = Expect.ACCEPTABLE, desc = "withdrawn before the receive took it")
@Outcome(id = "2, 42", expect = Expect.FORBIDDEN, desc = "withdrawn, yet delivered")
@Outcome(expect = Expect.FORBIDDEN, desc = "anything else: a value lost or a wake-up lost")
@State
public class ChannelSlotCancelTest {
  private final SlotSender slot = new SlotSender();

  @Actor
  public void receiver(II_Result r) {
    r.r2 = slot.receive();
  }

  @Actor
  public void canceller(II_Result r) {
    slot.fiber.cancel();
    int s = slot.sendOutcome();
    if (s != 1) {
      slot.channel.close(); // nothing will come: end the receive
    }
    r.r1 = s;
  }
}
