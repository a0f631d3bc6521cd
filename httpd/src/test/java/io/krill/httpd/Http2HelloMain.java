package io.krill.httpd;

import io.krill.fibers.FiberScheduler;
import io.krill.httpd.http2.Http2Options;
import io.krill.netio.Transport;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.handler.codec.http2.DefaultHttp2DataFrame;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.DefaultHttp2HeadersFrame;
import io.netty.handler.codec.http2.Http2FrameCodecBuilder;
import io.netty.handler.codec.http2.Http2HeadersFrame;
import io.netty.handler.codec.http2.Http2MultiplexHandler;
import io.netty.util.ReferenceCountUtil;
import java.nio.charset.StandardCharsets;

/**
 * The HTTP/2 hello servers a benchmark compares with h2load: {@code httpd} (h2c, a fiber per
 * stream, one carrier) or {@code netty} (raw Netty HTTP/2: the frame codec and multiplexer with
 * an async handler per stream, one event loop of the carriers' transport). Prints {@code port N}; stops when stdin ends.
 * Not a test: run by hand, see docs/results/2026-11-25-http2.md.
 */
public final class Http2HelloMain {
  static final byte[] HELLO = "Hello, World!".getBytes(StandardCharsets.US_ASCII);

  private Http2HelloMain() {}

  public static void main(String[] args) throws Exception {
    AutoCloseable server;
    int port;
    if (args[0].equals("httpd")) {
      FiberScheduler scheduler = FiberScheduler.eventLoop(1);
      HttpServer s = HttpServer.builder().port(0).scheduler(scheduler).http2(Http2Options.defaults())
          .get("/hello", (req, res) -> {
            res.header("content-type", "text/plain");
            res.send(HELLO);
          }).build().start();
      port = s.port();
      server = () -> {
        s.close();
        scheduler.close();
      };
    } else {
      // The transport httpd's carriers use (epoll when it loads): the comparison is of the HTTP/2 layers only.
      Transport transport = Transport.AUTO.resolve();
      EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, transport.newIoHandlerFactory());
      Channel ch = new ServerBootstrap().group(group).channel(transport.serverChannel())
          .childHandler(new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
              ch.pipeline().addLast(Http2FrameCodecBuilder.forServer().build(), new Http2MultiplexHandler(STREAM));
            }
          }).bind("127.0.0.1", 0).sync().channel();
      port = ((java.net.InetSocketAddress) ch.localAddress()).getPort();
      server = () -> {
        ch.close().sync();
        group.shutdownGracefully();
      };
    }
    System.out.println("port " + port);
    System.out.flush();
    while (System.in.read() >= 0) {
      // until stdin ends
    }
    server.close();
    System.exit(0);
  }

  /* Raw Netty: answers a request's HEADERS at once with HEADERS and one DATA frame. */
  private static final ChannelHandler STREAM = new RawHello();

  @ChannelHandler.Sharable
  private static final class RawHello extends ChannelInboundHandlerAdapter {
    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      try {
        if (msg instanceof Http2HeadersFrame && ((Http2HeadersFrame) msg).isEndStream()) {
          ctx.write(new DefaultHttp2HeadersFrame(new DefaultHttp2Headers().status("200")
              .set("content-type", "text/plain").setInt("content-length", HELLO.length)));
          ByteBuf body = Unpooled.wrappedBuffer(HELLO);
          ctx.writeAndFlush(new DefaultHttp2DataFrame(body, true));
        }
      } finally {
        ReferenceCountUtil.release(msg);
      }
    }
  }
}
