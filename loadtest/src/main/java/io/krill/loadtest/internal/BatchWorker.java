package io.krill.loadtest.internal;

import io.krill.fibers.spi.Carriers;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.locks.LockSupport;

/**
 * A thread that runs batches of work handed to it by another thread, one at a time: the
 * caller of {@link #run(Runnable)} blocks until the batch is done.
 *
 * <p>Benchmarks use it so that every competitor pays the same hand-off (one unpark and one
 * park each way per batch) and the measured loop runs on the thread it is meant to run on:
 * a carrier thread, a plain platform thread or a virtual thread.
 *
 * <p>Threading: one caller at a time.
 */
public final class BatchWorker implements AutoCloseable {
  private final Thread thread;
  private volatile Runnable task;
  private volatile boolean done;
  private volatile boolean closed;
  private volatile Thread caller;
  private volatile Throwable failure;

  /**
   * Creates and starts a worker whose thread is made by {@code factory}. The factory gets the
   * serve loop; it may wrap it, e.g. to run it below a few stack frames.
   *
   * @param factory makes an unstarted thread that runs the given loop
   */
  public BatchWorker(ThreadFactory factory) {
    this.thread = factory.newThread(this::serve);
    thread.setDaemon(true);
    thread.start();
  }

  /**
   * Creates a worker on a krill carrier thread: woven code finds its continuation in a
   * field of the thread.
   *
   * @return a started worker
   */
  public static BatchWorker carrier() {
    return new BatchWorker(loop -> Carriers.newCarrierThread(loop, "bench-carrier"));
  }

  /**
   * Creates a worker on a plain platform thread: woven code finds its continuation through
   * the thread-local fallback.
   *
   * @return a started worker
   */
  public static BatchWorker platform() {
    return new BatchWorker(loop -> new Thread(loop, "bench-platform"));
  }

  /** @return the worker's thread */
  public Thread thread() {
    return thread;
  }

  /**
   * Runs {@code batch} on the worker's thread and waits for it to finish.
   *
   * @param batch the work
   * @throws IllegalStateException wrapping what the batch threw
   */
  public void run(Runnable batch) {
    caller = Thread.currentThread();
    done = false;
    task = batch;
    LockSupport.unpark(thread);
    while (!done) {
      LockSupport.park(this);
    }
    Throwable t = failure;
    if (t != null) {
      failure = null;
      throw new IllegalStateException("batch failed on " + thread, t);
    }
  }

  private void serve() {
    while (!closed) {
      Runnable t = task;
      if (t == null) {
        LockSupport.park(this);
        continue;
      }
      task = null;
      try {
        t.run();
      } catch (Throwable e) {
        failure = e;
      }
      done = true;
      LockSupport.unpark(caller);
    }
  }

  /** Stops the worker's thread once it is idle. */
  @Override
  public void close() {
    closed = true;
    LockSupport.unpark(thread);
  }
}
