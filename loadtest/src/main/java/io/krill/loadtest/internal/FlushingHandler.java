package io.krill.loadtest.internal;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;

/**
 * The raw-Netty servers' common handler behaviour: writes made while reading one batch are
 * flushed once when the batch ends, and a failed connection is closed. Subclasses write in
 * {@code channelRead}.
 */
public abstract class FlushingHandler extends ChannelInboundHandlerAdapter {
  @Override
  public final void channelReadComplete(ChannelHandlerContext ctx) {
    ctx.flush();
  }

  @Override
  public final void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    ctx.close(); // a client reset mid-load is routine; nothing to report
  }
}
