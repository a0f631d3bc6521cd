package io.krill.httpd.internal.body;

import io.krill.fibers.Suspendable;
import io.netty.buffer.ByteBuf;
import java.io.IOException;

/**
 * A response that can send a body already held in a buffer. The server's responses implement
 * it; the static-file handler uses it for files whose bytes its cache keeps in direct memory.
 */
public interface BufferedBody {
  /**
   * @return true if a file body sent now would be read and copied through the JVM (TLS or
   *     HTTP/2) rather than sent from the file by the kernel, so held bytes serve it cheaper
   */
  boolean copiesFileBodies();

  /**
   * Sends {@code content} as the whole body with {@code Content-Length}, like
   * {@link io.krill.httpd.Response#send(byte[])}; parks while the peer does not take it (on
   * HTTP/2, while the stream's flow-control window is closed). May suspend.
   *
   * @param content the body; this call takes over the caller's reference (released when sent,
   *     or at once when no body is sent), and its bytes must not change until then
   * @throws IllegalStateException if committed
   * @throws IOException if the connection failed
   * @throws Suspendable never; marks that this method suspends
   */
  void sendContent(ByteBuf content) throws IOException, Suspendable;
}
