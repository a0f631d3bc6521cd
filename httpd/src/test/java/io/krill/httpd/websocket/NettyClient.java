package io.krill.httpd.websocket;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.http.EmptyHttpHeaders;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.netty.handler.codec.http.websocketx.TextWebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketClientProtocolHandler;
import io.netty.handler.codec.http.websocketx.WebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketFrameAggregator;
import io.netty.handler.codec.http.websocketx.WebSocketVersion;
import io.netty.handler.codec.http.websocketx.extensions.compression.WebSocketClientCompressionHandler;
import java.net.URI;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** Netty's own WebSocket client (with permessage-deflate offered), queueing what it receives like {@link JdkClient}. */
final class NettyClient implements AutoCloseable {
  private final EventLoopGroup group;
  private final Channel channel;
  private final BlockingQueue<String> received;
  private final CompletableFuture<String> extensions;

  private NettyClient(EventLoopGroup group, Channel channel, BlockingQueue<String> received,
      CompletableFuture<String> extensions) {
    this.group = group;
    this.channel = channel;
    this.received = received;
    this.extensions = extensions;
  }

  static NettyClient connect(int port, String path, boolean compression) throws Exception {
    EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    BlockingQueue<String> received = new LinkedBlockingQueue<>();
    CompletableFuture<String> extensions = new CompletableFuture<>();
    CompletableFuture<Void> open = new CompletableFuture<>();
    URI uri = URI.create("ws://127.0.0.1:" + port + path);
    try {
      Channel ch = new Bootstrap().group(group).channel(NioSocketChannel.class).handler(new ChannelInitializer<Channel>() {
        @Override
        protected void initChannel(Channel ch) {
          ch.pipeline().addLast(new HttpClientCodec(), new HttpObjectAggregator(1 << 20));
          ch.pipeline().addLast(new ChannelInboundHandlerAdapter() {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
              if (msg instanceof FullHttpResponse) {
                String e = ((FullHttpResponse) msg).headers().get(HttpHeaderNames.SEC_WEBSOCKET_EXTENSIONS);
                extensions.complete(e == null ? "" : e);
              }
              ctx.fireChannelRead(msg);
            }
          });
          if (compression) {
            ch.pipeline().addLast(new WebSocketClientCompressionHandler(0));
          }
          ch.pipeline().addLast(new WebSocketClientProtocolHandler(uri, WebSocketVersion.V13, null, true,
              EmptyHttpHeaders.INSTANCE, 1 << 20));
          ch.pipeline().addLast(new WebSocketFrameAggregator(1 << 20));
          ch.pipeline().addLast(new SimpleChannelInboundHandler<WebSocketFrame>() {
            @Override
            protected void channelRead0(ChannelHandlerContext ctx, WebSocketFrame f) {
              if (f instanceof TextWebSocketFrame) {
                received.add("text:" + ((TextWebSocketFrame) f).text());
              } else if (f instanceof BinaryWebSocketFrame) {
                received.add("binary:" + new String(ByteBufUtil.getBytes(f.content()), java.nio.charset.StandardCharsets.UTF_8));
              }
            }

            @Override
            public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
              if (evt == WebSocketClientProtocolHandler.ClientHandshakeStateEvent.HANDSHAKE_COMPLETE) {
                open.complete(null);
              }
              ctx.fireUserEventTriggered(evt);
            }

            @Override
            public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
              open.completeExceptionally(cause);
              received.add("error:" + cause);
            }
          });
        }
      }).connect("127.0.0.1", port).sync().channel();
      open.get(20, TimeUnit.SECONDS);
      return new NettyClient(group, ch, received, extensions);
    } catch (Exception e) {
      group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
      throw e;
    }
  }

  void sendText(String text) throws Exception {
    channel.writeAndFlush(new TextWebSocketFrame(text)).sync();
  }

  void sendBinary(byte[] data) throws Exception {
    channel.writeAndFlush(new BinaryWebSocketFrame(Unpooled.wrappedBuffer(data))).sync();
  }

  String next() throws InterruptedException {
    String s = received.poll(20, TimeUnit.SECONDS);
    if (s == null) {
      throw new AssertionError("nothing received within 20 s");
    }
    return s;
  }

  String extensions() throws Exception {
    return extensions.get(20, TimeUnit.SECONDS);
  }

  @Override
  public void close() {
    channel.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
    group.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
  }
}
