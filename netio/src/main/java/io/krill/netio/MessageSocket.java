package io.krill.netio;

import io.krill.fibers.Suspendable;
import java.io.IOException;
import java.net.SocketAddress;

/**
 * A connection that carries messages: {@link #receive()} returns what the pipeline's codecs
 * decode, {@link #send(Object)} hands a message to them for encoding. Obtain one with
 * {@link FiberSocket#messages(java.util.function.Consumer)}.
 *
 * <pre>{@code
 * MessageSocket<String> lines = socket.messages(p -> p.addLast(
 *     new LineBasedFrameDecoder(1024), new StringDecoder(UTF_8), new StringEncoder(UTF_8)));
 * for (String line; (line = lines.receive()) != null; ) lines.send(line + "\n");
 * }</pre>
 *
 * <p>Backpressure both ways: the channel reads only when the receive queue is empty, and
 * {@code send} parks while the channel is not writable. Reference-counted messages received
 * belong to the caller, who releases them; queued ones are released on close.
 *
 * <p>Threading: one strand receives and one sends at a time; both may suspend the calling
 * fiber, never its carrier. {@link #close()} never blocks.
 *
 * @param <I> the type of received messages
 */
public final class MessageSocket<I> implements AutoCloseable {
  private final FiberSocket socket;

  MessageSocket(FiberSocket socket) {
    this.socket = socket;
  }

  /**
   * Waits for the next decoded message. May suspend.
   *
   * @return the message, or null at end of stream
   * @throws java.net.SocketTimeoutException if none comes within the read timeout
   * @throws IOException on reset, close, or a decoder failure (its cause)
   * @throws ClassCastException if the pipeline produced something other than {@code I}
   * @throws Suspendable never; marks that this method suspends
   */
  @SuppressWarnings("unchecked")
  public I receive() throws IOException, Suspendable {
    return (I) socket.connection.take(socket.readTimeoutNanos);
  }

  /**
   * Writes and flushes {@code msg}, then parks while the channel is not writable. May suspend.
   *
   * @param msg the message; the pipeline owns it from now on, also when this throws
   * @throws IOException on timeout, reset or close
   * @throws Suspendable never; marks that this method suspends
   */
  public void send(Object msg) throws IOException, Suspendable {
    socket.connection.write(msg, true);
    socket.connection.awaitWritable(socket.writeTimeoutNanos);
  }

  /**
   * Writes {@code msg} without flushing, unless the channel stopped being writable: then it
   * flushes and parks like {@link #send}. May suspend.
   *
   * @param msg the message; the pipeline owns it from now on, also when this throws
   * @throws IOException on timeout, reset or close
   * @throws Suspendable never; marks that this method suspends
   */
  public void write(Object msg) throws IOException, Suspendable {
    socket.connection.write(msg, false);
    if (!socket.connection.channel().isWritable()) {
      flush();
    }
  }

  /**
   * Flushes, then parks while the channel is not writable. May suspend.
   *
   * @throws IOException on timeout, reset or close
   * @throws Suspendable never; marks that this method suspends
   */
  public void flush() throws IOException, Suspendable {
    socket.connection.flush();
    socket.connection.awaitWritable(socket.writeTimeoutNanos);
  }

  /**
   * Half-closes once what was sent is on the wire. May suspend.
   *
   * @throws IOException if that failed
   * @throws Suspendable never; marks that this method suspends
   */
  public void shutdownOutput() throws IOException, Suspendable {
    socket.shutdownOutput();
  }

  /** Closes without blocking; see {@link FiberSocket#close()}. */
  @Override
  public void close() {
    socket.close();
  }

  /** @return true until closed locally or by the peer */
  public boolean isOpen() {
    return socket.isOpen();
  }

  /** @return the peer, {@code host:port} */
  public String peer() {
    return socket.peer();
  }

  /** @return the remote address */
  public SocketAddress remoteAddress() {
    return socket.remoteAddress();
  }

  /** @return the underlying socket (for timeouts and addresses) */
  public FiberSocket socket() {
    return socket;
  }
}
