package io.krill.loadtest.load;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.util.ReferenceCountUtil;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An HTTP server with known behaviour for the generator's tests, on Netty's codec: it counts
 * every request and open connection, and answers each request with 200 (or 500), after a fixed
 * delay, with one extra stall on one chosen request, or resets the connection instead, or
 * never answers.
 */
final class TestHttpServer implements AutoCloseable {
  /** How the server answers. */
  enum Behaviour {
    OK,
    STATUS_500,
    RESET,
    /** Reads requests and never answers. */
    SILENT
  }

  final AtomicLong requests = new AtomicLong();
  final AtomicInteger open = new AtomicInteger();
  final AtomicInteger maxOpen = new AtomicInteger();
  private final Behaviour behaviour;
  private final long delayMillis;
  private final long stallRequest;
  private final long stallMillis;
  private final EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
  private final Channel channel;

  /**
   * @param delayMillis delay before every answer
   * @param stallRequest the 1-based number of the request that waits {@code stallMillis} more (0: none)
   */
  TestHttpServer(Behaviour behaviour, long delayMillis, long stallRequest, long stallMillis) throws InterruptedException {
    this.behaviour = behaviour;
    this.delayMillis = delayMillis;
    this.stallRequest = stallRequest;
    this.stallMillis = stallMillis;
    channel = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
        .option(ChannelOption.SO_BACKLOG, 1024)
        .childOption(ChannelOption.TCP_NODELAY, true)
        .childHandler(new ChannelInitializer<Channel>() {
          @Override
          protected void initChannel(Channel ch) {
            ch.pipeline().addLast(new HttpServerCodec(), new Handler());
          }
        })
        .bind(InetAddress.getLoopbackAddress(), 0).sync().channel();
  }

  static TestHttpServer ok() throws InterruptedException {
    return new TestHttpServer(Behaviour.OK, 0, 0, 0);
  }

  int port() {
    return ((InetSocketAddress) channel.localAddress()).getPort();
  }

  @Override
  public void close() {
    channel.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
    group.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
  }

  private final class Handler extends ChannelInboundHandlerAdapter {
    @Override
    public void channelActive(ChannelHandlerContext ctx) {
      int n = open.incrementAndGet();
      maxOpen.accumulateAndGet(n, Math::max);
      ctx.fireChannelActive();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
      open.decrementAndGet();
      ctx.fireChannelInactive();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      boolean request = msg instanceof HttpRequest;
      ReferenceCountUtil.release(msg);
      if (!request) {
        return;
      }
      long n = requests.incrementAndGet();
      if (behaviour == Behaviour.SILENT) {
        return;
      }
      if (behaviour == Behaviour.RESET) {
        ctx.channel().config().setOption(ChannelOption.SO_LINGER, 0);
        ctx.close();
        return;
      }
      HttpResponseStatus status = behaviour == Behaviour.STATUS_500 ? HttpResponseStatus.INTERNAL_SERVER_ERROR
          : HttpResponseStatus.OK;
      long delay = delayMillis + (n == stallRequest ? stallMillis : 0);
      if (delay == 0) {
        ctx.writeAndFlush(response(status));
      } else {
        ctx.executor().schedule(() -> ctx.writeAndFlush(response(status)), delay, TimeUnit.MILLISECONDS);
      }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      ctx.close();
    }
  }

  private static FullHttpResponse response(HttpResponseStatus status) {
    FullHttpResponse r = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status,
        Unpooled.copiedBuffer("hi", StandardCharsets.US_ASCII));
    r.headers().set(HttpHeaderNames.CONTENT_LENGTH, 2);
    return r;
  }
}
