package io.krill.netio;

import io.krill.fibers.SpinLocks;
import io.krill.fibers.Suspendable;
import io.krill.netio.internal.Errors;
import io.krill.netio.spi.ByteSink;
import io.netty.buffer.ByteBuf;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.charset.StandardCharsets;

/**
 * The buffered output of a {@link FiberSocket}. Writes gather bytes in a buffer of the
 * socket's {@code outputBufferSize}; a full buffer, and {@link #flush()}, hand the bytes to the
 * channel and then park while the channel is not writable (more than the high water mark is
 * queued), so a fast writer cannot outrun a slow peer by more than the water mark.
 *
 * <p>Threading: one strand writes at a time. Writes and flushes may suspend the calling fiber,
 * never its carrier; off-fiber they block the thread. The socket's write timeout raises
 * {@link java.net.SocketTimeoutException} when the peer does not read.
 */
public final class FiberOutput {
  /* Guards the sections that close() may run from another thread (see SpinLocks). */
  private static final VarHandle LOCKED = SpinLocks.handle(MethodHandles.lookup(), FiberOutput.class);

  private volatile int locked;
  private final ByteSink sink;
  private final int bufferSize;
  private ByteBuf pending;
  private boolean closed;

  FiberOutput(ByteSink sink, int bufferSize) {
    this.sink = sink;
    this.bufferSize = bufferSize;
  }

  /**
   * A stream into {@code sink}; for krill modules that frame streams inside a connection
   * (httpd's chunked response bodies), not API.
   *
   * @param sink where the bytes go
   * @param bufferSize how many bytes to gather before writing them to the sink, > 0
   * @return the stream
   */
  public static FiberOutput of(ByteSink sink, int bufferSize) {
    java.util.Objects.requireNonNull(sink, "sink");
    io.krill.fibers.Checks.positive("bufferSize", bufferSize);
    return new FiberOutput(sink, bufferSize);
  }

  /**
   * Writes one byte. May suspend when the buffer fills.
   *
   * @param b the byte (low 8 bits)
   * @throws IOException on timeout, reset or close
   * @throws Suspendable never; marks that this method suspends
   */
  public void write(int b) throws IOException, Suspendable {
    boolean full;
    SpinLocks.lock(LOCKED, this);
    try {
      ByteBuf buf = buffer();
      buf.writeByte(b);
      full = buf.readableBytes() >= bufferSize;
    } finally {
      SpinLocks.unlock(LOCKED, this);
    }
    if (full) {
      send();
    }
  }

  /**
   * Writes all of {@code b}. May suspend when the buffer fills.
   *
   * @param b the bytes
   * @throws IOException on timeout, reset or close
   * @throws Suspendable never; marks that this method suspends
   */
  public void write(byte[] b) throws IOException, Suspendable {
    write(b, 0, b.length);
  }

  /**
   * Writes {@code len} bytes of {@code b}. May suspend when the buffer fills.
   *
   * @param b the bytes
   * @param off the first index
   * @param len how many
   * @throws IOException on timeout, reset or close
   * @throws Suspendable never; marks that this method suspends
   */
  public void write(byte[] b, int off, int len) throws IOException, Suspendable {
    java.util.Objects.checkFromIndexSize(off, len, b.length);
    while (len > 0) {
      boolean full;
      int n;
      SpinLocks.lock(LOCKED, this);
      try {
        ByteBuf buf = buffer();
        n = Math.min(len, bufferSize - buf.readableBytes());
        buf.writeBytes(b, off, n);
        full = buf.readableBytes() >= bufferSize;
      } finally {
        SpinLocks.unlock(LOCKED, this);
      }
      off += n;
      len -= n;
      if (full) {
        send();
      }
    }
  }

  /**
   * Writes {@code s} encoded as UTF-8. May suspend when the buffer fills.
   *
   * @param s the text
   * @throws IOException on timeout, reset or close
   * @throws Suspendable never; marks that this method suspends
   */
  public void writeUtf8(CharSequence s) throws IOException, Suspendable {
    write(s.toString().getBytes(StandardCharsets.UTF_8));
  }

  /**
   * Sends what is buffered, then parks while the channel is not writable. May suspend.
   *
   * @throws java.net.SocketTimeoutException if the peer does not make room within the write timeout
   * @throws IOException on reset or close
   * @throws Suspendable never; marks that this method suspends
   */
  public void flush() throws IOException, Suspendable {
    if (!handOver(true)) {
      sink.flush();
    }
    sink.awaitWritable();
  }

  private void send() throws IOException, Suspendable {
    if (handOver(true)) {
      sink.awaitWritable();
    }
  }

  /*
   * Hands the gathered bytes to the sink; returns false if nothing was gathered. The buffer
   * goes with them: the next write takes a new one from the channel's pool. (Keeping it for
   * the next writes when the sink was done with it saved no measurable CPU in the echo
   * benchmark, and held a pooled buffer per idle connection, away from the pool's warm ones.)
   */
  private boolean handOver(boolean flush) throws IOException {
    ByteBuf buf;
    SpinLocks.lock(LOCKED, this);
    try {
      checkOpen();
      buf = pending;
      pending = null;
    } finally {
      SpinLocks.unlock(LOCKED, this);
    }
    if (buf == null) {
      return false;
    }
    sink.write(buf, flush);
    return true;
  }

  /* Most writes between flushes are small: start small and grow to bufferSize on demand. */
  private static final int INITIAL_BUFFER = 512;

  private ByteBuf buffer() throws IOException {
    checkOpen();
    ByteBuf buf = pending;
    if (buf == null) {
      buf = sink.alloc().buffer(Math.min(INITIAL_BUFFER, bufferSize), bufferSize);
      pending = buf;
    }
    return buf;
  }

  private void checkOpen() throws IOException {
    if (closed) {
      throw Errors.closed(sink.peer());
    }
  }

  /**
   * Hands what is buffered to the sink without waiting; later writes throw. Does not close the
   * socket: a socket's stream is closed by {@link FiberSocket#close()}, a stream from
   * {@link #of} by its owner. Idempotent; never blocks.
   */
  public void close() {
    ByteBuf buf;
    SpinLocks.lock(LOCKED, this);
    try {
      if (closed) {
        return;
      }
      closed = true;
      buf = pending;
      pending = null;
    } finally {
      SpinLocks.unlock(LOCKED, this);
    }
    if (buf != null) {
      try {
        sink.write(buf, true);
      } catch (IOException e) {
        // write() released the buffer; the connection failed already and close goes on
      }
    }
  }
}
