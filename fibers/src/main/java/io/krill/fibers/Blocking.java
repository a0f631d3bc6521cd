package io.krill.fibers;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs legacy blocking calls (JDBC, files, {@code InetAddress}) for fibers: the call runs on a
 * bounded thread pool while the calling fiber parks, so the carrier stays free. Off-fiber the
 * call simply runs on the calling thread.
 *
 * <pre>{@code
 * String text = Blocking.call(() -> Files.readString(path));
 * }</pre>
 *
 * <p>Exceptions come back to the fiber unchanged. Cancelling the fiber interrupts the pool
 * thread and throws {@link FiberCancelledException}; a timeout interrupts it and throws
 * {@link TimeoutException}.
 *
 * <table>
 *   <caption>Limits</caption>
 *   <tr><th>property</th><th>default</th><th>meaning</th></tr>
 *   <tr><td>{@code krill.blocking.threads}</td><td>{@value #DEFAULT_THREADS}</td><td>pool threads</td></tr>
 *   <tr><td>{@code krill.blocking.queue}</td><td>{@value #DEFAULT_QUEUE}</td><td>calls waiting for a thread; more are rejected</td></tr>
 * </table>
 */
public final class Blocking {
  /** Default number of pool threads. */
  public static final int DEFAULT_THREADS = 64;
  /** Default number of calls that may wait for a pool thread. */
  public static final int DEFAULT_QUEUE = 10_000;

  private static final ThreadPoolExecutor POOL = createPool();

  private Blocking() {}

  private static ThreadPoolExecutor createPool() {
    int threads = Integer.getInteger("krill.blocking.threads", DEFAULT_THREADS);
    int queue = Integer.getInteger("krill.blocking.queue", DEFAULT_QUEUE);
    Checks.positive("krill.blocking.threads", threads);
    Checks.nonNegative("krill.blocking.queue", queue);
    AtomicInteger n = new AtomicInteger();
    ThreadPoolExecutor pool = new ThreadPoolExecutor(threads, threads, 30, TimeUnit.SECONDS,
        queue == 0 ? new java.util.concurrent.SynchronousQueue<>() : new LinkedBlockingQueue<>(queue), r -> {
          Thread t = new Thread(r, "krill-blocking-" + n.incrementAndGet());
          t.setDaemon(true);
          return t;
        }, (r, executor) -> {
          throw new RejectedExecutionException("blocking pool full: " + threads + " threads busy and " + queue
              + " calls queued (raise krill.blocking.threads or krill.blocking.queue)");
        });
    pool.allowCoreThreadTimeOut(true);
    return pool;
  }

  /** @return the pool's current number of threads */
  static int poolSize() {
    return POOL.getPoolSize();
  }

  /** @return calls waiting in the pool's queue */
  static int queued() {
    return POOL.getQueue().size();
  }

  /**
   * Calls {@code task} on the blocking pool while the calling fiber parks.
   *
   * @param task the blocking call
   * @param <T> the result type
   * @return its result
   * @throws Exception whatever the task throws
   * @throws RejectedExecutionException when the pool and its queue are full
   * @throws Suspendable never; marks that this method suspends
   */
  public static <T> T call(Callable<T> task) throws Exception, Suspendable {
    return call(task, null);
  }

  /**
   * Calls {@code task} on the blocking pool, waiting at most {@code timeout}.
   *
   * @param task the blocking call
   * @param timeout the longest wait, or null for none
   * @param <T> the result type
   * @return its result
   * @throws TimeoutException when it did not finish in time (the pool thread is interrupted)
   * @throws Exception whatever the task throws
   * @throws Suspendable never; marks that this method suspends
   */
  public static <T> T call(Callable<T> task, Duration timeout) throws Exception, Suspendable {
    Fiber fiber = Fiber.current();
    if (fiber == null) {
      return task.call();
    }
    FiberScheduler scheduler = fiber.scheduler();
    FiberEvents.BlockingQueueWait wait = FiberEvents.queueWaitStarted(fiber);
    FutureTask<T> future = new FutureTask<>(task) {
      @Override
      public void run() {
        FiberEvents.queueWaitEnded(wait);
        super.run();
      }

      @Override
      protected void done() {
        scheduler.operationFinished();
        fiber.unpark();
      }
    };
    scheduler.operationStarted();
    try {
      POOL.execute(future);
    } catch (RejectedExecutionException e) {
      scheduler.operationFinished();
      throw e;
    }
    long deadline = timeout == null ? 0 : System.nanoTime() + timeout.toNanos();
    try {
      while (!future.isDone()) {
        if (timeout == null) {
          Fiber.park(future);
        } else {
          long left = deadline - System.nanoTime();
          if (left <= 0) {
            future.cancel(true);
            throw new TimeoutException("blocking call did not finish within " + timeout);
          }
          Fiber.parkNanos(future, left);
        }
      }
    } catch (FiberCancelledException e) {
      future.cancel(true);
      throw e;
    }
    try {
      return future.get();
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof Exception) {
        throw (Exception) cause;
      }
      throw (Error) cause;
    }
  }

  /**
   * Runs {@code task} on the blocking pool while the calling fiber parks.
   *
   * @param task the blocking call
   * @throws Suspendable never; marks that this method suspends
   */
  public static void run(Runnable task) throws Suspendable {
    try {
      call(() -> {
        task.run();
        return null;
      });
    } catch (RuntimeException | Error e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalStateException("unreachable: a Runnable threw a checked exception", e);
    }
  }
}
