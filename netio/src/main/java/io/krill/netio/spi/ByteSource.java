package io.krill.netio.spi;

import io.krill.fibers.Suspendable;
import java.io.IOException;

/**
 * Where a {@link io.krill.netio.FiberInput} gets its bytes: a socket's connection, or a
 * stream carved out of one (an HTTP request body). For protocol libraries, not application code.
 */
public interface ByteSource {
  /**
   * Waits for the next buffer. May suspend.
   *
   * @return a {@code ByteBuf} owned by the caller, or null at end of stream
   * @throws IOException on timeout, reset, close or a limit
   * @throws Suspendable never; marks that this method suspends
   */
  Object take() throws IOException, Suspendable;

  /** @return the peer, {@code host:port}, for messages */
  String peer();
}
