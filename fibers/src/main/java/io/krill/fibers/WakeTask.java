package io.krill.fibers;

/** A timer task that unparks a parked fiber once; counted in its scheduler's timers while pending. */
final class WakeTask implements Runnable {
  private final Fiber fiber;
  private final boolean counted;

  WakeTask(Fiber fiber, boolean counted) {
    this.fiber = fiber;
    this.counted = counted;
  }

  @Override
  public void run() {
    if (counted) {
      fiber.sched().timers.decrement();
    }
    fiber.unpark();
  }
}
