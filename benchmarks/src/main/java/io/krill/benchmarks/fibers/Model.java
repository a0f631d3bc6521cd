package io.krill.benchmarks.fibers;

import io.krill.fibers.Continuation;
import io.krill.fibers.Fiber;
import io.krill.fibers.FiberCancelledException;
import io.krill.fibers.FiberScheduler;
import io.krill.fibers.SuspendableRunnable;
import io.krill.fibers.VirtualThreads;
import io.krill.fibers.spi.Carriers;
import io.netty.channel.EventLoop;
import io.netty.util.concurrent.EventExecutor;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

/**
 * How a workload's processes run: as krill fibers, as virtual threads or as platform threads,
 * and over which {@link Pipe}. One workload, written as suspendable code, runs under every model.
 *
 * <p>Competitor names (JMH {@code @Param} values):
 * <ul>
 *   <li>{@code fiber}: krill fibers on an event-loop scheduler, krill channels;
 *   <li>{@code virtualThreadSyncQueue}, {@code virtualThreadChannel}: JDK virtual threads over a
 *       {@code SynchronousQueue}, or blocking on the same krill channels;
 *   <li>{@code platformSyncQueue}, {@code platformChannel}: the same on platform threads.
 * </ul>
 *
 * <p>Threading: spawn and close from one thread at a time.
 */
public abstract class Model implements AutoCloseable {
  /** Every competitor of the channel workloads, fibers first. */
  public static final String[] CHANNEL_COMPETITORS = {"fiber", "virtualThreadSyncQueue", "virtualThreadChannel",
      "platformSyncQueue", "platformChannel"};

  /**
   * Creates the model a competitor name stands for.
   *
   * @param competitor one of {@link #CHANNEL_COMPETITORS}
   * @param carriers event loops for {@code fiber}; threads ignore it (virtual threads take
   *     {@code -Djdk.virtualThreadScheduler.parallelism})
   * @return the model
   * @throws UnsupportedOperationException for virtual threads on a JDK before 21
   */
  public static Model create(String competitor, int carriers) {
    switch (competitor) {
      case "fiber": // the library default: no live-fiber registry
        return new FiberModel(Carriers.eventLoop(carriers, false));
      case "fiberTracked":
        return new FiberModel(Carriers.eventLoop(carriers, true));
      case "virtualThreadSyncQueue":
      case "virtualThreadChannel":
        if (!VirtualThreads.available()) {
          throw new UnsupportedOperationException("skipped: " + VirtualThreads.UNAVAILABLE);
        }
        return new ThreadModel(true, competitor.endsWith("SyncQueue"));
      case "platformSyncQueue":
      case "platformChannel":
        return new ThreadModel(false, competitor.endsWith("SyncQueue"));
      default:
        throw new IllegalArgumentException("competitor: " + competitor + " (expected: fiber, fiberTracked,"
            + " virtualThreadSyncQueue, virtualThreadChannel, platformSyncQueue or platformChannel)");
    }
  }

  /**
   * @param <T> the item type
   * @return a new rendezvous pipe of this model's kind
   */
  public abstract <T> Pipe<T> pipe();

  /**
   * Starts a long-lived process; it ends quietly when the model closes.
   *
   * @param body the process
   * @return its strand, for {@link #wake(Object)}: a {@link Fiber} or a {@link Thread}
   */
  public abstract Object spawn(SuspendableRunnable body);

  /**
   * Runs {@code body} as one strand of this model and waits for it from the calling plain
   * thread, rethrowing what it threw.
   *
   * @param body the work
   */
  public abstract void runAndWait(SuspendableRunnable body);

  /** Ends the processes: closes the scheduler, or interrupts the threads. */
  @Override
  public abstract void close();

  /**
   * Unparks a strand returned by {@link #spawn} or {@link #currentStrand()}.
   *
   * @param strand a fiber or a thread
   */
  public static void wake(Object strand) {
    if (strand instanceof Fiber) {
      ((Fiber) strand).unpark();
    } else {
      LockSupport.unpark((Thread) strand);
    }
  }

  /** @return the current fiber, or the current thread */
  public static Object currentStrand() {
    Fiber f = Fiber.current();
    return f != null ? f : Thread.currentThread();
  }

  static SuspendableRunnable quietly(SuspendableRunnable body) {
    return () -> {
      try {
        body.run();
      } catch (Pipe.Stopped | FiberCancelledException e) {
        // the model closed
      }
    };
  }

  private static RuntimeException rethrow(Throwable t) {
    if (t instanceof RuntimeException) {
      return (RuntimeException) t;
    }
    if (t instanceof Error) {
      throw (Error) t;
    }
    return new IllegalStateException(t);
  }

  /** krill fibers over krill channels. */
  public static final class FiberModel extends Model {
    /** The system property that turns the schedulers' watchdog on, with a threshold in milliseconds. */
    public static final String WATCHDOG_PROPERTY = "krill.bench.watchdogMillis";

    private final FiberScheduler scheduler;
    private final List<EventLoop> loops = new ArrayList<>();

    /**
     * Wraps a scheduler. With {@value #WATCHDOG_PROPERTY} set (milliseconds), its watchdog runs,
     * so a run can measure what the watchdog costs.
     *
     * @param scheduler where the fibers run; closed with the model
     */
    public FiberModel(FiberScheduler scheduler) {
      this.scheduler = scheduler;
      String watchdog = System.getProperty(WATCHDOG_PROPERTY);
      if (watchdog != null) {
        scheduler.watchdog(java.time.Duration.ofMillis(Long.parseLong(watchdog)));
      }
      if (Carriers.group(scheduler) != null) {
        for (EventExecutor e : Carriers.group(scheduler)) {
          loops.add((EventLoop) e);
        }
      }
    }

    /** @return the scheduler */
    public FiberScheduler scheduler() {
      return scheduler;
    }

    @Override
    public <T> Pipe<T> pipe() {
      return Pipe.channel();
    }

    @Override
    public Object spawn(SuspendableRunnable body) {
      return Fiber.builder().scheduler(scheduler).start(quietly(body));
    }

    /**
     * Starts a long-lived process on event loop {@code loop} of the scheduler.
     *
     * @param loop the loop's index
     * @param body the process
     * @return the fiber
     */
    public Fiber spawnOn(int loop, SuspendableRunnable body) {
      return Fiber.builder().scheduler(scheduler).home(loops.get(loop)).start(quietly(body));
    }

    /**
     * Runs {@code body} as a fiber on event loop {@code loop} and waits for it.
     *
     * @param loop the loop's index
     * @param body the work
     */
    public void runAndWaitOn(int loop, SuspendableRunnable body) {
      await(Fiber.builder().scheduler(scheduler).home(loops.get(loop)).uncaughtExceptionHandler((t, e) -> { })
          .start(body));
    }

    @Override
    public void runAndWait(SuspendableRunnable body) {
      await(Fiber.builder().scheduler(scheduler).uncaughtExceptionHandler((t, e) -> { }).start(body));
    }

    private static void await(Fiber f) {
      Throwable t = Continuation.callOnThread(f::joinFailure);
      if (t != null) {
        throw rethrow(t);
      }
    }

    @Override
    public void close() {
      scheduler.close();
    }
  }

  /** Virtual or platform threads over synchronous queues or krill channels. */
  public static final class ThreadModel extends Model {
    private final boolean virtual;
    private final boolean syncQueue;
    private final List<Thread> threads = new ArrayList<>();

    /**
     * @param virtual virtual threads, else platform threads
     * @param syncQueue pipes are SynchronousQueues, else krill channels
     */
    public ThreadModel(boolean virtual, boolean syncQueue) {
      this.virtual = virtual;
      this.syncQueue = syncQueue;
    }

    @Override
    public <T> Pipe<T> pipe() {
      return syncQueue ? Pipe.synchronousQueue() : Pipe.channel();
    }

    private Thread newThread(Runnable task) {
      if (virtual) {
        return VirtualThreads.unstarted(task);
      }
      Thread t = new Thread(task);
      t.setDaemon(true);
      return t;
    }

    @Override
    public Object spawn(SuspendableRunnable body) {
      SuspendableRunnable q = quietly(body);
      Thread t = newThread(() -> Continuation.runOnThread(q));
      threads.add(t);
      t.start();
      return t;
    }

    @Override
    public void runAndWait(SuspendableRunnable body) {
      Throwable[] failure = new Throwable[1];
      Thread t = newThread(() -> {
        try {
          Continuation.runOnThread(body);
        } catch (Throwable e) {
          failure[0] = e;
        }
      });
      t.start();
      try {
        t.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while waiting for " + t, e);
      }
      if (failure[0] != null) {
        throw rethrow(failure[0]);
      }
    }

    @Override
    public void close() {
      for (Thread t : threads) {
        t.interrupt();
      }
      threads.clear();
    }
  }
}
