package io.krill.crawler;

import io.krill.fibers.Continuation;
import io.krill.fibers.Fiber;
import io.krill.fibers.FiberScheduler;
import io.krill.fibers.SuspendableRunnable;
import io.krill.fibers.VirtualThreads;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs one work item on a strand of the configured kind: the same woven fetch code runs in a
 * fiber, on a pooled platform thread, on a virtual thread, or on a new thread per URL.
 */
final class Runner implements AutoCloseable {
  /** Starts one strand. */
  @FunctionalInterface
  interface Spawner {
    void spawn(String name, SuspendableRunnable task);
  }

  private final Spawner spawner;
  private final Runnable onClose;

  /**
   * @param spawner starts a strand for each work item
   * @param onClose releases what the strands ran on, waiting for them
   */
  Runner(Spawner spawner, Runnable onClose) {
    this.spawner = spawner;
    this.onClose = onClose;
  }

  void spawn(String name, SuspendableRunnable task) {
    spawner.spawn(name, task);
  }

  @Override
  public void close() {
    onClose.run();
  }

  static Runner create(CrawlConfig c, FiberScheduler scheduler) {
    switch (c.mode) {
      case FIBER:
        return new Runner((name, task) -> Fiber.builder().scheduler(scheduler).name(name).start(task), () -> {});
      case PLATFORM:
        return c.naive ? new Runner(Runner::threadPerTask, () -> {})
            : pooled(Executors.newFixedThreadPool(c.threads, named("krill-crawl-")));
      case VIRTUAL:
        return pooled(VirtualThreads.newThreadPerTaskExecutor());
      default:
        throw new IllegalArgumentException("mode: " + c.mode);
    }
  }

  private static Runner pooled(ExecutorService pool) {
    return new Runner((name, task) -> pool.execute(() -> Continuation.runOnThread(task)), () -> {
      pool.shutdown();
      try {
        pool.awaitTermination(10, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    });
  }

  private static void threadPerTask(String name, SuspendableRunnable task) {
    Thread t = new Thread(() -> Continuation.runOnThread(task), name);
    t.setDaemon(true);
    t.start();
  }

  private static java.util.concurrent.ThreadFactory named(String prefix) {
    AtomicInteger n = new AtomicInteger();
    return r -> {
      Thread t = new Thread(r, prefix + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    };
  }
}
