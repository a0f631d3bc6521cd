package io.krill.loadtest.load;

/**
 * The run's phases and the request tickets that bound them: a connection takes a ticket
 * before each request, so that a phase issues exactly its request bound, and the ticket's
 * phase decides where the answer is counted. Time bounds are checked on every ticket and by
 * the driver's poll, so a phase also ends when no connection asks.
 *
 * <p>Threading: every method is synchronized and never suspends; connection fibers on any
 * carrier and the driver thread call it.
 */
final class Phases {
  static final int CONNECTING = 0;
  static final int WARMUP = 1;
  static final int MEASURE = 2;
  static final int DONE = 3;

  private final long warmupNanos;
  private final long warmupLimit;
  private final long measureNanos;
  private final long measureLimit;
  private final boolean timeOnlyWarmup;
  private volatile int phase = CONNECTING;
  private long warmupIssued;
  private long measureIssued;
  private long warmupStart;
  private long measureStart;
  private long doneAt;
  private boolean stopRequested;

  /**
   * @param idle true in idle mode: the warm-up (priming every connection) ends only when the
   *     driver calls {@link #startMeasure}, not on its own bounds
   */
  Phases(LoadSpec spec, boolean idle) {
    warmupNanos = spec.warmup.toNanos();
    warmupLimit = spec.warmupRequests;
    measureNanos = spec.measure.toNanos();
    measureLimit = spec.measureRequests;
    timeOnlyWarmup = idle;
  }

  int phase() {
    return phase;
  }

  synchronized void startWarmup(long now) {
    warmupStart = now;
    phase = WARMUP;
    advance(now);
  }

  synchronized void startMeasure(long now) {
    if (phase < MEASURE) {
      measureStart = now;
      phase = MEASURE;
    }
  }

  /** Ends the current phase early: the warm-up moves on to the measured phase, that one to done. */
  synchronized void stop(long now) {
    stopRequested = true;
    advance(now);
  }

  synchronized long warmupStart() {
    return warmupStart;
  }

  synchronized long measureStart() {
    return measureStart;
  }

  synchronized long doneAt() {
    return doneAt;
  }

  /**
   * Takes up to {@code want} tickets of the current phase.
   *
   * @return the phase in the high 32 bits and the number of tickets (0: the run is over) in the low ones
   */
  synchronized long acquire(int want, long now) {
    advance(now);
    int p = phase;
    long n;
    if (p == WARMUP) {
      n = Math.min(want, warmupLimit - warmupIssued);
      warmupIssued += n;
    } else if (p == MEASURE) {
      n = Math.min(want, measureLimit - measureIssued);
      measureIssued += n;
    } else {
      n = 0;
    }
    if (n > 0) {
      // The last ticket of a bound ends the phase at once, not at the next request.
      advance(now);
    }
    return ((long) p << 32) | n;
  }

  /** Moves on when a bound of the current phase is reached. */
  synchronized void advance(long now) {
    if (phase == WARMUP && !timeOnlyWarmup
        && (stopRequested || now - warmupStart >= warmupNanos || warmupIssued >= warmupLimit)) {
      measureStart = now;
      phase = MEASURE;
      stopRequested = false;
    }
    if (phase == MEASURE && (stopRequested || now - measureStart >= measureNanos || measureIssued >= measureLimit)) {
      doneAt = now;
      phase = DONE;
    }
  }
}
