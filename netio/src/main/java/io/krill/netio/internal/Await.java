package io.krill.netio.internal;

import io.krill.fibers.Strand;
import io.krill.fibers.Suspendable;
import io.netty.util.concurrent.Future;

/** Parks the current strand on a Netty future. Not API. */
public final class Await {
  private Await() {}

  /**
   * Waits until {@code future} is done or {@code deadline} passes.
   *
   * @param future what to wait for
   * @param deadline a {@link System#nanoTime()} deadline, or {@link Long#MAX_VALUE}
   * @return true if the future is done
   * @throws Suspendable never; marks that this method suspends
   */
  public static boolean done(Future<?> future, long deadline) throws Suspendable {
    if (future.isDone()) {
      return true;
    }
    Object me = Strand.current();
    future.addListener(f -> Strand.wake(me));
    while (!future.isDone()) {
      if (!Strand.park(future, deadline)) {
        return future.isDone();
      }
    }
    return true;
  }
}
