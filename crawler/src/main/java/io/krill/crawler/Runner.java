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
abstract class Runner implements AutoCloseable {
  abstract void spawn(String name, SuspendableRunnable task);

  @Override
  public void close() {}

  static Runner create(CrawlConfig c, FiberScheduler scheduler) {
    switch (c.mode) {
      case FIBER:
        return new Fibers(scheduler);
      case PLATFORM:
        return c.naive ? new ThreadPerTask() : new Pool(Executors.newFixedThreadPool(c.threads, named("krill-crawl-")));
      case VIRTUAL:
        return new Pool(VirtualThreads.newThreadPerTaskExecutor());
      default:
        throw new IllegalArgumentException("mode: " + c.mode);
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
