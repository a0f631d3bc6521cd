package io.krill.jcstress;

import io.krill.fibers.Channel;
import io.krill.fibers.ChannelClosedException;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * A send racing a close either succeeds, and the value stays receivable after the close, or
 * fails with {@link ChannelClosedException}, and nothing is delivered. Result: send (1 sent,
 * 2 closed), close (1 closed it), delivered afterwards (1 yes, 0 closed and empty).
 */
@JCStressTest
@Outcome(id = "1, 1, 1", expect = Expect.ACCEPTABLE, desc = "sent before the close; still delivered")
@Outcome(id = "2, 1, 0", expect = Expect.ACCEPTABLE, desc = "the send saw the close; nothing delivered")
@Outcome(id = "1, 1, 0", expect = Expect.FORBIDDEN, desc = "the send succeeded, the value was lost")
@Outcome(id = "2, 1, 1", expect = Expect.FORBIDDEN, desc = "the send failed, the value was delivered")
@Outcome(expect = Expect.FORBIDDEN, desc = "anything else")
@State
public class ChannelCloseSendTest {
  private final Channel<Integer> channel = Channel.create(1);

  @Actor
  public void sender(III_Result r) {
    try {
      r.r1 = channel.trySend(42) ? 1 : 0;
    } catch (ChannelClosedException e) {
      r.r1 = 2;
    }
  }

  @Actor
  public void closer(III_Result r) {
    r.r2 = channel.close() ? 1 : 0;
  }

  @Arbiter
  public void drain(III_Result r) {
    try {
      Integer x = channel.tryReceive();
      r.r3 = x == null ? -1 : x == 42 ? 1 : -2;
    } catch (ChannelClosedException e) {
      r.r3 = 0;
    }
  }
}
