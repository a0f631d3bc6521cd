package io.krill.loadtest.continuations;

import io.krill.fibers.VirtualThreads;
import io.krill.loadtest.internal.BatchWorker;
import java.util.concurrent.locks.LockSupport;

/**
 * Two virtual threads that hand a turn to each other with park/unpark, each parked under
 * {@code depth} frames. One hand-over is one switch: the running thread unparks the other,
 * parks (unmounts), and the carrier mounts the other. With one carrier
 * ({@code -Djdk.virtualThreadScheduler.parallelism=1}) no OS thread switch is involved.
 */
final class VirtualThreadPingPong implements AutoCloseable {
  private final BatchWorker ping;
  private final Thread pong;
  private volatile int turn;
  private volatile boolean closed;

  VirtualThreadPingPong(int depth) {
    ping = new BatchWorker(loop -> VirtualThreads.unstarted(() -> Frames.below(depth, loop)));
    pong = VirtualThreads.start(() -> Frames.below(depth, this::answer));
  }

  /**
   * Runs {@code switches} switches on the virtual threads and waits for them.
   *
   * @param switches an even number
   */
  void run(int switches) {
    ping.run(() -> serve(switches / 2));
  }

  private void serve(int roundTrips) {
    Thread other = pong;
    for (int i = 0; i < roundTrips; i++) {
      turn = 1;
      LockSupport.unpark(other);
      while (turn != 0) {
        LockSupport.park(this);
      }
    }
  }

  private void answer() {
    Thread other = ping.thread();
    while (!closed) {
      if (turn != 1) {
        LockSupport.park(this);
        continue;
      }
      turn = 0;
      LockSupport.unpark(other);
    }
  }

  @Override
  public void close() {
    closed = true;
    LockSupport.unpark(pong);
    ping.close();
  }
}
