package io.krill.fibers.internal;

import io.krill.fibers.Fiber;
import io.krill.fibers.FiberScheduler;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.util.concurrent.EventExecutor;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

/**
 * The default scheduler: one Netty event loop per carrier. A fiber's home is a loop; the
 * loops also serve netio's channels, so an I/O completion resumes its fiber on the same
 * thread with no hand-off. Thread-safe.
 */
public final class EventLoopScheduler extends FiberScheduler {
  /*
   * Implementation notes.
   *
   * A fiber woken from its own home loop (an I/O completion, a channel hand-off between two
   * fibers of one loop) goes onto the carrier's plain ready deque instead of Netty's
   * multi-producer task queue; the first such fiber schedules one drain task, so a batch of
   * wake-ups costs one queue operation with atomics instead of one per fiber. The drain runs
   * the fibers that were ready when it started and reschedules itself for the rest, so I/O
   * and timers still get their turn between batches. Wake-ups from other threads use
   * Netty's queue, which also wakes the selector.
   */
  private static final int DRAIN_BATCH = 1024;

  private final MultiThreadIoEventLoopGroup group;
  private final List<Thread> threads = new CopyOnWriteArrayList<>();
  private final List<EventLoop> loops = new ArrayList<>();
  private final AtomicInteger next = new AtomicInteger();

  /**
   * Starts the loops.
   *
   * @param threads how many loops
   * @param tracking whether to keep a registry of live fibers
   */
  public EventLoopScheduler(int threads, boolean tracking) {
    super("krill-loop", tracking);
    AtomicInteger index = new AtomicInteger();
    group = new MultiThreadIoEventLoopGroup(threads, r -> {
      CarrierThread t = new CarrierThread(r, name() + "-" + index.incrementAndGet());
      this.threads.add(t);
      return t;
    }, NioIoHandler.newFactory());
    CountDownLatch started = new CountDownLatch(threads);
    for (EventExecutor e : group) {
      EventLoop loop = (EventLoop) e;
      loops.add(loop);
      loop.execute(() -> {
        ((CarrierThread) Thread.currentThread()).loop(loop);
        started.countDown();
      });
    }
    try {
      started.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** @return the Netty event loop group, shared with netio */
  public EventLoopGroup group() {
    return group;
  }

  /** @return the loop the calling thread runs, or null */
  public static EventLoop currentLoop() {
    Thread t = Thread.currentThread();
    return t instanceof CarrierThread ? (EventLoop) ((CarrierThread) t).loop() : null;
  }

  @Override
  protected Object assignHome() {
    EventLoop current = currentLoop();
    if (current != null && current.parent() == group) {
      return current;
    }
    return loops.get(Math.floorMod(next.getAndIncrement(), loops.size()));
  }

  @Override
  protected Object checkHome(Object home) {
    if (!(home instanceof EventLoop) || ((EventLoop) home).parent() != group) {
      throw new IllegalArgumentException("home: " + home + " (expected: an event loop of " + name() + ")");
    }
    return home;
  }

  @Override
  protected void submit(Fiber fiber) {
    EventLoop loop = (EventLoop) homeOf(fiber);
    Thread t = Thread.currentThread();
    if (t instanceof CarrierThread && ((CarrierThread) t).loop() == loop) {
      CarrierThread c = (CarrierThread) t;
      c.ready.add(fiber);
      if (!c.drainScheduled) {
        c.drainScheduled = true;
        loop.execute(new Drain(c));
      }
      return;
    }
    loop.execute(fiber);
  }

  /** Runs the fibers that were ready on one carrier when it started. */
  private static final class Drain implements Runnable {
    private final CarrierThread carrier;

    Drain(CarrierThread carrier) {
      this.carrier = carrier;
    }

    @Override
    public void run() {
      java.util.ArrayDeque<Runnable> ready = carrier.ready;
      int n = Math.min(ready.size(), DRAIN_BATCH);
      for (int i = 0; i < n; i++) {
        Runnable fiber = ready.poll();
        try {
          fiber.run();
        } catch (Throwable e) {
          org.slf4j.LoggerFactory.getLogger(EventLoopScheduler.class).error("fiber slice failed: {}", fiber, e);
        }
      }
      if (ready.isEmpty()) {
        carrier.drainScheduled = false;
      } else {
        ((EventLoop) carrier.loop()).execute(this);
      }
    }
  }

  /** @return the loop a fiber of this scheduler lives on */
  public static EventLoop loopOf(Fiber fiber) {
    return (EventLoop) homeOf(fiber);
  }

  @Override
  protected BooleanSupplier schedule(Runnable task, long delayNanos) {
    EventLoop loop = currentLoop();
    if (loop == null || loop.parent() != group) {
      loop = loops.get(Math.floorMod(next.getAndIncrement(), loops.size()));
    }
    ScheduledFuture<?> f = loop.schedule(task, delayNanos, TimeUnit.NANOSECONDS);
    return () -> f.cancel(false);
  }

  @Override
  protected boolean isCarrier() {
    EventLoop l = currentLoop();
    return l != null && l.parent() == group;
  }

  @Override
  protected List<Thread> carriers() {
    return threads;
  }

  @Override
  public void close() {
    group.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
  }
}
