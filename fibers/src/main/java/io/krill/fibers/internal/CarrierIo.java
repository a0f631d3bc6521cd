package io.krill.fibers.internal;

import io.netty.channel.IoHandlerFactory;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.uring.IoUring;
import io.netty.channel.uring.IoUringIoHandler;
import java.util.Locale;

/**
 * The I/O handler an {@link EventLoopScheduler}'s carriers run, chosen with the system
 * property {@value #PROPERTY}: {@code nio} (the default), {@code epoll}, {@code io_uring} or
 * {@code auto}. netio puts a channel on the carriers when its transport is the same one.
 * Immutable; availability is probed once per process by Netty. Not API.
 */
public enum CarrierIo {
  /** Java NIO: works everywhere. */
  NIO("nio"),
  /** Linux epoll through Netty's native library. */
  EPOLL("epoll"),
  /** Linux io_uring through Netty's native library (kernel 5.14+, io_uring enabled). */
  IO_URING("io_uring");

  /*
   * Implementation notes.
   *
   * AUTO's order is io_uring, epoll, NIO: the most capable handler that loads. io_uring batches
   * submissions and completions through shared rings (fewer syscalls per wake-up); epoll still
   * needs one syscall per read/write but is the most battle-tested native transport; NIO is the
   * portable fallback. Netty's Epoll/IoUring classes probe the kernel and the native library
   * once, so isAvailable() is cheap. A missing classes jar shows up as a LinkageError, which
   * counts as "not available" with that error as the cause.
   */

  /** The system property that picks the carriers' I/O handler. */
  public static final String PROPERTY = "krill.fibers.io";
  /** The value used when {@value #PROPERTY} is unset. */
  public static final String DEFAULT = "nio";
  /** What {@code auto} tries, best first. */
  private static final CarrierIo[] AUTO_ORDER = {IO_URING, EPOLL, NIO};

  private final String id;

  CarrierIo(String id) {
    this.id = id;
  }

  /** @return the name used in {@value #PROPERTY}: nio, epoll or io_uring */
  public String id() {
    return id;
  }

  /** @return true if this handler loads in this process */
  public boolean isAvailable() {
    return unavailabilityCause() == null;
  }

  /** @return why this handler does not load, or null if it does */
  public Throwable unavailabilityCause() {
    try {
      switch (this) {
        case EPOLL:
          return Epoll.isAvailable() ? null : Epoll.unavailabilityCause();
        case IO_URING:
          return IoUring.isAvailable() ? null : IoUring.unavailabilityCause();
        default:
          return null;
      }
    } catch (LinkageError e) {
      return e;
    }
  }

  /**
   * Checks that this handler loads.
   *
   * @param property the setting that asked for it, for the message
   * @return this
   * @throws IllegalStateException "{@code <property>: io_uring is not available here: <cause>}"
   */
  public CarrierIo requireAvailable(String property) {
    Throwable cause = unavailabilityCause();
    if (cause != null) {
      throw new IllegalStateException(property + ": " + id + " is not available here: " + cause, cause);
    }
    return this;
  }

  /** @return a new factory of this handler, for a Netty {@code MultiThreadIoEventLoopGroup} */
  public IoHandlerFactory newFactory() {
    switch (requireAvailable(PROPERTY)) {
      case EPOLL:
        return EpollIoHandler.newFactory();
      case IO_URING:
        return IoUringIoHandler.newFactory();
      default:
        return NioIoHandler.newFactory();
    }
  }

  /** @return the best handler that loads here: io_uring, else epoll, else NIO */
  public static CarrierIo best() {
    for (CarrierIo io : AUTO_ORDER) {
      if (io.isAvailable()) {
        return io;
      }
    }
    return NIO;
  }

  /**
   * Parses a setting: nio, epoll, io_uring or auto (resolved with {@link #best()}), in any case.
   *
   * @param property the setting's name, for messages
   * @param value its value
   * @return the handler, checked to load
   * @throws IllegalArgumentException naming the property for an unknown value
   * @throws IllegalStateException naming the property if the handler does not load here
   */
  public static CarrierIo parse(String property, String value) {
    String v = value.trim().toLowerCase(Locale.ROOT);
    if (v.equals("auto")) {
      return best();
    }
    for (CarrierIo io : values()) {
      if (io.id.equals(v)) {
        return io.requireAvailable(property);
      }
    }
    throw new IllegalArgumentException(property + ": " + value + " (expected: nio, epoll, io_uring or auto)");
  }

  /** @return the handler {@value #PROPERTY} names ({@value #DEFAULT} when unset), checked to load */
  public static CarrierIo fromSystemProperty() {
    return parse(PROPERTY, System.getProperty(PROPERTY, DEFAULT));
  }
}
