package io.krill.fibers;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Enabled;
import jdk.jfr.Event;
import jdk.jfr.FlightRecorder;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.Period;
import jdk.jfr.StackTrace;
import jdk.jfr.Threshold;
import jdk.jfr.Timespan;

/**
 * The JDK Flight Recorder events of the fiber runtime, all in category {@code krill}, and the
 * one-line hooks the runtime calls to emit them.
 *
 * <p>Each hook allocates its event and asks {@link Event#isEnabled()}; with no recording that
 * enables the event, the JIT removes the allocation (escape analysis) and the hook costs one
 * load and a branch. The hooks that run per fiber (start, end, park) first ask whether the
 * recorder was ever initialized: escape analysis does not always remove the allocation (a
 * server's fiber start is not always inlined), and a process that never records then allocates
 * no event at all.
 */
final class FiberEvents {
  private FiberEvents() {}

  /**
   * The fields of a fiber's start and end: which fiber, on which scheduler. Abstract, so the
   * recorder registers no event of its own for it.
   */
  abstract static class Lifecycle extends Event {
    @Label("Fiber Id") long fiberId;
    @Label("Fiber Name") String fiberName;
    @Label("Scheduler") String scheduler;

    /* Called only once isEnabled() said yes: a process that does not record never gets here. */
    final void of(Fiber f) {
      fiberId = f.id();
      fiberName = f.name();
      scheduler = f.sched().name();
    }
  }

  /** A fiber started; off by default, like {@code jdk.VirtualThreadStart}. */
  @Name("io.krill.FiberStart")
  @Label("Fiber Start")
  @Category("krill")
  @Enabled(false)
  @StackTrace(false)
  static final class Start extends Lifecycle {}

  /** A fiber finished; off by default, like {@code jdk.VirtualThreadEnd}. */
  @Name("io.krill.FiberEnd")
  @Label("Fiber End")
  @Category("krill")
  @Enabled(false)
  @StackTrace(false)
  static final class End extends Lifecycle {
    @Label("Failed") boolean failed;
  }

  /**
   * A fiber slice held its carrier longer than the scheduler's watchdog threshold: the analogue
   * of {@code jdk.VirtualThreadPinned}. Emitted by the watchdog, so only for schedulers with a
   * watchdog; the carrier's stack at the time is in {@code carrierStack}.
   */
  @Name("io.krill.CarrierHeld")
  @Label("Carrier Held")
  @Description("A fiber held its carrier thread past the watchdog threshold instead of parking")
  @Category("krill")
  @StackTrace(false)
  static final class CarrierHeld extends Event {
    @Label("Fiber Name") String fiberName;
    @Label("Carrier") String carrier;
    @Label("Scheduler") String scheduler;
    @Label("Held") @Timespan(Timespan.NANOSECONDS) long held;
    @Label("Threshold") @Timespan(Timespan.NANOSECONDS) long threshold;
    @Label("Carrier Stack") String carrierStack;
  }

  /** A fiber stayed parked longer than the threshold; committed when it resumes, with its stack. */
  @Name("io.krill.FiberPark")
  @Label("Fiber Park")
  @Category("krill")
  @Threshold("20 ms")
  static final class Park extends Event {
    @Label("Fiber Id") long fiberId;
    @Label("Fiber Name") String fiberName;
    @Label("Blocker") String blocker;
  }

  /** A call waited in the blocking pool's queue longer than the threshold before a thread ran it. */
  @Name("io.krill.BlockingQueueWait")
  @Label("Blocking Pool Queue Wait")
  @Category("krill")
  @Threshold("10 ms")
  @StackTrace(false)
  static final class BlockingQueueWait extends Event {
    @Label("Fiber Name") String fiberName;
    @Label("Queued Calls") int queued;
  }

  /** One scheduler's counters, every second while a recording runs. */
  @Name("io.krill.SchedulerStatistics")
  @Label("Fiber Scheduler Statistics")
  @Category("krill")
  @Period("1 s")
  @StackTrace(false)
  static final class SchedulerStatistics extends Event {
    @Label("Scheduler") String scheduler;
    @Label("Tracking") boolean tracking;
    @Label("Live Fibers") int live;
    @Label("Parked Fibers") int parked;
    @Label("Runnable Fibers") int runnable;
    @Label("Slices") long slices;
    @Label("Steals") long steals;
    @Label("Blocking Pool Threads") int blockingThreads;
    @Label("Blocking Pool Queue") int blockingQueue;
  }

  static void started(Fiber f) {
    if (!FlightRecorder.isInitialized()) {
      return;
    }
    Start e = new Start();
    if (e.isEnabled()) {
      e.of(f);
      e.commit();
    }
  }

  static void ended(Fiber f, boolean failed) {
    if (!FlightRecorder.isInitialized()) {
      return;
    }
    End e = new End();
    if (e.isEnabled()) {
      e.of(f);
      e.failed = failed;
      e.commit();
    }
  }

  /* In-flight park events, only while a recording enables them. */
  private static final java.util.Map<Fiber, Park> PARKS = new java.util.concurrent.ConcurrentHashMap<>();
  /* Set once a park event was ever in flight: every park's end reads this, not the map's size (CHM.isEmpty sums its counters). */
  private static volatile boolean parkEvents;

  static void parkStarted(Fiber f, Object blocker) {
    if (!FlightRecorder.isInitialized()) {
      return;
    }
    Park e = new Park();
    if (e.isEnabled()) {
      e.begin();
      e.fiberId = f.id();
      e.fiberName = f.name();
      e.blocker = blocker == null ? null : String.valueOf(blocker);
      if (!parkEvents) {
        parkEvents = true; // before the put: a fiber's park ends after its start, on a thread its resumption was handed to
      }
      PARKS.put(f, e);
    }
  }

  static void parkEnded(Fiber f) {
    if (!parkEvents || PARKS.isEmpty()) {
      return;
    }
    Park e = PARKS.remove(f);
    if (e != null) {
      e.end();
      if (e.shouldCommit()) {
        e.commit();
      }
    }
  }

  static void carrierHeld(FiberScheduler s, String fiber, Thread carrier, long heldNanos, long thresholdNanos,
      String stack) {
    CarrierHeld e = new CarrierHeld();
    if (e.isEnabled()) {
      e.fiberName = fiber;
      e.carrier = carrier.getName();
      e.scheduler = s.name();
      e.held = heldNanos;
      e.threshold = thresholdNanos;
      e.carrierStack = stack;
      e.commit();
    }
  }

  /** @return a started queue-wait event, or null when none is recorded */
  static BlockingQueueWait queueWaitStarted(Fiber f) {
    BlockingQueueWait e = new BlockingQueueWait();
    if (!e.isEnabled()) {
      return null;
    }
    e.begin();
    e.fiberName = f.name();
    e.queued = Blocking.queued();
    return e;
  }

  static void queueWaitEnded(BlockingQueueWait e) {
    if (e != null) {
      e.end();
      if (e.shouldCommit()) {
        e.commit();
      }
    }
  }

  /* Runs on the recorder's periodic thread: one event per live threaded scheduler. */
  static void emitStatistics() {
    for (FiberScheduler s : Supervision.schedulers()) {
      SchedulerStatistics e = new SchedulerStatistics();
      e.scheduler = s.name();
      e.tracking = s.tracking;
      int[] counts = Supervision.counts(s);
      e.live = counts[0];
      e.parked = counts[1];
      e.runnable = counts[2];
      e.slices = Supervision.slices(s);
      e.steals = s.steals();
      e.blockingThreads = Blocking.poolSize();
      e.blockingQueue = Blocking.queued();
      e.commit();
    }
  }
}
