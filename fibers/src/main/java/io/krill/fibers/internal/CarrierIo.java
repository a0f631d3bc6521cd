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
 * property {@value #PROPERTY}: {@code nio}, {@code epoll}, {@code io_uring} or
 * {@code auto} (the default: epoll if it loads, else NIO). netio puts a channel on the carriers when its
 * transport is the same one.
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
   * AUTO's order is epoll, then NIO; io_uring only when asked for by name. io_uring would be
   * the natural first choice (submissions and completions batched through shared rings, so
   * fewer syscalls per wake-up), and it loads here (Linux 6.18, io_uring enabled). But Netty
   * 4.2.7's io_uring transport has a known defect (netty/netty#17237, fixed by #17238 in a
   * later 4.2 release): when the output is shut down while a write is in flight, including
   * Netty's own shutdown on a write error, the write's completion meets a null outbound
   * buffer. The loop logs a NullPointerException, the channel never finishes closing (its fd
   * leaks), and the kernel may still read memory that went back to the allocator. httpd's
   * suite on io_uring carriers hit it: 35 of 173 tests lost responses. netio's own
   * shutdownOutput waits for pending writes first and passes on io_uring, but a write error
   * can still take Netty's path. Put IO_URING first in AUTO_ORDER again once Netty has the
   * fix and the netio and httpd suites pass with -Dkrill.fibers.io=io_uring.
   *
   * Netty's Epoll/IoUring classes probe the kernel and the native library once, so
   * isAvailable() is cheap. A missing classes jar shows up as a LinkageError, which counts as
   * "not available" with that error as the cause.
   */

  /** The system property that picks the carriers' I/O handler. */
  public static final String PROPERTY = "krill.fibers.io";
  /** The value used when {@value #PROPERTY} is unset. */
  public static final String DEFAULT = "auto";
  /** What {@code auto} tries, best first. */
  private static final CarrierIo[] AUTO_ORDER = {EPOLL, NIO};

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

  /** @return what {@code auto} picks: epoll if it loads, else NIO (io_uring only by name; see the notes) */
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
