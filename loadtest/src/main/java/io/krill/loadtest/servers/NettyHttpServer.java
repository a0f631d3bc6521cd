package io.krill.loadtest.servers;

import io.krill.loadtest.internal.FlushingHandler;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
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
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.util.ReferenceCountUtil;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;

/**
 * The ceiling: an asynchronous Netty handler behind Netty's HTTP codec, as the Netty examples
 * write it. Answers {@link HelloBytes#HELLO} at once and {@link HelloBytes#SLOW} from a task
 * scheduled on the connection's event loop, keeps connections alive, answers pipelined
 * requests in order, and flushes once per read batch.
 *
 * <p>Threading: one NIO event loop per processor; all handler code runs on the connection's loop.
 */
final class NettyHttpServer implements AutoCloseable {
  private static final ByteBuf BODY = Unpooled.unreleasableBuffer(Unpooled.directBuffer().writeBytes(HelloBytes.BODY));

  private final EventLoopGroup group;
  private final Channel channel;

  NettyHttpServer(int threads, int backlog) throws InterruptedException {
    group = new MultiThreadIoEventLoopGroup(threads, NioIoHandler.newFactory());
    channel = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
        .option(ChannelOption.SO_BACKLOG, backlog)
        .option(ChannelOption.SO_REUSEADDR, true)
        .childOption(ChannelOption.TCP_NODELAY, true)
        .childHandler(new ChannelInitializer<Channel>() {
          @Override
          protected void initChannel(Channel ch) {
            ch.pipeline().addLast(new HttpServerCodec(), HANDLER);
          }
        })
        .bind(InetAddress.getLoopbackAddress(), 0).sync().channel();
  }

  int port() {
    return ((InetSocketAddress) channel.localAddress()).getPort();
  }

  @Override
  public void close() {
    channel.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
    group.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
  }

  private static final HelloHandler HANDLER = new HelloHandler();

  /** Answers each request; body parts of requests (none for GET) are dropped. */
  @ChannelHandler.Sharable
  static final class HelloHandler extends FlushingHandler {
    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      if (!(msg instanceof HttpRequest)) {
        ReferenceCountUtil.release(msg);
        return;
      }
      HttpRequest req = (HttpRequest) msg;
      ReferenceCountUtil.release(msg);
      boolean keepAlive = HttpUtil.isKeepAlive(req);
      String uri = req.uri();
      if (uri.equals(HelloBytes.HELLO)) {
        write(ctx, response(HttpResponseStatus.OK, BODY.duplicate()), keepAlive, false);
      } else if (uri.equals(HelloBytes.SLOW)) {
        ctx.executor().schedule(() -> write(ctx, response(HttpResponseStatus.OK, BODY.duplicate()), keepAlive, true),
            HelloBytes.SLOW_MILLIS, TimeUnit.MILLISECONDS);
      } else {
        write(ctx, response(HttpResponseStatus.NOT_FOUND, Unpooled.EMPTY_BUFFER), keepAlive, false);
      }
    }

    private static FullHttpResponse response(HttpResponseStatus status, ByteBuf body) {
      FullHttpResponse r = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, body);
      if (body.isReadable()) {
        r.headers().set(HttpHeaderNames.CONTENT_TYPE, HelloBytes.CONTENT_TYPE);
      }
      r.headers().set(HttpHeaderNames.CONTENT_LENGTH, body.readableBytes());
      r.headers().set(HttpHeaderNames.DATE, HelloBytes.date());
      return r;
    }

    private static void write(ChannelHandlerContext ctx, FullHttpResponse r, boolean keepAlive, boolean flush) {
      if (!keepAlive) {
        ctx.writeAndFlush(r).addListener(ChannelFutureListener.CLOSE);
      } else if (flush) {
        ctx.writeAndFlush(r, ctx.voidPromise());
      } else {
        ctx.write(r, ctx.voidPromise());
      }
    }
  }
}
