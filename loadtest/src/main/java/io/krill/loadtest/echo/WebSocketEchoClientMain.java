package io.krill.loadtest.echo;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.http.EmptyHttpHeaders;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketClientProtocolHandler;
import io.netty.handler.codec.http.websocketx.WebSocketVersion;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * The WebSocket echo load: opens CONNECTIONS sockets to {@code ws://127.0.0.1:PORT/echo} (at most
 * {@value #CONNECTS_IN_FLIGHT} handshakes at a time), then each socket sends a SIZE-byte binary
 * message, waits for its echo and sends the next (a closed loop), for WARMUP seconds unmeasured
 * and MEASURE seconds counted. Prints {@code connected N} once the handshakes are done,
 * {@code phase measure} and {@code phase done} around the measured phase (the harness reads the
 * server's CPU between them), then {@code sockets N messages/s X errors E}.
 *
 * <p>usage: {@code WebSocketEchoClientMain PORT CONNECTIONS SIZE WARMUP_SECONDS MEASURE_SECONDS}
 */
public final class WebSocketEchoClientMain {
  static final int CONNECTS_IN_FLIGHT = 200;
  static final int CLIENT_THREADS = 1;

  private WebSocketEchoClientMain() {}

  /**
   * Runs the load and prints its rate.
   *
   * @param args PORT CONNECTIONS SIZE WARMUP_SECONDS MEASURE_SECONDS
   * @throws Exception if the sockets cannot be opened
   */
  public static void main(String[] args) throws Exception {
    int port = Integer.parseInt(args[0]);
    int connections = Integer.parseInt(args[1]);
    int size = Integer.parseInt(args[2]);
    int warmup = Integer.parseInt(args[3]);
    int measure = Integer.parseInt(args[4]);
    URI uri = URI.create("ws://127.0.0.1:" + port + "/echo");
    byte[] payload = new byte[size];
    LongAdder echoes = new LongAdder();
    AtomicInteger errors = new AtomicInteger();
    AtomicInteger open = new AtomicInteger();
    Semaphore connecting = new Semaphore(CONNECTS_IN_FLIGHT);
    EventLoopGroup group = new MultiThreadIoEventLoopGroup(CLIENT_THREADS, NioIoHandler.newFactory());
    Bootstrap b = new Bootstrap().group(group).channel(NioSocketChannel.class).option(ChannelOption.TCP_NODELAY, true)
        .handler(new ChannelInitializer<Channel>() {
          @Override
          protected void initChannel(Channel ch) {
            ch.pipeline().addLast(new HttpClientCodec(), new HttpObjectAggregator(8192),
                new WebSocketClientProtocolHandler(uri, WebSocketVersion.V13, null, false, EmptyHttpHeaders.INSTANCE,
                    65536),
                new SimpleChannelInboundHandler<BinaryWebSocketFrame>() {
                  @Override
                  public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
                    if (evt == WebSocketClientProtocolHandler.ClientHandshakeStateEvent.HANDSHAKE_COMPLETE) {
                      open.incrementAndGet();
                      connecting.release();
                    } else if (evt == WebSocketClientProtocolHandler.ClientHandshakeStateEvent.HANDSHAKE_TIMEOUT) {
                      errors.incrementAndGet();
                      connecting.release();
                    }
                    ctx.fireUserEventTriggered(evt);
                  }

                  @Override
                  protected void channelRead0(ChannelHandlerContext ctx, BinaryWebSocketFrame f) {
                    echoes.increment();
                    ctx.writeAndFlush(new BinaryWebSocketFrame(Unpooled.wrappedBuffer(payload)));
                  }

                  @Override
                  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                    errors.incrementAndGet();
                    ctx.close();
                  }
                });
          }
        });
    List<Channel> channels = new ArrayList<>(connections);
    for (int i = 0; i < connections; i++) {
      connecting.acquire();
      channels.add(b.connect("127.0.0.1", port).addListener(f -> {
        if (!f.isSuccess()) {
          errors.incrementAndGet();
          connecting.release();
        }
      }).channel());
    }
    connecting.acquire(CONNECTS_IN_FLIGHT); // every handshake finished or failed
    int ready = open.get();
    System.out.println("connected " + ready);
    System.out.flush();
    for (Channel ch : channels) {
      if (ch.isActive()) {
        ch.writeAndFlush(new BinaryWebSocketFrame(Unpooled.wrappedBuffer(payload)));
      }
    }
    TimeUnit.SECONDS.sleep(warmup);
    long before = echoes.sum();
    long start = System.nanoTime();
    System.out.println("phase measure");
    System.out.flush();
    TimeUnit.SECONDS.sleep(measure);
    long count = echoes.sum() - before;
    double seconds = (System.nanoTime() - start) / 1e9;
    System.out.println("phase done");
    System.out.printf(java.util.Locale.ROOT, "sockets %d messages/s %.0f errors %d%n", ready, count / seconds, errors.get());
    System.out.flush();
    Runtime.getRuntime().halt(0);
  }
}
