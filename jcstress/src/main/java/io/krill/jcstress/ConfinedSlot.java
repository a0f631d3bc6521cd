package io.krill.jcstress;

import io.krill.fibers.Channel;
import io.krill.fibers.Fiber;
import io.krill.fibers.FiberScheduler;
import io.krill.fibers.Suspendable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The shared set-up of the confined-slot tests: a rendezvous channel whose slot a fiber on an
 * event loop claimed (its first access, a {@code tryReceive}) before the actors start, and
 * that fiber then receiving {@code count} values, so that it usually waits in the slot, put
 * there with a plain store.
 */
final class ConfinedSlot {
  /** Two single-carrier schedulers: two carriers that can ask each other to share. */
  static final FiberScheduler LOOP_A = FiberScheduler.eventLoop(1);
  static final FiberScheduler LOOP_B = FiberScheduler.eventLoop(1);

  /** The rendezvous channel, confined to the receiving fiber's carrier. */
  final Channel<Integer> channel = Channel.rendezvous();
  /** The receiving fiber. */
  final Fiber receiver;
  private final int[] received;

  ConfinedSlot(FiberScheduler loop, int count) {
    received = new int[count];
    CountDownLatch claimed = new CountDownLatch(1);
    receiver = Fiber.builder().scheduler(loop).start(() -> receive(claimed));
    try {
      if (!claimed.await(Patience.SECONDS, TimeUnit.SECONDS)) { // a carrier stuck in an earlier round
        throw new IllegalStateException("the receiving fiber did not start within " + Patience.SECONDS + " s");
      }
    } catch (InterruptedException e) {
      throw new IllegalStateException(e);
    }
  }

  private void receive(CountDownLatch claimed) throws Suspendable {
    channel.tryReceive(); // the first access: the slot is now confined to this carrier
    claimed.countDown();
    for (int i = 0; i < received.length; i++) {
      received[i] = channel.receive();
    }
  }

  /** @return the values received, in order (0 for none), once the receiver finished, or all 0 after {@link Patience#SECONDS} */
  int[] received() {
    return Patience.finishes(receiver) ? received : new int[received.length];
  }

  /** Starts a fiber on {@code loop} that sends {@code value} on {@code channel}. */
  static Fiber sendFrom(FiberScheduler loop, Channel<Integer> channel, int value) {
    return Fiber.builder().scheduler(loop).start(() -> channel.send(value));
  }
}
