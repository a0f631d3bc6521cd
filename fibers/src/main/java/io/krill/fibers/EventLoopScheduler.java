package io.krill.fibers;

import io.krill.fibers.internal.CarrierAccess;
import io.krill.fibers.internal.CarrierIo;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
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
final class EventLoopScheduler extends FiberScheduler {
  private final MultiThreadIoEventLoopGroup group;

  /** Netty's group, with {@link CarrierLoop}s as its loops. */
  private static final class CarrierGroup extends MultiThreadIoEventLoopGroup {
    CarrierGroup(int threads, java.util.concurrent.ThreadFactory factory, io.netty.channel.IoHandlerFactory io,
        long spinNanos, EventLoopScheduler scheduler) {
      super(threads, factory, io, spinNanos, scheduler); // newChild runs inside super(): these travel as arguments
    }

    @Override
    protected io.netty.channel.IoEventLoop newChild(java.util.concurrent.Executor executor,
        io.netty.channel.IoHandlerFactory io, Object... args) {
      return new CarrierLoop(this, executor, io, (Long) args[0], (EventLoopScheduler) args[1]);
    }
  }
  private final List<Thread> threads = new CopyOnWriteArrayList<>();
  private final List<EventLoop> loops = new ArrayList<>();
  private final AtomicInteger next = new AtomicInteger();
  private final CarrierIo io;

  /**
   * Starts loops with the I/O handler {@link CarrierIo#fromSystemProperty()} names.
   *
   * @param threads how many loops
   * @param tracking whether to keep a registry of live fibers
   * @throws IllegalStateException naming {@code krill.fibers.io} if that handler does not load here
   */
  EventLoopScheduler(int threads, boolean tracking) {
    this(threads, tracking, CarrierIo.fromSystemProperty());
  }

  /**
   * Starts the loops.
   *
   * @param threads how many loops
   * @param tracking whether to keep a registry of live fibers
   * @param io the I/O handler every carrier runs
   * @throws IllegalStateException naming {@code krill.fibers.io} if {@code io} does not load here
   */
  EventLoopScheduler(int threads, boolean tracking, CarrierIo io) {
    this(threads, tracking, io, CarrierLoop.spinNanosFromSystemProperty());
  }

  /**
   * Starts the loops with a given idle spin.
   *
   * @param threads how many loops
   * @param tracking whether to keep a registry of live fibers
   * @param io the I/O handler every carrier runs
   * @param spinNanos how long an idle carrier spins for wake-ups from other threads before it
   *     sleeps (0 = never); see {@code krill.fibers.spinNanos}
   * @throws IllegalStateException naming {@code krill.fibers.io} if {@code io} does not load here
   * @throws IllegalArgumentException naming {@code spinNanos} if it is not 0..1,000,000
   */
  EventLoopScheduler(int threads, boolean tracking, CarrierIo io, long spinNanos) {
    super("krill-loop", tracking);
    if (spinNanos < 0 || spinNanos > CarrierLoop.MAX_SPIN_NANOS) {
      throw new IllegalArgumentException("spinNanos: " + spinNanos + " (expected: 0.." + CarrierLoop.MAX_SPIN_NANOS + ")");
    }
    this.io = io.requireAvailable(CarrierIo.PROPERTY);
    AtomicInteger index = new AtomicInteger();
    group = new CarrierGroup(threads, r -> {
      CarrierThread t = new CarrierThread(r, name() + "-" + index.incrementAndGet());
      this.threads.add(t);
      return t;
    }, io.newFactory(), spinNanos, this);
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

  /** @return the I/O handler the carriers run */
  CarrierIo io() {
    return io;
  }

  /** @return the Netty event loop group, shared with netio */
  EventLoopGroup group() {
    return group;
  }

  /** @return the loop the calling thread runs, or null */
  static EventLoop currentLoop() {
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
    ((CarrierLoop) homeOf(fiber)).submitFiber(fiber);
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
    Supervision.closed(this);
    group.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
  }

  /** What {@code io.krill.fibers.spi.Carriers} reaches through {@link CarrierAccess}. */
  static final class Access extends CarrierAccess {
    @Override
    public Object newEventLoopScheduler(int threads, boolean tracking, CarrierIo io) {
      return new EventLoopScheduler(threads, tracking, io);
    }

    @Override
    public EventLoopGroup group(Object scheduler) {
      return scheduler instanceof EventLoopScheduler ? ((EventLoopScheduler) scheduler).group() : null;
    }

    @Override
    public CarrierIo io(Object scheduler) {
      return scheduler instanceof EventLoopScheduler ? ((EventLoopScheduler) scheduler).io() : null;
    }

    @Override
    public EventLoop currentLoop() {
      return EventLoopScheduler.currentLoop();
    }

    @Override
    public Thread newCarrierThread(Runnable task, String name) {
      return new CarrierThread(task, name);
    }
  }
}
