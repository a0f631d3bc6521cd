package io.krill.jcstress;

import io.krill.fibers.Channel;
import io.krill.fibers.ChannelClosedException;
import io.krill.fibers.Continuation;
import io.krill.fibers.Fiber;
import io.krill.fibers.FiberCancelledException;
import io.krill.fibers.FiberScheduler;
import io.krill.fibers.Suspendable;
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
  private static final FiberScheduler LOOP = FiberScheduler.eventLoop(1);

  private final Channel<Integer> channel = Channel.rendezvous();
  private volatile int sent;
  private final Fiber sender = Fiber.builder().scheduler(LOOP).start(this::send);

  private void send() throws Suspendable {
    try {
      channel.send(42);
      sent = 1;
    } catch (FiberCancelledException e) {
      sent = 2;
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
  public void canceller(II_Result r) {
    sender.cancel();
    int s = Patience.finishes(sender) ? sent : 3;
    if (s != 1) {
      channel.close(); // nothing will come: end the receive
    }
    r.r1 = s;
  }
}
