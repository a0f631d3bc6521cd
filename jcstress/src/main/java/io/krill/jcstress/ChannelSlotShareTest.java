package io.krill.jcstress;

import io.krill.fibers.Continuation;
import io.krill.fibers.Fiber;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * A slot confined to one carrier, reached from elsewhere: a fiber on loop A, which owns the
 * slot, receives twice (waiting in the slot with plain stores) while a plain thread and a
 * fiber on loop B each send once. Both must ask loop A to share the slot first. Each value
 * arrives exactly once and both senders return. Result: the two values received (0: none
 * within {@link Patience#SECONDS}), and 1 if the other carrier's send returned.
 */
@JCStressTest
@Outcome(id = {"42, 43, 1", "43, 42, 1"}, expect = Expect.ACCEPTABLE, desc = "both values handed over once")
@Outcome(expect = Expect.FORBIDDEN, desc = "anything else: a value lost or doubled, or a hang")
@State
public class ChannelSlotShareTest {
  private final ConfinedSlot slot = new ConfinedSlot(ConfinedSlot.LOOP_A, 2);
  private Fiber sender;

  @Actor
  public void thread() {
    Continuation.runOnThread(() -> slot.channel.send(42));
  }

  @Actor
  public void otherCarrier() {
    sender = ConfinedSlot.sendFrom(ConfinedSlot.LOOP_B, slot.channel, 43);
  }

  @Arbiter
  public void ended(III_Result r) {
    int[] v = slot.received();
    r.r1 = v[0];
    r.r2 = v[1];
    r.r3 = Patience.finishes(sender) ? 1 : 0;
  }
}
