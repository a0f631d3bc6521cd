package io.krill.httpd;

import io.krill.fibers.Suspendable;
import io.krill.netio.FiberOutput;
import java.io.IOException;
import java.nio.file.Path;

/**
 * The response to one request: set status and headers, then send a whole body, stream one, or
 * send a file. Once the head is sent the response is {@link #committed()} and status and
 * headers can no longer change.
 *
 * <p>Threading: valid only inside {@link Handler#handle} on the connection's strand; the
 * sending methods may suspend that fiber (block the thread off-fiber).
 */
public interface Response {
  /**
   * @param code the final status, 200..999 (interim 1xx responses are the server's business)
   * @return this
   * @throws IllegalStateException if committed
   * @throws IllegalArgumentException if {@code code} is not 200..999
   */
  Response status(int code);

  /** @return the status, 200 unless set */
  int status();

  /**
   * Sets a header, replacing earlier values.
   *
   * @param name the header name
   * @param value its value; null removes the header
   * @return this
   * @throws IllegalStateException if committed
   * @throws IllegalArgumentException if name or value contain CR, LF or other forbidden characters
   */
  Response header(String name, String value);

  /**
   * Adds a header value, keeping earlier values.
   *
   * @param name the header name
   * @param value its value
   * @return this
   * @throws IllegalStateException if committed
   */
  Response addHeader(String name, String value);

  /** @return true once the head was handed to the network */
  boolean committed();

  /**
   * Sends the whole response with {@code Content-Length}. May suspend.
   *
   * @param body the body (not sent for HEAD)
   * @throws IllegalStateException if committed
   * @throws IOException if the connection failed
   * @throws Suspendable never; marks that this method suspends
   */
  void send(byte[] body) throws IOException, Suspendable;

  /**
   * Sends {@code body} as UTF-8 with {@code Content-Type: text/plain; charset=utf-8} unless a
   * content type was set. May suspend.
   *
   * @param body the text
   * @throws IllegalStateException if committed
   * @throws IOException if the connection failed
   * @throws Suspendable never; marks that this method suspends
   */
  void send(String body) throws IOException, Suspendable;

  /**
   * Commits the head and returns a stream for the body: chunked unless a
   * {@code Content-Length} header was set. The server ends the body when the handler returns.
   * May suspend.
   *
   * @return the body stream; writes may suspend while the client does not read
   * @throws IllegalStateException if committed by another send method
   * @throws IOException if the connection failed
   * @throws Suspendable never; marks that this method suspends
   */
  FiberOutput output() throws IOException, Suspendable;

  /**
   * Sends {@code length} bytes of {@code file} from {@code offset} as the body with
   * {@code Content-Length}; zero-copy when TLS is off. May suspend.
   *
   * @param file a readable regular file
   * @param offset the first byte, >= 0
   * @param length how many bytes, >= 0, within the file
   * @throws IllegalStateException if committed
   * @throws IOException if the file cannot be read or the connection failed
   * @throws Suspendable never; marks that this method suspends
   */
  void sendFile(Path file, long offset, long length) throws IOException, Suspendable;
}
