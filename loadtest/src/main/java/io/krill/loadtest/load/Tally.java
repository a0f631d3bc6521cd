package io.krill.loadtest.load;

import org.HdrHistogram.Histogram;

/**
 * What one carrier thread measured: latency and service-time histograms and the answered
 * counts. Each carrier records into its own tally, so a request costs no shared atomic
 * update and no cache-line transfer between cores; the driver merges the tallies at the
 * end of the run.
 *
 * <p>Threading: recorded by one carrier, read by the driver; both under the tally's own
 * monitor, which is uncontended while the run goes on and gives the driver a consistent view.
 */
final class Tally {
  final Histogram latency = new Histogram(LoadResult.HIGHEST_TRACKABLE_NANOS, 3);
  final Histogram serviceTime = new Histogram(LoadResult.HIGHEST_TRACKABLE_NANOS, 3);
  long warmup;
  long measured;

  synchronized void measured(long latencyNanos, long serviceNanos) {
    latency.recordValue(Math.min(latencyNanos, LoadResult.HIGHEST_TRACKABLE_NANOS));
    serviceTime.recordValue(Math.min(serviceNanos, LoadResult.HIGHEST_TRACKABLE_NANOS));
    measured++;
  }

  synchronized void warmup() {
    warmup++;
  }

  /** Adds this tally into {@code r}. */
  synchronized void addTo(LoadResult r) {
    r.latency.add(latency);
    r.serviceTime.add(serviceTime);
    r.requests += measured;
    r.warmupRequests += warmup;
  }
}
