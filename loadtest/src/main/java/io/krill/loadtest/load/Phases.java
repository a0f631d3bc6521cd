package io.krill.loadtest.load;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The run's phases and the request tickets that bound them: a connection takes a ticket
 * before each request, so that a phase issues exactly its request bound, and the ticket's
 * phase decides where the answer is counted. Time bounds are checked on every ticket and by
 * the driver's poll, so a phase also ends when no connection asks.
 *
 * <p>Threading: {@link #acquire} is lock-free on its common path (a volatile read of the
 * phase, one atomic add on the phase's ticket counter, a time check), because every request
 * of every carrier takes a ticket: a shared monitor there cost a cache-line transfer and,
 * under contention, a lock inflation per request. Phase changes and the timestamps are
 * synchronized. Nothing here suspends; connection fibers on any carrier and the driver
 * thread call it.
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
  /** Tickets asked for in each phase; may overshoot the limit, whose excess was never issued. */
  private final AtomicLong warmupAsked = new AtomicLong();
  private final AtomicLong measureAsked = new AtomicLong();
  private volatile long warmupStart;
  private volatile long measureStart;
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

  long warmupStart() {
    return warmupStart;
  }

  long measureStart() {
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
  long acquire(int want, long now) {
    for (;;) {
      int p = phase;
      AtomicLong asked;
      long limit;
      if (p == WARMUP) {
        if (!timeOnlyWarmup && now - warmupStart >= warmupNanos) {
          advance(now);
          continue;
        }
        asked = warmupAsked;
        limit = warmupLimit;
      } else if (p == MEASURE) {
        if (now - measureStart >= measureNanos) {
          advance(now);
          if (phase == MEASURE) {
            return (long) p << 32; // cannot happen: the time bound moves MEASURE on
          }
          continue;
        }
        asked = measureAsked;
        limit = measureLimit;
      } else {
        return (long) p << 32;
      }
      long before = asked.getAndAdd(want);
      long n = Math.max(0, Math.min(want, limit - before));
      if (before + want >= limit) {
        // The last ticket of a bound ends the phase at once, not at the next request.
        advance(now);
      }
      if (n > 0) {
        return ((long) p << 32) | n;
      }
      if (phase == p) {
        return (long) p << 32; // a bound that does not end its phase (the idle warm-up): nothing left
      }
    }
  }

  /** Moves on when a bound of the current phase is reached. */
  synchronized void advance(long now) {
    if (phase == WARMUP && !timeOnlyWarmup
        && (stopRequested || now - warmupStart >= warmupNanos || warmupAsked.get() >= warmupLimit)) {
      measureStart = now;
      phase = MEASURE;
      stopRequested = false;
    }
    if (phase == MEASURE && (stopRequested || now - measureStart >= measureNanos || measureAsked.get() >= measureLimit)) {
      doneAt = now;
      phase = DONE;
    }
  }
}
