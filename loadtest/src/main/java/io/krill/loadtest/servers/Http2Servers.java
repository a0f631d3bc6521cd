package io.krill.loadtest.servers;

import io.krill.fibers.FiberScheduler;
import io.krill.httpd.HttpServer;
import io.krill.httpd.http2.Http2Options;
import io.krill.netio.Tls;
import io.krill.netio.Transport;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.handler.codec.http2.DefaultHttp2DataFrame;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.DefaultHttp2HeadersFrame;
import io.netty.handler.codec.http2.Http2FrameCodecBuilder;
import io.netty.handler.codec.http2.Http2HeadersFrame;
import io.netty.handler.codec.http2.Http2MultiplexHandler;
import io.netty.handler.ssl.ApplicationProtocolConfig;
import io.netty.handler.ssl.ApplicationProtocolNames;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import io.netty.pkitesting.CertificateBuilder;
import io.netty.pkitesting.X509Bundle;
import io.netty.util.ReferenceCountUtil;
import java.net.InetSocketAddress;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.List;

/**
 * The HTTP/2 hello servers, each on one carrier (one event loop), answering {@code GET /hello}
 * with the same 13 bytes as the HTTP/1.1 servers: {@code httpd-h2} is httpd with
 * {@link Http2Options#defaults()} (a fiber per stream, h2c by prior knowledge); {@code netty-h2}
 * is raw Netty HTTP/2 ({@code Http2FrameCodec} + {@code Http2MultiplexHandler} with an async
 * handler answering each request's HEADERS with HEADERS, the same cached {@code date}, and one DATA frame) on the carriers'
 * transport. The {@code -tls} kinds are the same over TLS with ALPN (h2), both on the JDK's TLS
 * provider with the same throw-away self-signed EC certificate for 127.0.0.1.
 */
final class Http2Servers {
  static final String HTTPD = "httpd-h2";
  static final String NETTY = "netty-h2";
  static final String HTTPD_TLS = "httpd-h2-tls";
  static final String NETTY_TLS = "netty-h2-tls";
  /** Every kind. */
  static final List<String> KINDS = List.of(NETTY, HTTPD, NETTY_TLS, HTTPD_TLS);

  private Http2Servers() {}

  static HttpdServers.Started start(String kind, int backlog) throws Exception {
    boolean tls = kind.endsWith("-tls");
    X509Bundle cert = tls ? certificate() : null;
    if (kind.startsWith("httpd")) {
      FiberScheduler scheduler = FiberScheduler.eventLoop(1);
      HttpServer server = HttpServer.builder().address("127.0.0.1").port(0).scheduler(scheduler).backlog(backlog)
          .maxConnections(HttpdServers.MAX_CONNECTIONS).idleTimeout(HttpdServers.IDLE_TIMEOUT)
          .tls(tls ? Tls.server(cert.getKeyPair().getPrivate(), cert.getCertificatePath()) : null)
          .http2(Http2Options.defaults()).get(HelloBytes.HELLO, HttpdServers.HELLO).build().start();
      return HttpdServers.started(server, scheduler);
    }
    return netty(tls ? nettyTls(cert.getKeyPair().getPrivate(), cert.getCertificatePath()) : null, backlog);
  }

  /* A self-signed certificate for 127.0.0.1 (h2load does not verify it). */
  private static X509Bundle certificate() throws Exception {
    return new CertificateBuilder().subject("CN=localhost").addSanDnsName("localhost").addSanIpAddress("127.0.0.1")
        .addExtendedKeyUsageServerAuth().setIsCertificateAuthority(true).buildSelfSigned();
  }

  /* Raw Netty's TLS: the JDK provider as httpd's, offering h2 only (a raw HTTP/2 server has no HTTP/1.1 to fall back on). */
  private static SslContext nettyTls(PrivateKey key, X509Certificate[] chain) throws Exception {
    return SslContextBuilder.forServer(key, chain).sslProvider(SslProvider.JDK)
        .applicationProtocolConfig(new ApplicationProtocolConfig(ApplicationProtocolConfig.Protocol.ALPN,
            ApplicationProtocolConfig.SelectorFailureBehavior.NO_ADVERTISE,
            ApplicationProtocolConfig.SelectedListenerFailureBehavior.ACCEPT, ApplicationProtocolNames.HTTP_2))
        .build();
  }

  private static HttpdServers.Started netty(SslContext ssl, int backlog) throws InterruptedException {
    // The transport httpd's carriers use (epoll when it loads): the comparison is of the HTTP/2 layers only.
    Transport transport = Transport.AUTO.resolve();
    EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, transport.newIoHandlerFactory());
    Channel ch = new ServerBootstrap().group(group).channel(transport.serverChannel())
        .option(ChannelOption.SO_BACKLOG, backlog).childOption(ChannelOption.TCP_NODELAY, true)
        .childHandler(new ChannelInitializer<Channel>() {
          @Override
          protected void initChannel(Channel c) {
            if (ssl != null) {
              c.pipeline().addLast(ssl.newHandler(c.alloc()));
            }
            c.pipeline().addLast(Http2FrameCodecBuilder.forServer().build(), new Http2MultiplexHandler(STREAM));
          }
        }).bind("127.0.0.1", 0).sync().channel();
    int port = ((InetSocketAddress) ch.localAddress()).getPort();
    return new HttpdServers.Started() {
      @Override
      public int port() {
        return port;
      }

      @Override
      public void close() {
        ch.close().syncUninterruptibly();
        group.shutdownGracefully();
      }
    };
  }

  private static final ChannelHandler STREAM = new RawHello();

  /* Raw Netty: answers a request's HEADERS at once with HEADERS and one DATA frame, flushed. */
  @ChannelHandler.Sharable
  private static final class RawHello extends ChannelInboundHandlerAdapter {
    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      try {
        if (msg instanceof Http2HeadersFrame && ((Http2HeadersFrame) msg).isEndStream()) {
          ctx.write(new DefaultHttp2HeadersFrame(new DefaultHttp2Headers().status("200")
              .set("content-type", HelloBytes.CONTENT_TYPE).setInt("content-length", HelloBytes.BODY.length)
              .set("date", HelloBytes.date())));
          ctx.writeAndFlush(new DefaultHttp2DataFrame(Unpooled.wrappedBuffer(HelloBytes.BODY), true));
        }
      } finally {
        ReferenceCountUtil.release(msg);
      }
    }
  }
}
