package io.krill.httpd.internal.http2;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultHttpRequest;
import io.netty.handler.codec.http.DefaultLastHttpContent;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http2.HttpConversionUtil.ExtensionHeaderNames;

/**
 * Between Netty's stream-frame-to-HTTP codec and the server's connection handler on a stream
 * channel: gives the exchange what HTTP/1.1's decoder gives it, and takes what it writes
 * there. Inbound, a whole request (a HEADERS frame that ends the stream) becomes its head and
 * its end, and the codec's bookkeeping headers ({@code x-http2-stream-id}, {@code
 * x-http2-scheme}) are dropped. Outbound, a raw body buffer becomes body content. Runs on the
 * connection's event loop.
 */
final class StreamAdapter extends ChannelDuplexHandler {
  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    if (msg instanceof HttpRequest) {
      HttpRequest r = (HttpRequest) msg;
      r.headers().remove(ExtensionHeaderNames.STREAM_ID.text()).remove(ExtensionHeaderNames.SCHEME.text());
      if (msg instanceof FullHttpRequest) {
        FullHttpRequest full = (FullHttpRequest) msg;
        ctx.fireChannelRead(new DefaultHttpRequest(full.protocolVersion(), full.method(), full.uri(), full.headers()));
        ctx.fireChannelRead(new DefaultLastHttpContent(full.content(), full.trailingHeaders()));
        return;
      }
    }
    ctx.fireChannelRead(msg);
  }

  @Override
  public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
    ctx.write(msg instanceof ByteBuf ? new DefaultHttpContent((ByteBuf) msg) : msg, promise);
  }
}
