package io.krill.netio;

import io.krill.fibers.internal.CarrierIo;
import java.util.Locale;

/**
 * The Netty transport a socket uses. A channel lives on the fiber scheduler's own event loops
 * when its transport is the one the carriers run ({@code -Dkrill.fibers.io}), so an I/O
 * completion resumes the fiber on the same thread; otherwise it runs on a separate shared
 * group of that transport and resumes fibers with a hand-off to their home loop.
 *
 * <p>{@link #AUTO} picks epoll if it loads, else NIO. io_uring is used only when asked for by
 * name: Netty 4.2.7's io_uring transport can lose a write that is in flight when the output
 * shuts down (netty/netty#17237), so {@code auto} does not pick it yet.
 *
 * <p>The default comes from the system property {@code krill.netio.transport} ({@code nio},
 * {@code epoll}, {@code io_uring} or {@code auto}); when it is unset, from
 * {@code krill.fibers.io}, the I/O handler of the fiber carriers, so that channels live on
 * the carriers either way; when both are unset, AUTO.
 */
public enum Transport {
  /** Java NIO: works everywhere. */
  NIO,
  /** Linux epoll through Netty's native library. */
  EPOLL,
  /**
   * Linux io_uring through Netty's native library (kernel 5.14+ with io_uring enabled). Opt-in
   * only for now; see the class comment.
   */
  IO_URING,
  /** Epoll if it loads, else NIO. */
  AUTO;

  /** The system property that sets the default transport of {@link SocketOptions}. */
  public static final String PROPERTY = "krill.netio.transport";

  /**
   * Reads the default transport: {@code krill.netio.transport}, else {@code krill.fibers.io},
   * else NIO.
   *
   * @return the transport named there (AUTO stays AUTO)
   * @throws IllegalArgumentException naming the property for an unknown value
   * @throws IllegalStateException naming the property when it asks for a transport that does
   *     not load here ({@code "krill.netio.transport: io_uring is not available here: <cause>"})
   */
  public static Transport fromSystemProperty() {
    String property = System.getProperty(PROPERTY) != null ? PROPERTY : CarrierIo.PROPERTY;
    String name = System.getProperty(property, CarrierIo.DEFAULT);
    Transport t;
    try {
      t = valueOf(name.trim().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(property + ": " + name + " (expected: nio, epoll, io_uring or auto)", e);
    }
    if (t != AUTO) {
      t.carrierIo().requireAvailable(property);
    }
    return t;
  }

  /** @return true if this transport can be used in this process (AUTO always can) */
  public boolean isAvailable() {
    return this == AUTO || carrierIo().isAvailable();
  }

  /** @return why this transport does not load here, or null if it does */
  public Throwable unavailabilityCause() {
    return this == AUTO ? null : carrierIo().unavailabilityCause();
  }

  /**
   * Resolves {@link #AUTO} and checks availability.
   *
   * @return NIO, EPOLL or IO_URING
   * @throws IllegalStateException if this transport does not load here
   *     ({@code "transport: io_uring is not available here: <cause>"})
   */
  public Transport resolve() {
    if (this == AUTO) {
      return io.krill.netio.internal.Transports.transport(CarrierIo.best());
    }
    carrierIo().requireAvailable("transport");
    return this;
  }

  private CarrierIo carrierIo() {
    return this == AUTO ? CarrierIo.best() : io.krill.netio.internal.Transports.carrierIo(this);
  }
}
