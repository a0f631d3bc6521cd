package io.krill.netio;

import io.krill.fibers.Suspendable;

/**
 * Serves one accepted connection, blocking-style, in its own fiber; see
 * {@link FiberServerSocket#serve(SocketHandler)}. The socket is closed when this returns or
 * throws.
 */
@FunctionalInterface
public interface SocketHandler {
  /**
   * Serves {@code socket}. May suspend.
   *
   * @param socket the accepted connection
   * @throws Exception on failure: I/O failures are logged at debug level, others go to the
   *     fiber's uncaught-exception handler
   * @throws Suspendable never; marks that this method may suspend
   */
  void handle(FiberSocket socket) throws Exception, Suspendable;
}
