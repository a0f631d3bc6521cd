package io.krill.netio.internal;

import io.krill.fibers.Strand;
import io.krill.fibers.Suspendable;
import io.krill.netio.spi.ConnectionHandler;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.socket.DuplexChannel;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.ScheduledFuture;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.util.concurrent.TimeUnit;

/**
 * The last handler of a netio socket's pipeline: the {@link ConnectionHandler connection core}
 * with netio's reads (a deadline per take), writes (a listener off the loop) and closing
 * (half-close, linger). Not API.
 */
@io.netty.channel.ChannelHandler.Sharable // one pipeline only; Sharable so messages() can re-add it after the codecs
public final class Connection extends ConnectionHandler implements ChannelFutureListener {
  /** The handler's name in the pipeline. */
  public static final String NAME = "krill-connection";

  private final String peer;
  private volatile boolean outputShutdown;

  /**
   * @param channel the channel this handler serves
   * @param peer the peer as {@code host:port}, for messages
   */
  public Connection(Channel channel, String peer) {
    super(channel);
    this.peer = peer;
  }

  /** @return the peer as {@code host:port} */
  @Override
  public String peer() {
    return peer;
  }

  // ------------------------------------------------------------------ reading strand

  /**
   * Takes the next inbound message, parking while there is none. Messages already received
   * come before a failure.
   *
   * @param timeoutNanos the longest wait, 0 for none
   * @return the message, owned by the caller; null at the end of the stream
   * @throws SocketTimeoutException if nothing came in time
   * @throws IOException if the connection failed or was closed locally
   * @throws Suspendable never; marks that this method suspends
   */
  public Object take(long timeoutNanos) throws IOException, Suspendable {
    Object m = poll();
    return m != null ? m : takeSlow(timeoutNanos);
  }

  private Object takeSlow(long timeoutNanos) throws IOException, Suspendable {
    long deadline = Strand.deadline(timeoutNanos);
    Object me = Strand.current();
    try {
      for (;;) {
        Object m = pollOrPublish(me);
        if (m == END) {
          return ended();
        }
        if (m != null) {
          return m;
        }
        channel.read();
        if (!Strand.park(this, deadline)) {
          throw new SocketTimeoutException("Read timed out after " + TimeUnit.NANOSECONDS.toMillis(timeoutNanos)
              + " ms: " + peer);
        }
      }
    } finally {
      publishReader(null);
    }
  }

  /* The queue is empty and nothing more will come: say why. */
  private Object ended() throws IOException {
    if (isClosed()) {
      throw Errors.closed(peer);
    }
    Throwable fail = failure();
    if (fail != null) {
      throw Errors.ioFailed(fail, peer);
    }
    return null;
  }

  // ------------------------------------------------------------------ writing strand

  /**
   * Writes a message; the pipeline takes ownership, also when this throws.
   *
   * @param msg the message
   * @param flush whether to flush
   * @throws IOException if the socket is closed, its output shut down, or a write failed
   */
  public void write(Object msg, boolean flush) throws IOException {
    Throwable fail = failure();
    if (fail != null || isClosed() || outputShutdown) {
      ReferenceCountUtil.release(msg);
      throw fail != null ? Errors.ioFailed(fail, peer) : Errors.closed(peer);
    }
    if (channel.eventLoop().inEventLoop() && channel.isActive()) {
      // On the channel's own loop (a fiber at home): the write runs now, on an open channel,
      // so a void promise is safe; a failure arrives in exceptionCaught like any other. No
      // promise, no listener, no notification task per write.
      if (flush) {
        channel.writeAndFlush(msg, channel.voidPromise());
      } else {
        channel.write(msg, channel.voidPromise());
      }
      return;
    }
    ChannelFuture f = flush ? channel.writeAndFlush(msg) : channel.write(msg);
    f.addListener(this);
  }

  /**
   * Listens to writes made off the channel's loop: a failed one fails the connection. Not for
   * callers.
   *
   * @param f the write's future
   */
  @Override
  public void operationComplete(ChannelFuture f) {
    if (!f.isSuccess()) {
      failed(f.cause());
    }
  }

  /** Flushes what was written. */
  public void flush() {
    channel.flush();
  }

  @Override
  protected IOException writeRefused(Throwable failure) {
    return failure != null ? Errors.ioFailed(failure, peer) : Errors.closed(peer);
  }

  /**
   * Half-closes: once everything written so far is on the wire, shuts the output down.
   *
   * @param timeoutNanos the longest wait for pending writes, 0 for none
   * @throws IOException if that failed
   * @throws Suspendable never; marks that this method suspends
   */
  public void shutdownOutput(long timeoutNanos) throws IOException, Suspendable {
    if (isClosed()) {
      throw Errors.closed(peer);
    }
    if (outputShutdown) {
      return; // the writing strand is the only caller: no race with itself
    }
    outputShutdown = true;
    if (!(channel instanceof DuplexChannel)) {
      throw new UnsupportedOperationException("shutdownOutput: " + channel.getClass().getSimpleName() + " is not a duplex channel");
    }
    io.netty.channel.ChannelPromise done = channel.newPromise();
    channel.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(f -> {
      if (f.isSuccess()) {
        ((DuplexChannel) channel).shutdownOutput(done);
      } else {
        done.setFailure(f.cause());
      }
    });
    if (!Await.done(done, Strand.deadline(timeoutNanos))) {
      throw new SocketTimeoutException("Shutting down output timed out after "
          + TimeUnit.NANOSECONDS.toMillis(timeoutNanos) + " ms: " + peer + " is not reading");
    }
    if (!done.isSuccess()) {
      throw Errors.ioFailed(done.cause(), peer);
    }
  }

  // ------------------------------------------------------------------ closing

  /**
   * Closes without waiting: releases what is queued, wakes waiting strands, and closes the
   * channel once what was written is flushed, or after {@code lingerNanos} at the latest.
   *
   * @param lingerNanos how long pending writes may take before the channel is closed anyway
   */
  public void close(long lingerNanos) {
    if (!closeQueue()) {
      return;
    }
    if (!channel.isActive()) {
      channel.close();
      return;
    }
    channel.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
    if (lingerNanos > 0) {
      ScheduledFuture<?> force = channel.eventLoop().schedule(() -> {
        channel.close();
      }, lingerNanos, TimeUnit.NANOSECONDS);
      channel.closeFuture().addListener(f -> force.cancel(false));
    }
  }

  /** @return true until {@link #close} was called or the channel closed */
  public boolean isOpen() {
    return !isClosed() && channel.isActive();
  }
}
