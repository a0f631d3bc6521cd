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
   */
  private ByteArrayOutputStream in = new ByteArrayOutputStream();
  private ByteArrayOutputStream out = new ByteArrayOutputStream();
  private int cap;
  private volatile long inboundBytes;
  private volatile long lastInboundNanos;
  private volatile boolean overflowed;

  synchronized void reset(int cap) {
    this.in = new ByteArrayOutputStream(Math.min(cap, 16 * 1024));
    this.out = new ByteArrayOutputStream(512);
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
        int room = cap - in.size();
        if (room > 0) {
          int take = Math.min(room, n);
          byte[] copy = new byte[take];
          b.getBytes(b.readerIndex(), copy);
          in.write(copy, 0, take);
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
      byte[] copy = new byte[b.readableBytes()];
      b.getBytes(b.readerIndex(), copy);
      synchronized (this) {
        out.write(copy, 0, copy.length);
      }
    }
    ctx.write(msg, promise);
  }

  synchronized byte[] inbound() {
    return in.toByteArray();
  }

  synchronized byte[] outbound() {
    return out.toByteArray();
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
