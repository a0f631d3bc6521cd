package io.krill.fibers;

import io.krill.fibers.internal.CarrierAccess;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * Where fibers run: a set of carrier threads and a timer.
 *
 * <ul>
 *   <li>{@link #eventLoop(int)}: one Netty event loop per carrier, the default. A fiber has a
 *       home loop; a fiber spawned on a loop stays on it; an unpark from another thread
 *       enqueues on the home loop, so I/O completions resume fibers with no hand-off.
 *   <li>{@link #workStealing(int)}: for CPU-bound fiber trees. A fiber woken by a fiber runs
 *       next on the same worker (communicating fibers stay together); idle workers steal.
 *   <li>{@link #deterministic()}: one thread (the caller's) and a virtual clock, for exact
 *       tests and simulations.
 * </ul>
 *
 * <p>Thread-safe. {@link #close()} stops the carriers; fibers still parked are abandoned.
 */
public abstract class FiberScheduler implements AutoCloseable {
  /**
   * Default: whether threaded schedulers keep a registry of live fibers for dumps and deadlock
   * reports ({@code -Dkrill.fibers.track=true}; the {@code bin/krill} launcher turns it on). Off
   * by default: it costs a map entry per fiber (about 40 bytes) and two map operations per spawn.
   * The deterministic scheduler always tracks.
   */
  public static final boolean DEFAULT_TRACKING = Boolean.getBoolean("krill.fibers.track");

  static final AtomicInteger SEQUENCE = new AtomicInteger();

  static {
    CarrierAccess.register(new EventLoopScheduler.Access()); // how spi.Carriers reaches the carriers
  }

  /** Every scheduler created in this JVM, weakly, with its creation number (for test invariants). */
  static final java.util.Map<FiberScheduler, Integer> CREATED =
      java.util.Collections.synchronizedMap(new java.util.WeakHashMap<>());

  private final String name;
  final int serial;
  volatile boolean tracking; // turned on, never off: see track()
  final Set<Fiber> live = ConcurrentHashMap.newKeySet();
  final LongAdder timers = new LongAdder();
  final LongAdder pendingOperations = new LongAdder();
  private volatile Duration watchdogThreshold;
  private volatile java.util.function.Consumer<String> watchdogReporter;

  /**
   * Creates a scheduler.
   *
   * @param name the name, used for thread names and reports
   * @param tracking whether to keep a registry of live fibers
   */
  protected FiberScheduler(String name, boolean tracking) {
    this.serial = SEQUENCE.incrementAndGet();
    this.name = name + "-" + serial;
    CREATED.put(this, serial);
    this.tracking = tracking;
    if (getClass() != DeterministicScheduler.class) {
      Supervision.created(this);
    }
  }

  /**
   * Creates an event-loop scheduler.
   *
   * @param threads the number of loops, at least 1
   * @return the scheduler
   */
  public static FiberScheduler eventLoop(int threads) {
    checkThreads(threads);
    return new EventLoopScheduler(threads, DEFAULT_TRACKING);
  }

  /**
   * Creates a work-stealing scheduler.
   *
   * @param threads the number of workers, at least 1
   * @return the scheduler
   */
  public static FiberScheduler workStealing(int threads) {
    checkThreads(threads);
    return new WorkStealingScheduler(threads, DEFAULT_TRACKING);
  }

  /** @return a new deterministic scheduler with a virtual clock starting at zero */
  public static DeterministicScheduler deterministic() {
    return new DeterministicScheduler();
  }

  /** @return the process-wide event-loop scheduler, one loop per core, created on first use */
  public static FiberScheduler defaultScheduler() {
    return DefaultScheduler.INSTANCE;
  }

  /* Initialization-on-demand holder: the JVM creates the scheduler once, on the first call. */
  private static final class DefaultScheduler {
    static final FiberScheduler INSTANCE =
        new EventLoopScheduler(Runtime.getRuntime().availableProcessors(), DEFAULT_TRACKING);
  }

  private static void checkThreads(int threads) {
    Checks.inRange("threads", threads, 1, 4096);
  }

  /** @return the scheduler's name */
  public final String name() {
    return name;
  }

  @Override
  public String toString() {
    return name;
  }

  // ------------------------------------------------------------------ SPI

  /**
   * Makes {@code fiber} runnable: a carrier will call {@link Fiber#run()} soon.
   *
   * @param fiber a fiber of this scheduler
   */
  protected abstract void submit(Fiber fiber);

  /**
   * Chooses the home of a new fiber (e.g. an event loop), or null if homes mean nothing here.
   * A home must implement this package's {@code Home} interface and name this scheduler: the
   * fiber finds its scheduler through it. Schedulers outside this package have no homes.
   *
   * @return scheduler data stored in the fiber
   */
  protected Object assignHome() {
    return null;
  }

  /**
   * Validates a home given explicitly to a fiber builder.
   *
   * @param home the requested home
   * @return the home to store (a {@code Home} of this scheduler)
   * @throws IllegalArgumentException if this scheduler has no such home
   */
  protected Object checkHome(Object home) {
    throw new IllegalArgumentException("home: " + home + " (expected: none; " + name + " has no homes)");
  }

  /**
   * Runs {@code task} (quickly, on any thread of the scheduler) after {@code delayNanos}.
   *
   * @param task what to run
   * @param delayNanos the delay
   * @return cancels the timer; answers true if that prevented the task from running
   */
  protected abstract java.util.function.BooleanSupplier schedule(Runnable task, long delayNanos);

  /**
   * Returns the home a fiber was given by {@link #assignHome()}.
   *
   * @param fiber a fiber of this scheduler
   * @return its home, or null
   */
  protected static Object homeOf(Fiber fiber) {
    Object h = fiber.home;
    return h instanceof FiberScheduler ? null : h; // a fiber without a home keeps its scheduler there
  }

  /** @return this scheduler's clock in nanoseconds; virtual for the deterministic scheduler */
  public long nanoTime() {
    return System.nanoTime();
  }

  /** @return true when the calling thread is one of this scheduler's carriers */
  protected abstract boolean isCarrier();

  /** Stops the carriers. */
  @Override
  public abstract void close();

  // ------------------------------------------------------------------ bookkeeping

  final void registered(Fiber f) {
    if (tracking) {
      live.add(f);
    }
  }

  final void finished(Fiber f) {
    if (tracking) {
      live.remove(f);
    }
  }

  /**
   * Records that an operation that will wake a fiber is under way outside the scheduler
   * (a blocking call, I/O), so the deadlock detector does not report its waiter.
   */
  public final void operationStarted() {
    pendingOperations.increment();
  }

  /** Records the end of an operation started with {@link #operationStarted()}. */
  public final void operationFinished() {
    pendingOperations.decrement();
  }

  /*
   * Turns tracking on for fibers started from now on (runMain's deadlock detection, the MBean).
   * Fibers started before are not in the registry: the detector cannot see them.
   */
  final void track() {
    tracking = true;
  }

  /** @return how many tasks idle carriers stole from others (work stealing only) */
  long steals() {
    return 0;
  }

  /** @return the live fibers, or an empty list when tracking is off */
  public final List<Fiber> liveFibers() {
    return tracking ? new ArrayList<>(live) : List.of();
  }

  /**
   * Describes a deadlock: every live fiber is parked, and no timer, blocking call or I/O
   * operation can wake any of them.
   *
   * @return the report, or null when there is no deadlock or tracking is off
   */
  public final String deadlockReport() {
    if (!tracking || live.isEmpty()) {
      return null;
    }
    if (timers.sum() != 0 || pendingOperations.sum() != 0) {
      return null;
    }
    // No parked-fiber counter (it cost two atomic updates per switch): a scan that stops at the
    // first runnable fiber, without copying the registry, is the cheap pre-check instead.
    for (Fiber f : live) {
      if (!f.isParked()) {
        return null;
      }
    }
    List<Fiber> fibers = liveFibers();
    for (Fiber f : fibers) {
      if (!f.isParked()) {
        return null;
      }
    }
    StringBuilder sb = new StringBuilder("System is deadlocked: all ").append(fibers.size())
        .append(" fibers of ").append(name).append(" are parked and nothing can wake them\n");
    for (Fiber f : fibers) {
      sb.append(f.describe());
    }
    return sb.toString();
  }

  /**
   * Describes every parked fiber: name, what it waits on, and its suspended frames.
   *
   * @return the dump; empty when tracking is off
   */
  public final String dumpParked() {
    StringBuilder sb = new StringBuilder();
    for (Fiber f : liveFibers()) {
      if (f.isParked()) {
        sb.append(f.describe());
      }
    }
    return sb.toString();
  }

  /**
   * Reports, once per slice, any fiber that holds a carrier longer than {@code threshold}
   * (for example because it called {@code Thread.sleep} or blocking JDK I/O).
   *
   * @param threshold how long a slice may run; null turns the watchdog off
   */
  public final void watchdog(Duration threshold) {
    watchdog(threshold, Watchdog::log);
  }

  /**
   * Like {@link #watchdog(Duration)}, with the reports going to {@code reporter}.
   *
   * @param threshold how long a slice may run; null turns the watchdog off
   * @param reporter receives each report (fiber name, time held, carrier stack)
   */
  public final void watchdog(Duration threshold, java.util.function.Consumer<String> reporter) {
    if (threshold != null) {
      Checks.positive("threshold", threshold);
    }
    this.watchdogReporter = java.util.Objects.requireNonNull(reporter, "reporter");
    this.watchdogThreshold = threshold;
    if (threshold != null) {
      Watchdog.watch(this);
    }
  }

  final Duration watchdogThreshold() {
    return watchdogThreshold;
  }

  final java.util.function.Consumer<String> watchdogReporter() {
    return watchdogReporter;
  }

  /** @return the carrier threads, for the watchdog */
  protected abstract List<Thread> carriers();
}
