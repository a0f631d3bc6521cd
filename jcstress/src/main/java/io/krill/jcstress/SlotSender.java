package io.krill.jcstress;

import io.krill.fibers.Channel;
import io.krill.fibers.ChannelClosedException;
import io.krill.fibers.Continuation;
import io.krill.fibers.Fiber;
import io.krill.fibers.FiberCancelledException;
import io.krill.fibers.FiberScheduler;
import io.krill.fibers.Suspendable;

/**
 * The shared set-up of the rendezvous-slot tests: a fiber on an event loop sends 42 on a
 * rendezvous channel (so it usually waits in the channel's slot), and a thread receives.
 */
final class SlotSender {
  private static final FiberScheduler LOOP = FiberScheduler.eventLoop(1);

  /** The rendezvous channel. */
  final Channel<Integer> channel = Channel.rendezvous();
  /** The sending fiber, started at construction. */
  final Fiber fiber;
  private volatile int sent;

  SlotSender() {
    fiber = Fiber.builder().scheduler(LOOP).start(this::send);
  }

  private void send() throws Suspendable {
    try {
      channel.send(42);
      sent = 1;
    } catch (ChannelClosedException | FiberCancelledException e) {
      sent = 2;
    }
  }

  /** @return 1 if the send returned, 2 if it threw, 3 if the fiber is still running after {@link Patience#SECONDS} */
  int sendOutcome() {
    return Patience.finishes(fiber) ? sent : 3;
  }

  /** @return the value received on the calling thread, or 0 if the receive saw the channel closed */
  int receive() {
    try {
      return Continuation.callOnThread(channel::receive);
    } catch (ChannelClosedException e) {
      return 0;
    }
  }
}
