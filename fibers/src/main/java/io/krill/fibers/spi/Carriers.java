package io.krill.fibers.spi;

import io.krill.fibers.FiberScheduler;
import io.krill.fibers.internal.CarrierAccess;
import io.krill.fibers.internal.CarrierIo;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;

/**
 * The fiber carriers as Netty sees them, for I/O libraries that put channels on the carriers'
 * event loops (so an I/O completion resumes its fiber on the same thread); not for application
 * code. An I/O handler is named by its id: {@code nio}, {@code epoll} or {@code io_uring}.
 * Thread-safe.
 */
public final class Carriers {
  /** The system property that picks the carriers' I/O handler: nio, epoll, io_uring or auto. */
  public static final String IO_PROPERTY = CarrierIo.PROPERTY;
  /** The value used when {@value #IO_PROPERTY} is unset. */
  public static final String IO_DEFAULT = CarrierIo.DEFAULT;

  private static final CarrierAccess ACCESS = CarrierAccess.get(FiberScheduler.class);

  private Carriers() {}

  /**
   * Creates an event-loop scheduler whose carriers run the I/O handler {@value #IO_PROPERTY} names.
   *
   * @param threads how many loops
   * @param tracking whether to keep a registry of live fibers
   * @return the scheduler
   */
  public static FiberScheduler eventLoop(int threads, boolean tracking) {
    return (FiberScheduler) ACCESS.newEventLoopScheduler(threads, tracking, CarrierIo.fromSystemProperty());
  }

  /**
   * Creates an event-loop scheduler whose carriers run a given I/O handler.
   *
   * @param threads how many loops
   * @param tracking whether to keep a registry of live fibers
   * @param io nio, epoll or io_uring
   * @return the scheduler
   * @throws IllegalStateException if that handler does not load here
   */
  public static FiberScheduler eventLoop(int threads, boolean tracking, String io) {
    return (FiberScheduler) ACCESS.newEventLoopScheduler(threads, tracking, handler(io));
  }

  /** @return the Netty group of {@code scheduler}'s carriers, or null if they are not event loops */
  public static EventLoopGroup group(FiberScheduler scheduler) {
    return ACCESS.group(scheduler);
  }

  /** @return the id of the I/O handler {@code scheduler}'s carriers run, or null if they are not event loops */
  public static String io(FiberScheduler scheduler) {
    CarrierIo io = ACCESS.io(scheduler);
    return io == null ? null : io.id();
  }

  /** @return the event loop the calling thread runs as a carrier, or null */
  public static EventLoop currentLoop() {
    return ACCESS.currentLoop();
  }

  /** @return true if {@code loop} is one of {@code scheduler}'s carriers, so a fiber can live there */
  public static boolean isCarrier(EventLoop loop, FiberScheduler scheduler) {
    EventLoopGroup group = ACCESS.group(scheduler);
    return group != null && loop.parent() == group;
  }

  /** @return the id of what {@code auto} picks here: epoll if it loads, else nio */
  public static String bestIo() {
    return CarrierIo.best().id();
  }

  /**
   * @param io nio, epoll or io_uring
   * @return why that handler does not load here, or null if it does
   */
  public static Throwable unavailabilityCause(String io) {
    return handler(io).unavailabilityCause();
  }

  /**
   * @param io nio, epoll or io_uring
   * @return a new factory of that handler, for a Netty {@code MultiThreadIoEventLoopGroup}
   * @throws IllegalStateException if that handler does not load here
   */
  public static IoHandlerFactory newIoHandlerFactory(String io) {
    return handler(io).newFactory();
  }

  /**
   * Creates a thread on which woven code finds its continuation in a field rather than a
   * thread-local, as on a carrier; for benchmark harnesses that drive continuations themselves.
   *
   * @param task what it runs
   * @param name the thread's name
   * @return the unstarted thread
   */
  public static Thread newCarrierThread(Runnable task, String name) {
    return ACCESS.newCarrierThread(task, name);
  }

  private static CarrierIo handler(String io) {
    for (CarrierIo c : CarrierIo.values()) {
      if (c.id().equals(io)) {
        return c;
      }
    }
    throw new IllegalArgumentException("io: " + io + " (expected: nio, epoll or io_uring)");
  }
}
