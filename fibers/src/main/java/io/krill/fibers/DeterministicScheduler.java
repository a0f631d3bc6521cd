package io.krill.fibers;

import java.time.Duration;
import java.util.List;
import java.util.PriorityQueue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.BooleanSupplier;

/**
 * A single-threaded scheduler with a virtual clock, for exact tests and simulations. Fibers
 * run only inside {@link #runUntilIdle()}, {@link #advance(Duration)} or {@link #run()}, on
 * the calling thread, in FIFO order; time moves only when the scheduler is told to, so a
 * timeout-heavy protocol runs exactly and instantly.
 *
 * <p>Submissions (unparks) from other threads are accepted and run on the next drive call.
 */
public final class DeterministicScheduler extends FiberScheduler {
  private final ConcurrentLinkedQueue<Fiber> runQueue = new ConcurrentLinkedQueue<>();
  private final PriorityQueue<Timer> timerQueue = new PriorityQueue<>();
  private long now;
  private long sequence;
  private int pending;
  private long steps;

  private static final class Timer implements Comparable<Timer> {
    final long deadline;
    final long order;
    final Runnable task;
    boolean done;

    Timer(long deadline, long order, Runnable task) {
      this.deadline = deadline;
      this.order = order;
      this.task = task;
    }

    @Override
    public int compareTo(Timer o) {
      int c = Long.compare(deadline, o.deadline);
      return c != 0 ? c : Long.compare(order, o.order);
    }
  }

  DeterministicScheduler() {
    super("krill-deterministic", true);
  }

  @Override
  protected void submit(Fiber fiber) {
    runQueue.add(fiber);
  }

  @Override
  protected synchronized BooleanSupplier schedule(Runnable task, long delayNanos) {
    Timer t = new Timer(now + Math.max(0, delayNanos), sequence++, task);
    timerQueue.add(t);
    pending++;
    return () -> {
      synchronized (this) {
        if (t.done) {
          return false;
        }
        t.done = true;
        pending--;
        return true;
      }
    };
  }

  /* Cancelled timers stay queued until they reach the head (lazy removal keeps cancel O(1)). */
  private Timer pollDue(long limit) {
    Timer t;
    while ((t = timerQueue.peek()) != null) {
      if (t.done) {
        timerQueue.poll();
        continue;
      }
      if (t.deadline > limit) {
        return null;
      }
      timerQueue.poll();
      t.done = true;
      pending--;
      return t;
    }
    return null;
  }

  /** @return the virtual time in nanoseconds since creation */
  @Override
  public synchronized long nanoTime() {
    return now;
  }

  /** @return how many fiber slices have run */
  public long steps() {
    return steps;
  }

  /**
   * Runs runnable fibers until none is left; the clock does not move.
   *
   * @return how many slices ran
   */
  public long runUntilIdle() {
    long ran = 0;
    Fiber f;
    while ((f = runQueue.poll()) != null) {
      f.run();
      ran++;
      steps++;
    }
    return ran;
  }

  /**
   * Moves the clock forward by {@code duration}, firing due timers in deadline order and
   * running the fibers they wake at each deadline.
   *
   * @param duration how far, not negative
   */
  public void advance(Duration duration) {
    Checks.nonNegative("duration", duration);
    long target;
    synchronized (this) {
      target = now + duration.toNanos();
    }
    runUntilIdle();
    while (true) {
      Timer t;
      synchronized (this) {
        t = pollDue(target);
        if (t == null) {
          now = Math.max(now, target);
          break;
        }
        now = Math.max(now, t.deadline);
      }
      t.task.run();
      runUntilIdle();
    }
    runUntilIdle();
  }

  /**
   * Runs until no fiber is runnable and no timer is pending, jumping the clock to each next
   * deadline. Parked fibers that nothing can wake stay parked; {@link #deadlockReport()}
   * lists them.
   */
  public void run() {
    while (true) {
      runUntilIdle();
      Timer t;
      synchronized (this) {
        t = pollDue(Long.MAX_VALUE);
        if (t == null) {
          return;
        }
        now = Math.max(now, t.deadline);
      }
      t.task.run();
    }
  }

  /** @return true when no fiber is runnable and no timer is pending */
  public synchronized boolean isIdle() {
    return runQueue.isEmpty() && pending == 0;
  }

  /** @return how many timers are pending */
  public synchronized int pendingTimers() {
    return pending;
  }

  @Override
  protected boolean isCarrier() {
    return true;
  }

  @Override
  protected List<Thread> carriers() {
    return List.of();
  }

  @Override
  public void close() {
    runQueue.clear();
    synchronized (this) {
      timerQueue.clear();
      pending = 0;
    }
  }
}
