package io.krill.netio;

import io.netty.channel.epoll.Epoll;

/**
 * The Netty transport a socket uses. {@link #NIO} is the default: its channels live on the
 * fiber scheduler's own event loops, so an I/O completion resumes the fiber on the same
 * thread. {@link #EPOLL} runs channels on the carriers too when they run the epoll handler
 * ({@code -Dkrill.fibers.io=epoll}), otherwise on a separate native event-loop group that
 * resumes fibers with a hand-off to their home loop. {@link #AUTO} picks epoll when it loads.
 *
 * <p>The default comes from the system property {@code krill.netio.transport}
 * ({@code nio}, {@code epoll} or {@code auto}); when it is unset, from
 * {@code krill.fibers.io}, the I/O handler of the fiber carriers, so that channels live on
 * the carriers either way.
 */
public enum Transport {
  /** Java NIO, on the fiber scheduler's loops. */
  NIO,
  /** Linux epoll through Netty's native library. */
  EPOLL,
  /** Epoll when available, otherwise NIO. */
  AUTO;

  /** @return the transport named by {@code krill.netio.transport}, NIO when unset */
  public static Transport fromSystemProperty() {
    String name = System.getProperty("krill.netio.transport", System.getProperty("krill.fibers.io", "nio"));
    try {
      return valueOf(name.trim().toUpperCase(java.util.Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("krill.netio.transport: " + name + " (expected: nio, epoll or auto)", e);
    }
  }

  /** @return true if this transport can be used in this process */
  public boolean isAvailable() {
    return this != EPOLL || Epoll.isAvailable();
  }

  /**
   * Resolves {@link #AUTO} and checks availability.
   *
   * @return NIO or EPOLL
   * @throws IllegalStateException if this is EPOLL and epoll does not load here, naming why
   */
  public Transport resolve() {
    if (this == AUTO) {
      return Epoll.isAvailable() ? EPOLL : NIO;
    }
    if (this == EPOLL && !Epoll.isAvailable()) {
      throw new IllegalStateException("transport EPOLL is not available: " + Epoll.unavailabilityCause(),
          Epoll.unavailabilityCause());
    }
    return this;
  }
}
