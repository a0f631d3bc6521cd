package io.krill.jcstress;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * Two carriers that ask each other to share at the same time: channel x is confined to loop
 * A, channel y to loop B (each has a fiber receiving in its slot); a fiber on A sends 1 on y
 * while a fiber on B sends 2 on x. Each waits for the other carrier to share, and runs its own
 * carrier's share requests meanwhile, so neither hangs. Result: the value received on x, on y
 * (0: none within {@link Patience#SECONDS}).
 */
@JCStressTest
@Outcome(id = "2, 1", expect = Expect.ACCEPTABLE, desc = "both handed over")
@Outcome(expect = Expect.FORBIDDEN, desc = "anything else: the carriers waited for each other, or a value was lost")
@State
public class ChannelSlotCrossShareTest {
  private final ConfinedSlot x = new ConfinedSlot(ConfinedSlot.LOOP_A, 1);
  private final ConfinedSlot y = new ConfinedSlot(ConfinedSlot.LOOP_B, 1);

  @Actor
  public void fromA() {
    ConfinedSlot.sendFrom(ConfinedSlot.LOOP_A, y.channel, 1);
  }

  @Actor
  public void fromB() {
    ConfinedSlot.sendFrom(ConfinedSlot.LOOP_B, x.channel, 2);
  }

  @Arbiter
  public void ended(II_Result r) {
    r.r1 = x.received()[0];
    r.r2 = y.received()[0];
  }
}
