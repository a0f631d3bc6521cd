package io.krill.httpd.internal.http2;

import io.krill.fibers.Strand;
import io.krill.fibers.Suspendable;
import io.krill.fibers.VarHandles;
import io.netty.channel.Channel;
import io.netty.channel.EventLoop;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2FrameStream;
import io.netty.handler.codec.http2.Http2Stream;
import io.netty.util.ReferenceCountUtil;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.util.concurrent.TimeUnit;

/**
 * One stream the client opened, as its strand sees it: writes go straight to the connection's
 * frame codec, reads return the window as the strand asks for more, and a full window parks the
 * writer. Lives in its connection's {@link StreamTable}; the loop-side fields are the loop's.
 */
final class ServerStream implements Http2Pipeline.Stream {
  /*
   * Implementation notes.
   *
   * Writability is the frame codec's: the remote flow controller says whether the stream's and
   * the connection's windows (and the channel's buffer) take more, and tells the table when that
   * changes; the answer is kept in a volatile field, so a strand on another thread reads it
   * without a hop. Such a strand's writes hop onto the loop as tasks in order; the bytes in those
   * tasks count against the window here (offLoopBytes) until they reach the codec, or a strand
   * off the loop could queue tasks without bound before the flow controller sees a byte.
   *
   * Waking the writer: it publishes itself in `writer`, then re-checks; the loop changes the
   * volatile state, then wakes whoever is published. A wake before the park leaves a permit.
   */
  /* The most bytes an off-loop strand may have in tasks not yet handed to the codec. */
  private static final long OFF_LOOP_BYTES = 64 * 1024;
  private static final VarHandle OFF_LOOP =
      VarHandles.field(MethodHandles.lookup(), ServerStream.class, "offLoopBytes", long.class);

  private final StreamTable table;
  private final Http2FrameStream frameStream;
  final int id;
  private final Http2Stream stream;
  private final EventLoop loop;
  /** The server's handler; set by the table right after construction. */
  Http2Pipeline.StreamHandler handler;
  /** Loop: the client ended its side (END_STREAM or trailers received, or a reset). */
  boolean remoteEnded;
  /** Loop: bytes of DATA frames given to the strand and not yet returned to the windows. */
  int unconsumed;
  /** Loop: listed in the table's streams to wake at the end of this read. */
  boolean inReceived;
  private volatile boolean writable;
  /* The stream is over: reset, failed, closed, or the connection is gone. */
  private volatile boolean gone;
  /* It closed normally: both sides ended, the response went out whole. */
  private volatile boolean completed;
  private volatile boolean closed;
  private volatile Object writer;
  private volatile long offLoopBytes;

  ServerStream(StreamTable table, Http2FrameStream frameStream, Http2Stream stream) {
    this.table = table;
    this.frameStream = frameStream;
    this.id = frameStream.id();
    this.stream = stream;
    this.loop = table.codecCtx.channel().eventLoop();
    this.writable = table.codec.connection().remote().flowController().isWritable(stream);
  }

  @Override
  public Channel connection() {
    return table.codecCtx.channel();
  }

  // ------------------------------------------------------------------ loop side

  void receive(Object msg) {
    handler.receive(msg);
    table.received(this);
  }

  void writabilityChanged() {
    writable = !gone && table.codec.connection().remote().flowController().isWritable(stream);
    Strand.wake(writer);
  }

  /*
   * Reset, failed, or the connection is gone: the strand's reads end and its writes fail.
   * @param cause what ended it, for the strand's exception
   */
  void ended(String cause) {
    gone = true;
    writable = false;
    remoteEnded = true;
    handler.ended(cause);
    Strand.wake(writer);
  }

  /* @return true if the codec sent RST_STREAM on this stream (a failed write, an error of ours) */
  boolean resetSent() {
    return stream.isResetSent();
  }

  /*
   * Closed normally: both sides sent END_STREAM, so the strand has its whole request and its
   * response went out; a strand still finishing its exchange finds nothing more to wait for.
   */
  void completed() {
    completed = true;
    gone = true;
    remoteEnded = true;
    Strand.wake(writer);
  }

  // ------------------------------------------------------------------ strand side

  @Override
  public void write(Object msg, boolean flush) {
    if (loop.inEventLoop()) {
      writeNow(msg);
      if (flush) {
        table.flushSoon();
      }
      return;
    }
    long n = StreamCodec.bytes(msg);
    if (n > 0) {
      OFF_LOOP.getAndAdd(this, n);
    }
    loop.execute(() -> {
      try {
        writeNow(msg);
        if (flush) {
          table.flushSoon();
        }
      } finally {
        if (n > 0 && (long) OFF_LOOP.getAndAdd(this, -n) - n < OFF_LOOP_BYTES) {
          Strand.wake(writer);
        }
      }
    });
  }

  private void writeNow(Object msg) {
    if (gone) {
      ReferenceCountUtil.release(msg); // reset meanwhile: the strand learns it from its handler
      return;
    }
    StreamCodec.write(table.codec.encoder(), table.codecCtx, id, msg);
  }

  @Override
  public void flush() {
    if (loop.inEventLoop()) {
      table.flushSoon();
    } else {
      loop.execute(table::flushSoon);
    }
  }

  @Override
  public void read() {
    if (loop.inEventLoop()) {
      consumeRead();
    } else {
      loop.execute(this::consumeRead);
    }
  }

  private void consumeRead() {
    int n = unconsumed;
    if (n > 0 && !gone) {
      unconsumed = 0;
      table.consume(frameStream, n);
      table.flushSoon(); // the WINDOW_UPDATE
    }
  }

  private boolean canWrite() {
    return writable && offLoopBytes < OFF_LOOP_BYTES;
  }

  @Override
  public void awaitWritable(long timeoutNanos) throws IOException, Suspendable {
    if (!canWrite()) {
      awaitWritableSlow(timeoutNanos);
    }
  }

  private void awaitWritableSlow(long timeoutNanos) throws IOException, Suspendable {
    long deadline = Strand.deadline(timeoutNanos);
    writer = Strand.current();
    try {
      while (!canWrite()) {
        if (completed) {
          return; // all it wrote went out
        }
        if (gone || closed) {
          throw new SocketException("HTTP/2 stream " + id + " reset or closed while writing: "
              + connection().remoteAddress());
        }
        if (!Strand.park(this, deadline)) {
          throw new SocketTimeoutException("Write timed out after " + TimeUnit.NANOSECONDS.toMillis(timeoutNanos)
              + " ms: " + connection().remoteAddress() + " does not open stream " + id + "'s window");
        }
      }
    } finally {
      writer = null;
    }
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    if (loop.inEventLoop()) {
      closeNow();
    } else {
      loop.execute(this::closeNow);
    }
  }

  /*
   * The response is written (or the strand failed): the codec closes the stream once its END_STREAM
   * goes out. A client still sending is reset (CANCEL), as a closing stream channel did; a reset
   * drops the DATA flow control still holds, so what the strand wrote is flushed first.
   */
  private void closeNow() {
    if (gone) {
      return;
    }
    if (!remoteEnded) {
      table.flushIfQueued();
      table.forget(this);
      gone = true;
      table.codec.resetStream(table.codecCtx, id, Http2Error.CANCEL.code(), table.codecCtx.voidPromise());
      table.flushSoon();
    }
  }
}
