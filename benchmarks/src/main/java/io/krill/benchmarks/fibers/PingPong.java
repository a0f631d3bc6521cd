package io.krill.benchmarks.fibers;

import io.krill.fibers.Fiber;
import io.krill.fibers.Suspendable;

/**
 * Two strands that hand a turn to each other with park/unpark: one hand-over is one one-way
 * park-to-unpark latency (the running strand unparks the other and parks; the other runs).
 * The same code runs on fibers ({@link Fiber#park()} suspends) and threads (it parks the thread).
 */
final class PingPong {
  private volatile int turn;
  private volatile boolean closed;
  private volatile Object ping;
  private Object pong;

  /** The answering side: runs until {@link #close()}; spawn it and pass its strand to {@link #pong(Object)}. */
  void answer() throws Suspendable {
    while (!closed) {
      if (turn != 1) {
        Fiber.park();
        continue;
      }
      turn = 0;
      Model.wake(ping);
    }
  }

  /** @param strand the strand that runs {@link #answer()} */
  void pong(Object strand) {
    pong = strand;
  }

  /**
   * Runs {@code handOvers} hand-overs (half as many round trips) from the current strand.
   *
   * @param handOvers an even number
   */
  void serve(int handOvers) throws Suspendable {
    ping = Model.currentStrand();
    Object other = pong;
    for (int i = handOvers / 2; i > 0; i--) {
      turn = 1;
      Model.wake(other);
      while (turn != 0) {
        Fiber.park();
      }
    }
  }

  /** Ends the answering side. */
  void close() {
    closed = true;
    if (pong != null) {
      Model.wake(pong);
    }
  }
}
