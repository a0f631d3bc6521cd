package io.krill.crawler.fetch;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import java.io.ByteArrayOutputStream;

/**
 * Copies the bytes of one exchange as they cross the wire (below the HTTP codec, above TLS)
 * so that WARC records hold exactly what was sent and received. Captures at most a cap of
 * inbound bytes; counts all of them (for the slow-drip guard).
 */
final class WireTap extends ChannelDuplexHandler {
  /*
   * Implementation notes. The loop thread appends; the fetching strand resets the tap before
   * it sends a request and reads it after the last content arrived. The hand-off through the
   * connection's message queue (synchronized) orders the loop's writes before the strand's
   * reads; the counters the strand polls while waiting are volatile.
   *
   * Heap: the buffers exist only between reset() and clear(), so an idle pooled connection holds
   * no bytes of its last exchange, and a fetch waiting for its first byte holds a small buffer
   * that is allocated with the first bytes and grows with what arrives (not a preallocated 16 KB). Bytes go from the ByteBuf straight
   * into the buffer, without an intermediate copy.
   */
  /** First capacity of the inbound buffer; it grows (doubling) as bytes arrive. */
  static final int INITIAL_INBOUND_BYTES = 1024;
  /** First capacity of the outbound buffer: a GET request head fits. */
  static final int INITIAL_OUTBOUND_BYTES = 256;

  private ByteArrayOutputStream in;
  private ByteArrayOutputStream out;
  private int cap;
  private boolean capturing;
  private volatile long inboundBytes;
  private volatile long lastInboundNanos;
  private volatile boolean overflowed;

  synchronized void reset(int cap) {
    this.in = null; // allocated with the first inbound bytes: a fetch waiting for its answer holds none
    this.capturing = true;
    this.out = new ByteArrayOutputStream(INITIAL_OUTBOUND_BYTES);
    this.cap = cap;
    this.inboundBytes = 0;
    this.overflowed = false;
    this.lastInboundNanos = System.nanoTime();
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    if (msg instanceof ByteBuf) {
      ByteBuf b = (ByteBuf) msg;
      int n = b.readableBytes();
      synchronized (this) {
        if (in == null && capturing) {
          in = new ByteArrayOutputStream(Math.min(cap, Math.max(INITIAL_INBOUND_BYTES, n)));
        }
        int room = in == null ? 0 : cap - in.size();
        if (room > 0) {
          copy(b, in, Math.min(room, n));
        }
        if (n > room) {
          overflowed = true;
        }
        inboundBytes += n;
        lastInboundNanos = System.nanoTime();
      }
    }
    ctx.fireChannelRead(msg);
  }

  @Override
  public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
    if (msg instanceof ByteBuf) {
      ByteBuf b = (ByteBuf) msg;
      synchronized (this) {
        if (out != null) {
          copy(b, out, b.readableBytes());
        }
      }
    }
    ctx.write(msg, promise);
  }

  /* Appends n readable bytes of b without moving its reader index: heap buffers copy from their array directly. */
  private static void copy(ByteBuf b, ByteArrayOutputStream to, int n) {
    if (b.hasArray()) {
      to.write(b.array(), b.arrayOffset() + b.readerIndex(), n);
    } else {
      byte[] tmp = new byte[n];
      b.getBytes(b.readerIndex(), tmp);
      to.write(tmp, 0, n);
    }
  }

  synchronized byte[] inbound() {
    return in == null ? new byte[0] : in.toByteArray();
  }

  synchronized byte[] outbound() {
    return out == null ? new byte[0] : out.toByteArray();
  }

  /** Drops the buffers once the exchange's bytes were taken; bytes that arrive later are counted, not kept. */
  synchronized void clear() {
    capturing = false;
    in = null;
    out = null;
  }

  long inboundBytes() {
    return inboundBytes;
  }

  long lastInboundNanos() {
    return lastInboundNanos;
  }

  boolean overflowed() {
    return overflowed;
  }
}
