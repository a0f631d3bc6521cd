package io.krill.fibers;

import io.netty.channel.IoEventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.SingleThreadIoEventLoop;
import io.netty.util.internal.PlatformDependent;
import java.util.Queue;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;

/**
 * One carrier of an {@link EventLoopScheduler}: a Netty I/O event loop that also takes fibers
 * woken from other threads through an inbox of its own, and that spins briefly before it
 * sleeps in the kernel when such wake-ups have been arriving.
 *
 * <p>Thread-safe: {@link #post(Fiber)} and {@link #submitFiber(Runnable)} may be called from
 * any thread; everything else runs on the loop's own thread.
 */
final class CarrierLoop extends SingleThreadIoEventLoop implements Home {
  /*
   * Implementation notes.
   *
   * Why: a fiber keeps its home loop, so a fiber on loop A that unparks a fiber homed on loop
   * B hands it over through B's task queue, and if B sleeps in epoll_wait/select that costs
   * an eventfd write by A, a kernel wake-up of B's thread and a return from the poll: about
   * 10 µs here, against under 1 µs for virtual threads (whose scheduler mostly runs the woken
   * thread on the waker's carrier). CSP-style fibers on two loops hand over like this all the
   * time.
   *
   * How: each loop has an inbox (an MPSC queue) for fibers that other threads started or
   * woke (the requests wait in the fiber's `signals`, see Fiber; the loop applies them when it
   * takes the fiber from the inbox, so only the loop writes its fibers' state), and a
   * volatile `awake` flag that is true while the loop is not, and is not about to be, blocked
   * in its I/O poll. A submitter that sees the loop awake only enqueues: no task, no wake-up
   * system call; the loop drains its inbox at the top of every I/O turn. A submitter that sees
   * it asleep enqueues and then makes sure one drain task is queued through Netty's execute(),
   * which wakes the poll as before. The two sides publish in opposite order (submitter:
   * enqueue, then read `awake`; loop: clear `awake`, then read the inbox), both through
   * volatile accesses, so at least one sees the other: a fiber is never left in the inbox of
   * a sleeping loop. A loop with nothing to do first spins for up to spinNanos, still awake,
   * watching the inbox, so a hand-over between two busy loops costs a queue hop, not a
   * kernel wake-up (measured: about 1 µs instead of about 11 µs per one-way hand-over).

   * When to spin: only while it pays. `spinCredit` rises when a spin ended with work and falls
   * when it did not; with no credit the loop spins only on every PROBE_EVERY-th idle turn, so
   * an I/O server whose wake-ups come from sockets (which a spin cannot see) wastes at most a
   * spin per PROBE_EVERY idle turns. While the loop spins it does not poll its sockets; after
   * a spin that found work it runs the woken fibers and skips the socket poll only if one ran
   * within IO_POLL_NANOS, so socket readiness waits at most about spinNanos + IO_POLL_NANOS.
   */

  /** The system property that sets how long an idle carrier spins before it sleeps. */
  static final String SPIN_PROPERTY = "krill.fibers.spinNanos";
  /** Default of {@value #SPIN_PROPERTY}, in nanoseconds, on a machine with more than one CPU (on one CPU: 0). */
  static final long DEFAULT_SPIN_NANOS = 20_000;
  /** Largest accepted value of {@value #SPIN_PROPERTY}. */
  static final long MAX_SPIN_NANOS = 1_000_000;
  /** With no spin credit, spin on one idle turn in this many. */
  static final int PROBE_EVERY = 64;
  /** Longest stretch without a socket poll while spins keep finding work. */
  static final long IO_POLL_NANOS = 50_000;
  /** Fibers run per drain before the loop's I/O and tasks get a turn. */
  static final int DRAIN_BUDGET = 1024;
  private static final int MAX_CREDIT = 16;

  private static final AtomicIntegerFieldUpdater<CarrierLoop> DRAIN_PENDING =
      AtomicIntegerFieldUpdater.newUpdater(CarrierLoop.class, "drainPending");

  private final Queue<Fiber> inbox = PlatformDependent.newMpscQueue();
  private final Runnable drainTask = this::drainFromTask;
  private volatile boolean awake;
  private volatile int drainPending;
  private final long spinNanos;
  private int spinCredit = MAX_CREDIT;
  private int idleTurns;
  private long lastIoPoll;

  private final FiberScheduler scheduler;

  CarrierLoop(IoEventLoopGroup parent, Executor executor, IoHandlerFactory factory, long spinNanos,
      FiberScheduler scheduler) {
    super(parent, executor, factory);
    this.spinNanos = spinNanos;
    this.scheduler = scheduler;
  }

  @Override
  public FiberScheduler scheduler() {
    return scheduler;
  }

  /**
   * Reads {@value #SPIN_PROPERTY}.
   *
   * @return the spin in nanoseconds ({@value #DEFAULT_SPIN_NANOS} when unset, 0 on a one-CPU machine)
   * @throws IllegalArgumentException naming the property for a value that is not 0..{@value #MAX_SPIN_NANOS}
   */
  static long spinNanosFromSystemProperty() {
    return parseSpinNanos(System.getProperty(SPIN_PROPERTY));
  }

  /**
   * Parses a spin setting.
   *
   * @param value nanoseconds as text, or null for the default
   * @return the spin in nanoseconds
   * @throws IllegalArgumentException naming {@value #SPIN_PROPERTY} for a value that is not 0..{@value #MAX_SPIN_NANOS}
   */
  static long parseSpinNanos(String value) {
    if (value == null) { // a spinning carrier on the only CPU would only delay the thread that wakes it
      return Runtime.getRuntime().availableProcessors() > 1 ? DEFAULT_SPIN_NANOS : 0;
    }
    long n;
    try {
      n = Long.parseLong(value.trim());
    } catch (NumberFormatException e) {
      n = -1;
    }
    if (n < 0 || n > MAX_SPIN_NANOS) {
      throw new IllegalArgumentException(SPIN_PROPERTY + ": " + value + " (expected: 0.." + MAX_SPIN_NANOS + " nanoseconds)");
    }
    return n;
  }

  /**
   * Makes a runnable fiber run on this loop: a task on the loop's queue. Callable from any
   * thread; fibers homed here are submitted only by the loop itself (others {@link #post}).
   *
   * @param fiber the fiber (its {@code run()} runs one slice)
   */
  void submitFiber(Runnable fiber) {
    execute(fiber); // on the loop no wake-up is needed: it runs its tasks before it polls again
  }

  /**
   * Makes the loop take {@code fiber}'s pending start or wake-up requests soon. Called by the
   * thread that raised the first pending request, from any thread but the loop's.
   *
   * @param fiber a fiber homed on this loop
   */
  void post(Fiber fiber) {
    inbox.offer(fiber);
    if (!awake && drainPending == 0 && DRAIN_PENDING.compareAndSet(this, 0, 1)) {
      execute(drainTask);
    }
  }

  private void drainFromTask() {
    drainPending = 0; // before polling: a submitter that saw 1 has enqueued before this
    drainInbox();
  }

  private void drainInbox() {
    for (int budget = DRAIN_BUDGET; budget > 0; budget--) {
      Fiber f = inbox.poll();
      if (f == null) {
        return;
      }
      f.takeSignals();
    }
    if (!inbox.isEmpty() && DRAIN_PENDING.compareAndSet(this, 0, 1)) {
      execute(drainTask); // the rest after the loop's I/O and tasks
    }
  }

  @Override
  protected int runIo() {
    if (!awake) {
      awake = true;
    }
    boolean worked = false;
    if (!inbox.isEmpty()) {
      drainInbox();
      worked = true;
    } else if (spinNanos > 0 && !hasTasks() && !hasScheduledTasks() && shouldSpin()) {
      if (spin()) {
        spinCredit = Math.min(MAX_CREDIT, spinCredit + 2);
        drainInbox();
        worked = true;
      } else {
        spinCredit = Math.max(0, spinCredit - 1);
      }
    }
    if (worked) {
      long now = System.nanoTime();
      if (now - lastIoPoll < IO_POLL_NANOS) {
        return 0; // sockets were polled a moment ago; tasks run next, then the loop comes back here
      }
      lastIoPoll = now;
      execute(NO_OP); // a pending task makes the I/O handler poll without blocking
      return super.runIo();
    }
    awake = false; // the poll may block: from now on a submitter must wake the loop
    if (!inbox.isEmpty()) { // the re-check after clearing: see the notes
      awake = true;
      drainInbox();
      return 0;
    }
    lastIoPoll = System.nanoTime();
    int n = super.runIo();
    awake = true;
    return n;
  }

  private boolean shouldSpin() {
    return spinCredit > 0 || ++idleTurns % PROBE_EVERY == 0;
  }

  /* Spins until the inbox has work (true), a task arrives or spinNanos pass (false). */
  private boolean spin() {
    long deadline = System.nanoTime() + spinNanos;
    for (;;) {
      for (int i = 0; i < 64; i++) {
        if (!inbox.isEmpty()) {
          return true;
        }
        Thread.onSpinWait();
      }
      if (hasTasks() || System.nanoTime() - deadline >= 0) {
        return !inbox.isEmpty();
      }
    }
  }

  private static final Runnable NO_OP = () -> { };
}
