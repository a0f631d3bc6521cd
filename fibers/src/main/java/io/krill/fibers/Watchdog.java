package io.krill.fibers;

import java.time.Duration;
import java.util.Collections;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One daemon thread that samples the carriers of watched schedulers and reports a fiber
 * that holds its carrier past the scheduler's threshold, once per slice.
 */
final class Watchdog {
  private static final Logger LOG = LoggerFactory.getLogger(Watchdog.class);
  private static final long PERIOD_MILLIS = 5;
  private static final Set<FiberScheduler> WATCHED = Collections.newSetFromMap(new WeakHashMap<>());
  /* Per carrier: the slice number last seen, when it was first seen, whether it was reported. */
  private static final Map<Thread, long[]> SEEN = new WeakHashMap<>();
  private static Thread thread;

  private Watchdog() {}

  static synchronized void watch(FiberScheduler s) {
    WATCHED.add(s);
    if (thread == null) {
      thread = new Thread(Watchdog::loop, "krill-watchdog");
      thread.setDaemon(true);
      thread.start();
    }
  }

  static void log(String report) {
    LOG.warn(report);
  }

  private static void loop() {
    while (true) {
      try {
        Thread.sleep(PERIOD_MILLIS);
      } catch (InterruptedException e) {
        return;
      }
      FiberScheduler[] schedulers;
      synchronized (Watchdog.class) {
        schedulers = WATCHED.toArray(new FiberScheduler[0]);
      }
      for (FiberScheduler s : schedulers) {
        Duration threshold = s.watchdogThreshold();
        if (threshold != null) {
          check(s, threshold.toNanos());
        }
      }
    }
  }

  private static void check(FiberScheduler s, long thresholdNanos) {
    long now = System.nanoTime();
    for (Thread t : s.carriers()) {
      Object owner;
      long slice;
      if (t instanceof CarrierThread) {
        CarrierThread c = (CarrierThread) t;
        owner = c.sliceOwner();
        slice = c.slices();
      } else { // a stealing worker, or a carrier of a scheduler built outside this package
        Supervision.SliceRecord r = Supervision.recordOf(t);
        if (r == null) {
          continue;
        }
        owner = r.owner;
        slice = r.slices;
      }
      long start;
      synchronized (Watchdog.class) {
        long[] seen = SEEN.get(t);
        if (seen == null || seen[0] != slice) {
          SEEN.put(t, new long[] {slice, now, 0});
          continue;
        }
        if (owner == null || seen[2] != 0 || now - seen[1] < thresholdNanos) {
          continue;
        }
        seen[2] = 1;
        start = seen[1];
      }
      String fiber = owner instanceof Fiber ? ((Fiber) owner).name() : String.valueOf(owner);
      StringBuilder sb = new StringBuilder("krill watchdog: fiber \"")
          .append(fiber)
          .append("\" has held carrier ").append(t.getName()).append(" for ")
          .append((now - start) / 1_000_000).append(" ms (threshold ")
          .append(thresholdNanos / 1_000_000).append(" ms); it blocks instead of parking:");
      StringBuilder stack = new StringBuilder();
      for (StackTraceElement e : t.getStackTrace()) {
        stack.append("\n    at ").append(e);
      }
      sb.append(stack);
      FiberEvents.carrierHeld(s, fiber, t, now - start, thresholdNanos, stack.toString());
      s.watchdogReporter().accept(sb.toString());
    }
  }
}
