package io.krill.fibers;

/**
 * The management interface of one threaded {@link FiberScheduler}, registered in the platform
 * MBean server as {@code io.krill:type=FiberScheduler,name="<scheduler name>"} while the
 * scheduler is open (turn off with {@code -Dkrill.fibers.jmx=false}). Fiber counts need fiber
 * tracking and read -1 without it. Thread-safe.
 */
public interface FiberSchedulerMXBean {
  /** @return the scheduler's name */
  String getName();

  /** @return true once the scheduler was closed or collected */
  boolean isClosed();

  /** @return whether the scheduler keeps a registry of its live fibers */
  boolean isTracking();

  /** @param on true turns tracking on for fibers started from now on; false is refused */
  void setTracking(boolean on);

  /** @return live fibers, or -1 without tracking */
  int getLiveFibers();

  /** @return parked fibers, or -1 without tracking */
  int getParkedFibers();

  /** @return runnable fibers waiting for a carrier, or -1 without tracking */
  int getRunnableFibers();

  /** @return fiber slices started on the scheduler's carriers */
  long getSlices();

  /** @return tasks stolen between workers (work-stealing scheduler; 0 for others) */
  long getSteals();

  /** @return the scheduler's carrier threads */
  int getCarriers();

  /** @return threads of the process-wide blocking pool ({@link Blocking}) */
  int getBlockingPoolSize();

  /** @return calls waiting in the blocking pool's queue */
  int getBlockingQueueSize();

  /** @return the watchdog threshold in milliseconds, 0 when the watchdog is off */
  long getWatchdogThresholdMillis();

  /** @param millis the new watchdog threshold in milliseconds; 0 turns the watchdog off */
  void setWatchdogThresholdMillis(long millis);

  /** @return the deadlock report, or null when the scheduler is not deadlocked (or does not track) */
  String getDeadlockReport();

  /** @return every live fiber: name, id, state, what a parked fiber waits on, and its frames */
  String dumpFibers();

  /** @return the same as JSON: one object per fiber with id, name, state, blocker and stack */
  String dumpFibersJson();
}
