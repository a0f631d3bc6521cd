package io.krill.loadtest.load;

import io.krill.fibers.Fiber;
import io.krill.fibers.FiberCountDownLatch;
import io.krill.fibers.FiberScheduler;
import io.krill.fibers.FiberSemaphore;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;

/**
 * The load generator: one fiber per connection on krill's event-loop scheduler, speaking HTTP
 * or raw echo through netio, in a closed loop, an open loop at a constant rate, or holding
 * idle connections. Start a run with {@link #start} (or {@link #run} to wait for it); it first
 * opens every connection, then runs the warm-up and the measured phase, each to its time or
 * request bound, whichever comes first, then lets outstanding requests finish for up to the
 * request timeout and closes every connection.
 *
 * <p>Threading: a run has its own scheduler and a driver thread; the methods of this class
 * are thread-safe and block the calling thread (they do not suspend).
 */
public final class LoadGenerator {
  /** How often the driver checks the phases' time bounds. */
  static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(2);
  /**
   * How often the driver looks for requests older than the request timeout. Connections do
   * not arm a timer per request (a timer per read was a priority-queue insert and removal
   * per request on the carrier); the driver closes an overdue connection instead, and its
   * fiber counts the lost requests as timeouts.
   */
  static final long TIMEOUT_SCAN_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

  final LoadSpec spec;
  final Phases phases;
  final FiberScheduler scheduler;
  final FiberSemaphore connectSlots;
  final FiberCountDownLatch go = FiberCountDownLatch.create(1);
  final FiberCountDownLatch idleEnd = FiberCountDownLatch.create(1);
  final CountDownLatch connectsDone;
  final CountDownLatch primed;
  final CountDownLatch finished;
  /** One tally per carrier thread that recorded; merged by the driver. */
  private final Queue<Tally> tallies = new ConcurrentLinkedQueue<>();
  private final ThreadLocal<Tally> tally = ThreadLocal.withInitial(() -> {
    Tally t = new Tally();
    tallies.add(t);
    return t;
  });
  /** The requests of one exchange, encoded once: {@code pipeline} copies of the request, back to back. */
  final byte[] requestBytes;
  final int requestLength;
  final LongAdder connectErrors = new LongAdder();
  final LongAdder resetErrors = new LongAdder();
  final LongAdder timeoutErrors = new LongAdder();
  final LongAdder non2xx = new LongAdder();
  final LongAdder badResponses = new LongAdder();
  final LongAdder unfinished = new LongAdder();
  final LongAdder open = new LongAdder();
  private final List<Connection> connections;
  private final Consumer<String> events;
  private final CountDownLatch measuring = new CountDownLatch(1);
  private final Thread driver;
  private volatile String firstError = "";
  private volatile LoadResult result;
  private volatile Throwable failure;
  private volatile boolean closing;

  private LoadGenerator(LoadSpec spec, Consumer<String> events) {
    this.spec = spec;
    this.events = events;
    this.phases = new Phases(spec, spec.mode == LoadSpec.Mode.IDLE);
    this.scheduler = FiberScheduler.eventLoop(spec.threads);
    this.connectSlots = FiberSemaphore.create(spec.connectsInFlight);
    this.connectsDone = new CountDownLatch(spec.connections);
    this.primed = new CountDownLatch(spec.connections);
    this.finished = new CountDownLatch(spec.connections);
    this.connections = new ArrayList<>(spec.connections);
    byte[] one = ("GET " + spec.path + " HTTP/1.1\r\nhost: " + spec.host + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
    this.requestLength = one.length;
    this.requestBytes = new byte[one.length * spec.pipeline];
    for (int i = 0; i < spec.pipeline; i++) {
      System.arraycopy(one, 0, requestBytes, i * one.length, one.length);
    }
    this.driver = new Thread(this::drive, "load-driver");
    driver.setDaemon(true);
  }

  /**
   * Starts a run and returns at once.
   *
   * @param spec what to run
   * @param events receives progress lines on the driver thread: {@code "connected N ms M"},
   *     {@code "phase measure"}, {@code "phase done"}
   * @return the running generator
   */
  public static LoadGenerator start(LoadSpec spec, Consumer<String> events) {
    LoadGenerator g = new LoadGenerator(Objects.requireNonNull(spec, "spec"), Objects.requireNonNull(events, "events"));
    g.driver.start();
    return g;
  }

  /**
   * Runs {@code spec} to its end on the calling thread's behalf.
   *
   * @param spec what to run
   * @return what it measured
   * @throws TimeoutException if the run overstays its bounds by more than a minute (a bug)
   */
  public static LoadResult run(LoadSpec spec) throws TimeoutException, InterruptedException {
    LoadGenerator g = start(spec, line -> { });
    return g.awaitResult(g.longestRun().plusMinutes(1));
  }

  /** @return the longest a run of this spec can take if every bound is honoured */
  Duration longestRun() {
    Duration connect = spec.connectTimeout.multipliedBy(1 + spec.connections / spec.connectsInFlight);
    return connect.plus(spec.warmup).plus(spec.measure).plus(spec.requestTimeout.multipliedBy(3))
        .plusSeconds(10);
  }

  /**
   * Waits for the measured phase to begin (in idle mode: for every connection to be open and primed).
   *
   * @param timeout how long to wait
   * @return true if it began, false on timeout or if the run ended without one
   */
  public boolean awaitMeasuring(Duration timeout) throws InterruptedException {
    return measuring.await(timeout.toNanos(), TimeUnit.NANOSECONDS) && phases.phase() >= Phases.MEASURE;
  }

  /** Ends the current phase early: the warm-up moves on to the measured phase, that one (or an idle hold) ends. */
  public void stop() {
    phases.stop(System.nanoTime());
  }

  /**
   * Waits for the run to end.
   *
   * @param timeout how long to wait
   * @return what it measured
   * @throws TimeoutException if it has not ended in time
   * @throws IllegalStateException if the driver failed (its cause attached)
   */
  public LoadResult awaitResult(Duration timeout) throws TimeoutException, InterruptedException {
    driver.join(Math.max(1, timeout.toMillis()));
    if (driver.isAlive()) {
      throw new TimeoutException("load run still going after " + timeout + ": " + spec);
    }
    if (failure != null) {
      throw new IllegalStateException("load run failed: " + failure, failure);
    }
    return result;
  }

  void error(LongAdder counter, long n, String what) {
    counter.add(n);
    if (firstError.isEmpty()) {
      firstError = what;
    }
  }

  /** @return the calling carrier's tally */
  Tally tally() {
    return tally.get();
  }

  boolean closing() {
    return closing;
  }

  private void drive() {
    try {
      long t0 = System.nanoTime();
      for (int i = 0; i < spec.connections; i++) {
        Connection c = new Connection(this, i);
        connections.add(c);
        Fiber.builder().name("connect-" + i).scheduler(scheduler).start(c::run);
      }
      if (!connectsDone.await(longestRun().toNanos(), TimeUnit.NANOSECONDS)) {
        throw new TimeoutException("connects did not finish");
      }
      events.accept("connected " + open.sum() + " ms " + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0));
      phases.startWarmup(System.nanoTime());
      go.countDown();
      if (spec.mode == LoadSpec.Mode.IDLE) {
        primed.await(spec.warmup.plus(spec.requestTimeout).toNanos(), TimeUnit.NANOSECONDS);
        phases.startMeasure(System.nanoTime());
      }
      awaitPhase(Phases.MEASURE);
      events.accept("phase measure");
      measuring.countDown();
      long connectionsMeasured = open.sum();
      awaitPhase(Phases.DONE);
      idleEnd.countDown();
      events.accept("phase done");
      drain();
      result = collect(connectionsMeasured);
    } catch (Throwable t) {
      failure = t;
      closing = true;
      for (Connection c : connections) {
        c.closeFromDriver();
      }
    } finally {
      measuring.countDown();
      scheduler.close();
    }
  }

  private void awaitPhase(int phase) throws InterruptedException {
    long nextScan = System.nanoTime() + TIMEOUT_SCAN_NANOS;
    while (phases.phase() < phase) {
      long now = System.nanoTime();
      phases.advance(now);
      if (now - nextScan >= 0) {
        closeOverdue(now);
        nextScan = now + TIMEOUT_SCAN_NANOS;
      }
      TimeUnit.NANOSECONDS.sleep(POLL_NANOS);
    }
  }

  /** Closes every connection whose oldest unanswered request is older than the request timeout. */
  private void closeOverdue(long now) {
    long timeout = spec.requestTimeout.toNanos();
    for (Connection c : connections) {
      c.closeIfOverdue(now, timeout);
    }
  }

  /**
   * Lets outstanding requests finish for up to the request timeout (plus one open-loop
   * interval), then closes every connection; requests cut off are counted as unfinished.
   */
  private void drain() throws InterruptedException {
    long interval = spec.mode == LoadSpec.Mode.OPEN ? Connection.intervalNanos(spec) : 0;
    long end = System.nanoTime() + spec.requestTimeout.toNanos() + interval + TimeUnit.SECONDS.toNanos(1);
    while (!finished.await(TIMEOUT_SCAN_NANOS, TimeUnit.NANOSECONDS) && System.nanoTime() - end < 0) {
      closeOverdue(System.nanoTime());
    }
    closing = true;
    for (Connection c : connections) {
      c.closeFromDriver();
    }
    finished.await(5, TimeUnit.SECONDS);
  }

  private LoadResult collect(long connectionsMeasured) {
    LoadResult r = new LoadResult();
    r.connections = connectionsMeasured;
    for (Tally t : tallies) {
      t.addTo(r);
    }
    long last = phases.doneAt();
    for (Connection c : connections) {
      last = Math.max(last, c.lastMeasured);
    }
    r.measuredNanos = Math.max(0, last - phases.measureStart());
    r.connectErrors = connectErrors.sum();
    r.resetErrors = resetErrors.sum();
    r.timeoutErrors = timeoutErrors.sum();
    r.non2xx = non2xx.sum();
    r.badResponses = badResponses.sum();
    r.unfinished = unfinished.sum();
    for (Connection c : connections) {
      r.unfinished += c.outstanding;
    }
    r.firstError = firstError;
    return r;
  }
}
