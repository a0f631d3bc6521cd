package io.krill.loadtest.echo;

import io.krill.fibers.ExecutionMode;
import io.krill.httpd.HttpServer;
import io.krill.httpd.websocket.WebSocketHandler;
import io.krill.httpd.websocket.WebSocketMessage;
import io.krill.httpd.websocket.WebSocketRoute;
import io.krill.httpd.websocket.WebSocketSettings;
import io.krill.loadtest.internal.ServerArgs;
import io.krill.netio.Transport;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.netty.handler.codec.http.websocketx.TextWebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketServerProtocolHandler;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;

/**
 * One WebSocket echo server of the comparison, alone in its JVM: {@code fiber} and
 * {@code virtual} (httpd's {@link WebSocketRoute} with a blocking-style echo loop, a fiber or a
 * virtual thread per socket) and {@code netty} (Netty's {@link WebSocketServerProtocolHandler}
 * and an async echo handler, on the carriers' transport). Each echoes every text or binary message at once, flushed, without
 * compression. Listens on 127.0.0.1 at {@code /echo}, prints {@code port N}, and serves until its
 * standard input closes or {@code MAX_SECONDS} pass.
 *
 * <p>usage: {@code WebSocketEchoServerMain KIND [MAX_SECONDS]}
 */
public final class WebSocketEchoServerMain {
  /** Every kind of server. */
  static final List<String> KINDS = List.of("fiber", "virtual", "netty");
  /** Sockets the servers accept at once (the clients hold 10,000 open). */
  static final int MAX_CONNECTIONS = 19_000;

  /* The blocking-style echo every krill variant runs. */
  static final WebSocketHandler ECHO = socket -> {
    for (WebSocketMessage m; (m = socket.receive()) != null; ) {
      if (m.isText()) {
        socket.send(m.text());
      } else {
        socket.send(m.bytes());
      }
    }
  };

  private WebSocketEchoServerMain() {}

  /**
   * Starts the server.
   *
   * @param args KIND [MAX_SECONDS]
   * @throws Exception if it cannot start
   */
  public static void main(String[] args) throws Exception {
    ServerArgs a = ServerArgs.parse(KINDS, args);
    io.krill.loadtest.internal.Lifetime.haltAfter(a.maxSeconds(), "websocket echo server");
    int port;
    if (a.kind().equals("netty")) {
      port = netty();
    } else {
      HttpServer s = HttpServer.builder().port(0).backlog(EchoServerMain.BACKLOG).maxConnections(MAX_CONNECTIONS)
          .mode(a.kind().equals("fiber") ? ExecutionMode.FIBER : ExecutionMode.VIRTUAL)
          .get("/echo", WebSocketRoute.of(WebSocketSettings.builder().compression(false).build(), ECHO))
          .build().start();
      port = s.port();
    }
    System.out.println("port " + port);
    System.out.flush();
    while (System.in.read() >= 0) {
      // serve until the harness closes our standard input
    }
    Runtime.getRuntime().halt(0);
  }

  private static int netty() throws InterruptedException {
    // The transport httpd's carriers use (epoll when it loads): the comparison is of the WebSocket layers only.
    Transport transport = Transport.AUTO.resolve();
    EventLoopGroup group = new MultiThreadIoEventLoopGroup(Runtime.getRuntime().availableProcessors(),
        transport.newIoHandlerFactory());
    Channel ch = new ServerBootstrap().group(group).channel(transport.serverChannel())
        .option(ChannelOption.SO_BACKLOG, EchoServerMain.BACKLOG)
        .childOption(ChannelOption.TCP_NODELAY, true)
        .childHandler(new ChannelInitializer<Channel>() {
          @Override
          protected void initChannel(Channel c) {
            c.pipeline().addLast(new HttpServerCodec(), new HttpObjectAggregator(8192),
                new WebSocketServerProtocolHandler("/echo"), new NettyEcho());
          }
        })
        .bind(InetAddress.getLoopbackAddress(), 0).sync().channel();
    return ((InetSocketAddress) ch.localAddress()).getPort();
  }

  /* Raw Netty's echo: each data frame written back at once, flushed. */
  private static final class NettyEcho extends SimpleChannelInboundHandler<Object> {
    @Override
    protected void channelRead0(ChannelHandlerContext ctx, Object msg) {
      if (msg instanceof TextWebSocketFrame) {
        ctx.writeAndFlush(new TextWebSocketFrame(((TextWebSocketFrame) msg).content().retain()));
      } else if (msg instanceof BinaryWebSocketFrame) {
        ctx.writeAndFlush(new BinaryWebSocketFrame(((BinaryWebSocketFrame) msg).content().retain()));
      }
    }

    /*
     * The generator resets its sockets when a cell ends: without this, Netty's pipeline tail
     * logged each reset with a stack trace (10,000 warnings, ~3 MB of log per cell).
     */
    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      ctx.close();
    }
  }
}
