package io.krill.jcstress;

import io.krill.fibers.Fiber;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/** How long an arbiter waits for a test's fiber before it reports what it sees. */
final class Patience {
  /** The longest wait for a fiber to finish; a fiber that needs longer lost a wake-up. */
  static final long SECONDS = 10;

  private Patience() {}

  /** @return true once {@code fiber} is done, false if it is still not done after {@link #SECONDS} */
  static boolean finishes(Fiber fiber) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(SECONDS);
    while (!fiber.isDone() && System.nanoTime() - deadline < 0) {
      LockSupport.parkNanos(10_000);
    }
    return fiber.isDone();
  }
}
