package io.krill.netio;

import io.krill.fibers.Checks;
import io.krill.fibers.SpinLocks;
import io.krill.fibers.Suspendable;
import io.krill.netio.internal.Errors;
import io.krill.netio.spi.ByteSource;
import io.netty.buffer.ByteBuf;
import io.netty.util.ReferenceCountUtil;
import java.io.EOFException;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The buffered input of a {@link FiberSocket}. A read parks only when the buffer is empty; then
 * it asks the channel for one more read and waits for it (reads are on demand, so a slow
 * reader holds at most one read's worth of bytes).
 *
 * <p>Threading: one strand reads at a time. Reads may suspend the calling fiber, never its
 * carrier; off-fiber they block the thread. End of stream is {@code -1} / {@code null}; the
 * socket's read timeout raises {@link java.net.SocketTimeoutException}, a reset
 * {@link java.net.SocketException} naming the peer.
 */
public final class FiberInput {
  /* Guards the sections that close() may run from another thread (see SpinLocks). */
  private static final VarHandle LOCKED = SpinLocks.handle(MethodHandles.lookup(), FiberInput.class);

  private volatile int locked;
  /** Default: the longest line {@link #readLine()} accepts, in bytes, without its terminator. */
  public static final int DEFAULT_MAX_LINE_LENGTH = 8192;

  private final ByteSource source;
  private ByteBuf current;
  private boolean eof;
  private boolean closed;
  /** readLine's buffer, created by the first readLine (most streams never read lines). */
  private byte[] line;

  FiberInput(ByteSource source) {
    this.source = source;
  }

  /**
   * A stream over {@code source}; for krill modules that carve streams out of a connection
   * (httpd's request bodies), not API.
   *
   * @param source where the bytes come from
   * @return the stream
   */
  public static FiberInput of(ByteSource source) {
    return new FiberInput(java.util.Objects.requireNonNull(source, "source"));
  }

  /**
   * Reads one byte. May suspend.
   *
   * @return the byte, 0..255, or -1 at end of stream
   * @throws IOException on timeout, reset or close
   * @throws Suspendable never; marks that this method suspends
   */
  public int read() throws IOException, Suspendable {
    if (!fill()) {
      return -1;
    }
    SpinLocks.lock(LOCKED, this);
    try {
      return checkedCurrent().readUnsignedByte();
    } finally {
      SpinLocks.unlock(LOCKED, this);
    }
  }

  /**
   * Reads up to {@code b.length} bytes. May suspend.
   *
   * @param b where to put them
   * @return how many were read (at least 1 unless {@code b} is empty), or -1 at end of stream
   * @throws IOException on timeout, reset or close
   * @throws Suspendable never; marks that this method suspends
   */
  public int read(byte[] b) throws IOException, Suspendable {
    return read(b, 0, b.length);
  }

  /**
   * Reads up to {@code len} bytes, parking only if none are buffered. May suspend.
   *
   * @param b where to put them
   * @param off the first index of {@code b} to fill
   * @param len the most bytes to read
   * @return how many were read (at least 1 unless {@code len} is 0), or -1 at end of stream
   * @throws IOException on timeout, reset or close
   * @throws Suspendable never; marks that this method suspends
   */
  public int read(byte[] b, int off, int len) throws IOException, Suspendable {
    java.util.Objects.checkFromIndexSize(off, len, b.length);
    if (len == 0) {
      return 0;
    }
    if (!fill()) {
      return -1;
    }
    SpinLocks.lock(LOCKED, this);
    try {
      ByteBuf buf = checkedCurrent();
      int n = Math.min(len, buf.readableBytes());
      buf.readBytes(b, off, n);
      return n;
    } finally {
      SpinLocks.unlock(LOCKED, this);
    }
  }

  /**
   * Reads exactly {@code b.length} bytes. May suspend.
   *
   * @param b where to put them
   * @throws EOFException if the stream ends first
   * @throws IOException on timeout, reset or close
   * @throws Suspendable never; marks that this method suspends
   */
  public void readFully(byte[] b) throws IOException, Suspendable {
    readFully(b, 0, b.length);
  }

  /**
   * Reads exactly {@code len} bytes. May suspend.
   *
   * @param b where to put them
   * @param off the first index of {@code b} to fill
   * @param len how many bytes
   * @throws EOFException if the stream ends first, saying how many bytes came
   * @throws IOException on timeout, reset or close
   * @throws Suspendable never; marks that this method suspends
   */
  public void readFully(byte[] b, int off, int len) throws IOException, Suspendable {
    java.util.Objects.checkFromIndexSize(off, len, b.length);
    int done = 0;
    while (done < len) {
      int n = read(b, off + done, len - done);
      if (n < 0) {
        throw new EOFException("End of stream after " + done + " of " + len + " bytes from " + source.peer());
      }
      done += n;
    }
  }

  /**
   * Reads a line of at most {@link #DEFAULT_MAX_LINE_LENGTH} bytes; see {@link #readLine(int)}.
   *
   * @return the line, or null at end of stream
   * @throws IOException on timeout, reset, close or an over-long line
   * @throws Suspendable never; marks that this method suspends
   */
  public String readLine() throws IOException, Suspendable {
    return readLine(DEFAULT_MAX_LINE_LENGTH);
  }

  /**
   * Reads a line ended by LF or CRLF, decoded as UTF-8, without its terminator. A last line
   * without terminator is returned as it is. May suspend.
   *
   * @param maxLength the most bytes the line may have, without terminator, > 0
   * @return the line, or null at end of stream
   * @throws LineTooLongException if the line is longer; the stream position is then undefined
   * @throws IOException on timeout, reset or close
   * @throws Suspendable never; marks that this method suspends
   */
  public String readLine(int maxLength) throws IOException, Suspendable {
    Checks.positive("maxLength", maxLength);
    int n = 0;
    for (;;) {
      if (!fill()) {
        return n == 0 ? null : decodeLine(n, maxLength);
      }
      SpinLocks.lock(LOCKED, this);
      try {
        ByteBuf buf = checkedCurrent();
        int start = buf.readerIndex();
        int end = buf.writerIndex();
        int lf = buf.indexOf(start, end, (byte) '\n');
        int chunk = (lf < 0 ? end : lf) - start;
        if (n + chunk > maxLength + 1) { // + 1: room for the CR of a CRLF
          throw new LineTooLongException(source.peer(), maxLength);
        }
        if (line == null) {
          line = new byte[Math.min(Math.max(128, chunk), maxLength + 1)];
        } else if (n + chunk > line.length) {
          line = Arrays.copyOf(line, Math.min(Math.max(line.length * 2, n + chunk), maxLength + 1));
        }
        buf.readBytes(line, n, chunk);
        n += chunk;
        if (lf >= 0) {
          buf.skipBytes(1);
          return decodeLine(n, maxLength);
        }
      } finally {
        SpinLocks.unlock(LOCKED, this);
      }
    }
  }

  private String decodeLine(int n, int maxLength) throws LineTooLongException {
    if (n > 0 && line[n - 1] == '\r') {
      n--;
    }
    if (n > maxLength) {
      throw new LineTooLongException(source.peer(), maxLength);
    }
    return new String(line, 0, n, StandardCharsets.UTF_8);
  }

  /**
   * Skips up to {@code n} bytes, parking only if none are buffered. May suspend.
   *
   * @param n how many bytes to skip, >= 0
   * @return how many were skipped; 0 at end of stream
   * @throws IOException on timeout, reset or close
   * @throws Suspendable never; marks that this method suspends
   */
  public long skip(long n) throws IOException, Suspendable {
    if (Checks.nonNegative("n", n) == 0 || !fill()) {
      return 0;
    }
    SpinLocks.lock(LOCKED, this);
    try {
      ByteBuf buf = checkedCurrent();
      int k = (int) Math.min(n, buf.readableBytes());
      buf.skipBytes(k);
      return k;
    } finally {
      SpinLocks.unlock(LOCKED, this);
    }
  }

  /** @return how many bytes can be read without parking (at least) */
  public int available() {
    SpinLocks.lock(LOCKED, this);
    try {
      return current == null ? 0 : current.readableBytes();
    } finally {
      SpinLocks.unlock(LOCKED, this);
    }
  }

  /** Ensures buffered bytes; false at end of stream. */
  private boolean fill() throws IOException, Suspendable {
    ByteBuf buf = current;
    return buf != null && buf.isReadable() || fillSlow();
  }

  private boolean fillSlow() throws IOException, Suspendable {
    for (;;) {
      SpinLocks.lock(LOCKED, this);
      try {
        if (closed) {
          throw Errors.closed(source.peer());
        }
        if (current != null) {
          if (current.isReadable()) {
            return true;
          }
          current.release();
          current = null;
        }
        if (eof) {
          return false;
        }
      } finally {
        SpinLocks.unlock(LOCKED, this);
      }
      Object m = source.take();
      if (m == null) {
        SpinLocks.lock(LOCKED, this);
        try {
          eof = true;
        } finally {
          SpinLocks.unlock(LOCKED, this);
        }
        return false;
      }
      if (!(m instanceof ByteBuf)) {
        ReferenceCountUtil.release(m);
        throw new IllegalStateException("FiberInput of " + source.peer() + " got a " + m.getClass().getName()
            + " (expected: bytes; use FiberSocket.messages for decoded messages)");
      }
      SpinLocks.lock(LOCKED, this);
      try {
        if (closed) {
          ((ByteBuf) m).release();
          throw Errors.closed(source.peer());
        }
        current = (ByteBuf) m;
      } finally {
        SpinLocks.unlock(LOCKED, this);
      }
    }
  }

  private ByteBuf checkedCurrent() throws IOException {
    ByteBuf buf = current;
    if (buf == null) { // closed by another strand after fill()
      throw Errors.closed(source.peer());
    }
    return buf;
  }

  /**
   * Releases the buffered bytes; later reads throw. Does not close the socket: a socket's
   * stream is closed by {@link FiberSocket#close()}, a stream from {@link #of} by its owner.
   * Idempotent; never blocks.
   */
  public void close() {
    SpinLocks.lock(LOCKED, this);
    try {
      closed = true;
      if (current != null) {
        current.release();
        current = null;
      }
    } finally {
      SpinLocks.unlock(LOCKED, this);
    }
  }
}
