package io.krill.loadtest.echo;

import io.krill.fibers.Continuation;
import io.krill.fibers.FiberScheduler;
import io.krill.fibers.VirtualThreads;
import io.krill.fibers.spi.Carriers;
import io.krill.loadtest.internal.FlushingHandler;
import io.krill.loadtest.internal.ServerArgs;
import io.krill.loadtest.internal.ThreadPerConnection;
import io.krill.netio.FiberInput;
import io.krill.netio.FiberOutput;
import io.krill.netio.FiberServerSocket;
import io.krill.netio.MessageSocket;
import io.krill.netio.SocketHandler;
import io.krill.netio.SocketOptions;
import io.krill.netio.Transport;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.List;

/**
 * One echo server of the comparison, alone in its JVM: {@code fiber} (a fiber per connection
 * on netio, blocking-style), {@code netty} (an async Netty handler), both on NIO, and their
 * native-transport twins {@code fiber-epoll}, {@code fiber-uring}, {@code netty-epoll},
 * {@code netty-uring}, {@code virtual} and
 * {@code platform} (blocking {@link ServerSocket}, one virtual or platform thread per
 * connection), plus {@code fiber-msg} and {@code fiber-msg-epoll}: a fiber that sends back each
 * received buffer through a {@link MessageSocket}, without the streams' copies, to tell what
 * the byte streams cost from what the fiber costs. Listens on 127.0.0.1, prints {@code port N threads T}, and serves until its
 * standard input closes or {@code maxSeconds} pass, whichever is first.
 *
 * <p>usage: {@code EchoServerMain KIND [MAX_SECONDS]} ({@code --help} lists the kinds). Every server uses as many event loops
 * (or virtual-thread carriers) as the JVM has processors, TCP_NODELAY, a backlog of
 * {@value #BACKLOG}, no read timeout and a {@value #BUFFER}-byte read buffer.
 */
public final class EchoServerMain {
  /** Accept backlog of every server; the client also bounds its connects in flight. */
  static final int BACKLOG = 4096;
  /** Bytes read at most per read call, in every server. */
  static final int BUFFER = 4096;

  /** Every kind of echo server. */
  static final List<String> KINDS = List.of("fiber", "fiber-epoll", "fiber-uring", "fiber-msg", "fiber-msg-epoll",
      "netty", "netty-epoll", "netty-uring", "virtual", "platform");

  private EchoServerMain() {}

  /**
   * Starts the server.
   *
   * @param args KIND [MAX_SECONDS]
   */
  public static void main(String[] args) throws Exception {
    ServerArgs a = ServerArgs.parse(KINDS, args);
    String kind = a.kind();
    int threads = Runtime.getRuntime().availableProcessors();
    io.krill.loadtest.internal.Lifetime.haltAfter(a.maxSeconds(), "echo server");
    AutoCloseable server;
    int port;
    switch (kind) {
      case "fiber":
      case "fiber-epoll":
      case "fiber-uring":
      case "fiber-msg":
      case "fiber-msg-epoll": {
        // Each kind pins its transport, for the carriers and the channels alike.
        Transport transport = kind.equals("fiber") || kind.equals("fiber-msg") ? Transport.NIO
            : kind.endsWith("-epoll") ? Transport.EPOLL : Transport.IO_URING;
        FiberScheduler scheduler = Carriers.eventLoop(threads, FiberScheduler.DEFAULT_TRACKING,
            transport.name().toLowerCase(java.util.Locale.ROOT));
        FiberServerSocket s = Continuation.callOnThread(() -> FiberServerSocket.bind("127.0.0.1", 0,
            SocketOptions.builder().scheduler(scheduler).transport(transport).backlog(BACKLOG)
                .readTimeout(Duration.ZERO).writeTimeout(Duration.ZERO).build()));
        s.serve(kind.startsWith("fiber-msg") ? FIBER_MESSAGE_ECHO : FIBER_ECHO);
        port = s.port();
        server = () -> {
          s.close();
          scheduler.close();
        };
        break;
      }
      case "netty":
      case "netty-epoll":
      case "netty-uring": {
        Transport transport = kind.equals("netty") ? Transport.NIO : kind.equals("netty-epoll") ? Transport.EPOLL : Transport.IO_URING;
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(threads, transport.newIoHandlerFactory());
        Channel ch = new ServerBootstrap().group(group).channel(transport.serverChannel())
            .option(ChannelOption.SO_BACKLOG, BACKLOG)
            .option(ChannelOption.SO_REUSEADDR, true)
            .childOption(ChannelOption.TCP_NODELAY, true)
            .childHandler(new NettyEchoHandler())
            .bind(InetAddress.getLoopbackAddress(), 0).sync().channel();
        port = ((InetSocketAddress) ch.localAddress()).getPort();
        server = () -> {
          ch.close().sync();
          group.shutdownGracefully(0, 1, java.util.concurrent.TimeUnit.SECONDS);
        };
        break;
      }
      case "virtual":
        if (!VirtualThreads.available()) {
          System.out.println("skipped: " + VirtualThreads.UNAVAILABLE);
          return;
        }
        server = ThreadPerConnection.listen(BACKLOG, VirtualThreads::unstarted, EchoServerMain::blockingEcho);
        port = ((ServerSocket) server).getLocalPort();
        break;
      case "platform":
        server = ThreadPerConnection.listen(BACKLOG, task -> new Thread(task, "echo"), EchoServerMain::blockingEcho);
        port = ((ServerSocket) server).getLocalPort();
        break;
      default:
        throw new IllegalArgumentException("kind: " + kind
            + " (expected: fiber, fiber-epoll, fiber-uring, fiber-msg, fiber-msg-epoll, netty, netty-epoll, netty-uring, virtual or platform)");
    }
    System.out.println("port " + port + " threads " + threads);
    System.out.flush();
    InputStream stdin = System.in;
    while (stdin.read() >= 0) {
      // Serve until the driver closes our standard input (or dies, which closes it too).
    }
    server.close();
    System.exit(0);
  }

  /** Echoes bytes until end of stream, blocking-style; each read parks only when nothing is buffered. */
  static final SocketHandler FIBER_ECHO = s -> {
    byte[] buf = new byte[BUFFER];
    FiberInput in = s.input();
    FiberOutput out = s.output();
    for (int n; (n = in.read(buf)) > 0; ) {
      out.write(buf, 0, n);
      out.flush();
    }
  };

  /**
   * Echoes buffers as they come, blocking-style but without copying: each received
   * {@code ByteBuf} is sent back as it is, as Netty's echo handler does.
   */
  static final SocketHandler FIBER_MESSAGE_ECHO = s -> {
    MessageSocket<ByteBuf> m = s.messages(p -> { });
    for (ByteBuf b; (b = m.receive()) != null; ) {
      m.send(b);
    }
  };

  /** Writes back what it reads, flushing once per read batch: Netty's own echo example. */
  @ChannelHandler.Sharable
  static final class NettyEchoHandler extends FlushingHandler {
    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      ctx.write(msg);
    }
  }

  private static void blockingEcho(Socket s) {
    try (s) {
      InputStream in = s.getInputStream();
      OutputStream out = s.getOutputStream();
      byte[] buf = new byte[BUFFER];
      for (int n; (n = in.read(buf)) > 0; ) {
        out.write(buf, 0, n);
      }
    } catch (IOException e) {
      // The client reset the connection: nothing to report in a load test.
    }
  }
}
