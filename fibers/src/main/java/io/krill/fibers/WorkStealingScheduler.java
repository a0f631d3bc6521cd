package io.krill.fibers;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * A work-stealing scheduler for CPU-bound fiber trees, on a {@link ForkJoinPool} in async
 * (FIFO) mode. Thread-safe.
 */
final class WorkStealingScheduler extends FiberScheduler {
  /*
   * Implementation notes.
   *
   * A fiber made runnable by code on a worker is pushed onto that worker's own queue
   * (ForkJoinPool.execute from a worker pushes locally), so a fiber woken by the fiber it
   * communicates with runs next on the same core: the CCSP batching rule, for free. Idle
   * workers steal from the other end. Submissions from outside go to the shared queues.
   * Fibers have no home, so a stolen fiber resumes on a different thread than the one it
   * suspended on; the pool's queues publish the fiber safely.
   */
  private final ForkJoinPool pool;
  private final ScheduledThreadPoolExecutor timer;
  private final List<Thread> threads = new CopyOnWriteArrayList<>();

  /**
   * Starts the workers.
   *
   * @param threads how many workers
   * @param tracking whether to keep a registry of live fibers
   */
  WorkStealingScheduler(int threads, boolean tracking) {
    super("krill-steal", tracking);
    java.util.concurrent.atomic.AtomicInteger index = new java.util.concurrent.atomic.AtomicInteger();
    pool = new ForkJoinPool(threads, p -> {
      StealingWorker w = new StealingWorker(p);
      w.setName(name() + "-" + index.incrementAndGet()); // the pool index is not assigned yet here
      this.threads.add(w);
      return w;
    }, null, true);
    timer = new ScheduledThreadPoolExecutor(1, r -> {
      Thread t = new Thread(r, name() + "-timer");
      t.setDaemon(true);
      return t;
    });
    timer.setRemoveOnCancelPolicy(true);
  }

  @Override
  protected void submit(Fiber fiber) {
    pool.execute(fiber);
  }

  @Override
  protected BooleanSupplier schedule(Runnable task, long delayNanos) {
    // FutureTask.cancel(false) answers true even while the task runs: a claim decides who wins, so a
    // cancel after the task started (the woken fiber cancelling its own timer) answers false.
    java.util.concurrent.atomic.AtomicBoolean claimed = new java.util.concurrent.atomic.AtomicBoolean();
    ScheduledFuture<?> f = timer.schedule(() -> {
      if (claimed.compareAndSet(false, true)) {
        task.run();
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
    Thread t = Thread.currentThread();
    return t instanceof StealingWorker && ((StealingWorker) t).getPool() == pool;
  }

  @Override
  protected List<Thread> carriers() {
    return threads;
  }

  @Override
  long steals() {
    return pool.getStealCount();
  }

  @Override
  public void close() {
    Supervision.closed(this);
    timer.shutdownNow();
    pool.shutdownNow();
  }
}
