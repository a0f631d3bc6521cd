package io.krill.jcstress;

import io.krill.fibers.Channel;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * A value sent on a buffered channel is received exactly once: by the racing receiver or,
 * if it came too early, from the buffer afterwards. Result: sent, taken by the receiver, left
 * in the buffer.
 */
@JCStressTest
@Outcome(id = "1, 1, 0", expect = Expect.ACCEPTABLE, desc = "the receiver took it")
@Outcome(id = "1, 0, 1", expect = Expect.ACCEPTABLE, desc = "the receiver came first; it stayed buffered")
@Outcome(id = "1, 1, 1", expect = Expect.FORBIDDEN, desc = "received twice")
@Outcome(id = "1, 0, 0", expect = Expect.FORBIDDEN, desc = "lost")
@Outcome(expect = Expect.FORBIDDEN, desc = "anything else")
@State
public class ChannelHandOverTest {
  private final Channel<Integer> channel = Channel.create(1);

  @Actor
  public void sender(III_Result r) {
    r.r1 = channel.trySend(42) ? 1 : 0;
  }

  @Actor
  public void receiver(III_Result r) {
    Integer x = channel.tryReceive();
    r.r2 = x == null ? 0 : x == 42 ? 1 : -1;
  }

  @Arbiter
  public void drain(III_Result r) {
    Integer x = channel.tryReceive();
    r.r3 = x == null ? 0 : x == 42 ? 1 : -1;
  }
}
