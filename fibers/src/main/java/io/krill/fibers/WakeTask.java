package io.krill.fibers;

/** A timer task that unparks a parked fiber once; counted in its scheduler's timers while pending. */
final class WakeTask implements Runnable {
  private final Fiber fiber;

  WakeTask(Fiber fiber) {
    this.fiber = fiber;
  }

  @Override
  public void run() {
    FiberScheduler fs = fiber.sched();
    if (fs.tracking) {
      fs.timers.decrement();
    }
    fiber.unpark();
  }
}
