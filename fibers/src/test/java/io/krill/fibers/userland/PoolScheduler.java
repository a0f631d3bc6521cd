package io.krill.fibers.userland;

import io.krill.fibers.Fiber;
import io.krill.fibers.FiberScheduler;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

/**
 * A scheduler as a user builds it from the public API alone: plain platform threads of a fixed
 * pool carry the fibers, a scheduled executor runs the timers.
 */
public final class PoolScheduler extends FiberScheduler {
  private final List<Thread> threads = new CopyOnWriteArrayList<>();
  private final ExecutorService pool;
  private final ScheduledExecutorService timer;

  /**
   * Starts the pool.
   *
   * @param carriers how many carrier threads
   * @param tracking whether to keep a registry of live fibers
   */
  public PoolScheduler(int carriers, boolean tracking) {
    super("user-pool", tracking);
    AtomicInteger n = new AtomicInteger();
    pool = Executors.newFixedThreadPool(carriers, r -> {
      Thread t = new Thread(r, name() + "-carrier-" + n.incrementAndGet());
      t.setDaemon(true);
      threads.add(t);
      return t;
    });
    timer = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, name() + "-timer");
      t.setDaemon(true);
      return t;
    });
  }

  @Override
  protected void submit(Fiber fiber) {
    pool.execute(fiber);
  }

  @Override
  protected BooleanSupplier schedule(Runnable task, long delayNanos) {
    // The canceller must learn whether it prevented the task: FutureTask.cancel answers true while it runs.
    AtomicBoolean claimed = new AtomicBoolean();
    ScheduledFuture<?> f = timer.schedule(() -> {
      if (claimed.compareAndSet(false, true)) {
        pool.execute(task);
      }
    }, delayNanos, TimeUnit.NANOSECONDS);
    return () -> {
      if (!claimed.compareAndSet(false, true)) {
        return false;
      }
      f.cancel(false);
      return true;
    };
  }

  @Override
  protected boolean isCarrier() {
    return threads.contains(Thread.currentThread());
  }

  @Override
  public void close() {
    timer.shutdownNow();
    pool.shutdownNow();
  }

  @Override
  protected List<Thread> carriers() {
    return threads;
  }
}
