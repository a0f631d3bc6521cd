package io.krill.crawler;

import io.krill.fibers.Continuation;
import io.krill.fibers.Fiber;
import io.krill.fibers.FiberScheduler;
import io.krill.fibers.SuspendableRunnable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs one work item on a strand of the configured kind: the same woven fetch code runs in a
 * fiber, on a pooled platform thread, on a virtual thread, or on a new thread per URL.
 */
abstract class Runner implements AutoCloseable {
  abstract void spawn(String name, SuspendableRunnable task);

  @Override
  public void close() {}

  static Runner create(CrawlConfig c, FiberScheduler scheduler) {
    switch (c.mode) {
      case FIBERS:
        return new Fibers(scheduler);
      case THREADS:
        return c.naive ? new ThreadPerTask() : new Pool(Executors.newFixedThreadPool(c.threads, named("krill-crawl-")));
      case VIRTUAL:
        return new Pool(virtualExecutor());
      default:
        throw new IllegalArgumentException("mode: " + c.mode);
    }
  }

  /** @return true if this JDK has virtual threads */
  static boolean virtualThreadsAvailable() {
    return Runtime.version().feature() >= 21;
  }

  private static ExecutorService virtualExecutor() {
    if (!virtualThreadsAvailable()) {
      throw new UnsupportedOperationException("--mode virtual needs JDK 21 or newer (this is JDK "
          + Runtime.version().feature() + ")");
    }
    try {
      return (ExecutorService) Executors.class.getMethod("newVirtualThreadPerTaskExecutor").invoke(null);
    } catch (ReflectiveOperationException e) {
      throw new UnsupportedOperationException("--mode virtual: virtual threads unavailable: " + e, e);
    }
  }

  private static java.util.concurrent.ThreadFactory named(String prefix) {
    AtomicInteger n = new AtomicInteger();
    return r -> {
      Thread t = new Thread(r, prefix + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    };
  }

  private static final class Fibers extends Runner {
    private final FiberScheduler scheduler;

    Fibers(FiberScheduler scheduler) {
      this.scheduler = scheduler;
    }

    @Override
    void spawn(String name, SuspendableRunnable task) {
      Fiber.builder().scheduler(scheduler).name(name).start(task);
    }
  }

  private static final class Pool extends Runner {
    private final ExecutorService pool;

    Pool(ExecutorService pool) {
      this.pool = pool;
    }

    @Override
    void spawn(String name, SuspendableRunnable task) {
      pool.execute(() -> Continuation.runOnThread(task));
    }

    @Override
    public void close() {
      pool.shutdown();
      try {
        pool.awaitTermination(10, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private static final class ThreadPerTask extends Runner {
    @Override
    void spawn(String name, SuspendableRunnable task) {
      Thread t = new Thread(() -> Continuation.runOnThread(task), name);
      t.setDaemon(true);
      t.start();
    }
  }
}
