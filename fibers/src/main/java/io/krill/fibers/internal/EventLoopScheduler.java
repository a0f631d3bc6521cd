package io.krill.fibers.internal;

import io.krill.fibers.Fiber;
import io.krill.fibers.FiberScheduler;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
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
  private final MultiThreadIoEventLoopGroup group;
  private final List<Thread> threads = new CopyOnWriteArrayList<>();
  private final List<EventLoop> loops = new ArrayList<>();
  private final AtomicInteger next = new AtomicInteger();
  private final boolean epoll;

  /**
   * Starts NIO loops, or epoll loops when {@link #ioFromSystemProperty()} says so.
   *
   * @param threads how many loops
   * @param tracking whether to keep a registry of live fibers
   */
  public EventLoopScheduler(int threads, boolean tracking) {
    this(threads, tracking, ioFromSystemProperty());
  }

  /**
   * Starts the loops.
   *
   * @param threads how many loops
   * @param tracking whether to keep a registry of live fibers
   * @param epoll true for Netty's native epoll handler (Linux), false for Java NIO
   * @throws IllegalStateException if {@code epoll} is true and the native library does not load
   */
  public EventLoopScheduler(int threads, boolean tracking, boolean epoll) {
    super("krill-loop", tracking);
    if (epoll && !Epoll.isAvailable()) {
      throw new IllegalStateException("krill.fibers.io: epoll is not available here: " + Epoll.unavailabilityCause(),
          Epoll.unavailabilityCause());
    }
    this.epoll = epoll;
    AtomicInteger index = new AtomicInteger();
    group = new MultiThreadIoEventLoopGroup(threads, r -> {
      CarrierThread t = new CarrierThread(r, name() + "-" + index.incrementAndGet());
      this.threads.add(t);
      return t;
    }, epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory());
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

  /**
   * Reads {@code krill.fibers.io}: {@code nio} (the default), {@code epoll}, or {@code auto}
   * (epoll when the native library loads).
   *
   * @return true if the carriers should run the epoll handler
   * @throws IllegalArgumentException naming the property for any other value
   */
  public static boolean ioFromSystemProperty() {
    String io = System.getProperty("krill.fibers.io", "nio").trim().toLowerCase(java.util.Locale.ROOT);
    switch (io) {
      case "nio":
        return false;
      case "epoll":
        return true;
      case "auto":
        return Epoll.isAvailable();
      default:
        throw new IllegalArgumentException("krill.fibers.io: " + io + " (expected: nio, epoll or auto)");
    }
  }

  /** @return true if the carriers run Netty's epoll handler, false for NIO */
  public boolean isEpoll() {
    return epoll;
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
    ((EventLoop) homeOf(fiber)).execute(fiber);
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
