package io.krill.httpd;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.http2.DefaultHttp2DataFrame;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.DefaultHttp2HeadersFrame;
import io.netty.handler.codec.http2.DefaultHttp2ResetFrame;
import io.netty.handler.codec.http2.Http2DataFrame;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2FrameCodecBuilder;
import io.netty.handler.codec.http2.Http2GoAwayFrame;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2HeadersFrame;
import io.netty.handler.codec.http2.Http2MultiplexHandler;
import io.netty.handler.codec.http2.Http2ResetFrame;
import io.netty.handler.codec.http2.Http2Settings;
import io.netty.handler.codec.http2.Http2StreamChannel;
import io.netty.handler.codec.http2.Http2StreamChannelBootstrap;
import io.netty.handler.ssl.ApplicationProtocolConfig;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslProvider;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.security.cert.X509Certificate;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A test HTTP/2 client on Netty's own frame codec and multiplex handler: h2c with prior
 * knowledge or h2 over TLS with ALPN, one stream per request.
 */
final class H2Client implements AutoCloseable {
  private static final EventLoopGroup GROUP =
      new MultiThreadIoEventLoopGroup(1, new DefaultThreadFactory("h2-test-client", true), NioIoHandler.newFactory());
  static final long TIMEOUT_SECONDS = 20;

  final Channel channel;
  /** Completes with the GOAWAY frame's error code and last stream id when the server sends one. */
  final CompletableFuture<long[]> goAway = new CompletableFuture<>();
  /** The ALPN protocol, or null without TLS. */
  final String protocol;

  private H2Client(Channel channel, String protocol) {
    this.channel = channel;
    this.protocol = protocol;
  }

  /** h2c with prior knowledge. */
  static H2Client connect(int port) throws Exception {
    return connect(port, null, Http2Settings.defaultSettings());
  }

  /** h2 over TLS, trusting {@code trusted}. */
  static H2Client connectTls(int port, X509Certificate trusted) throws Exception {
    return connect(port, trusted, Http2Settings.defaultSettings());
  }

  static H2Client connect(int port, X509Certificate trusted, Http2Settings settings) throws Exception {
    SslContext ssl = trusted == null ? null : SslContextBuilder.forClient().sslProvider(SslProvider.JDK)
        .trustManager(trusted)
        .applicationProtocolConfig(new ApplicationProtocolConfig(ApplicationProtocolConfig.Protocol.ALPN,
            ApplicationProtocolConfig.SelectorFailureBehavior.NO_ADVERTISE,
            ApplicationProtocolConfig.SelectedListenerFailureBehavior.ACCEPT, "h2"))
        .build();
    CompletableFuture<long[]> goAway = new CompletableFuture<>();
    Channel ch = new Bootstrap().group(GROUP).channel(NioSocketChannel.class)
        .handler(new ChannelInitializer<Channel>() {
          @Override
          protected void initChannel(Channel ch) {
            if (ssl != null) {
              ch.pipeline().addLast(ssl.newHandler(ch.alloc(), "localhost", port));
            }
            ch.pipeline().addLast(Http2FrameCodecBuilder.forClient().initialSettings(settings).build());
            ch.pipeline().addLast(new Http2MultiplexHandler(new ChannelInboundHandlerAdapter()));
            ch.pipeline().addLast(new ChannelInboundHandlerAdapter() {
              @Override
              public void channelRead(ChannelHandlerContext ctx, Object msg) {
                if (msg instanceof Http2GoAwayFrame) {
                  Http2GoAwayFrame g = (Http2GoAwayFrame) msg;
                  goAway.complete(new long[] {g.errorCode(), g.lastStreamId()});
                }
                ReferenceCountUtil.release(msg);
              }

              @Override
              public void channelInactive(ChannelHandlerContext ctx) {
                goAway.complete(null); // closed without GOAWAY
              }
            });
          }
        }).connect("127.0.0.1", port).sync().channel();
    String protocol = null;
    if (ssl != null) {
      SslHandler h = ch.pipeline().get(SslHandler.class);
      h.handshakeFuture().sync();
      protocol = h.applicationProtocol();
    }
    H2Client c = new H2Client(ch, protocol);
    goAway.whenComplete((v, e) -> c.goAway.complete(v));
    return c;
  }

  /** A response as the client saw it. */
  static final class Response {
    Http2Headers headers;
    final ByteArrayOutputStream body = new ByteArrayOutputStream();
    long resetCode = -1;

    int status() {
      return Integer.parseInt(headers.status().toString());
    }

    String text() {
      return body.toString(StandardCharsets.UTF_8);
    }

    String header(String name) {
      CharSequence v = headers.get(name);
      return v == null ? null : v.toString();
    }
  }

  /** One open stream and its response, read as it arrives. */
  static final class Stream {
    final Http2StreamChannel channel;
    final Response response = new Response();
    final CompletableFuture<Response> done = new CompletableFuture<>();

    Stream(Http2StreamChannel channel) {
      this.channel = channel;
    }

    Response await() throws Exception {
      return done.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }

    void reset() {
      channel.writeAndFlush(new DefaultHttp2ResetFrame(Http2Error.CANCEL));
    }
  }

  /** Opens a stream; {@code autoRead} false makes it read (and open its window) only when asked. */
  Stream open(boolean autoRead) throws Exception {
    Http2StreamChannelBootstrap b = new Http2StreamChannelBootstrap(channel);
    Stream[] holder = new Stream[1];
    b.handler(new ChannelInboundHandlerAdapter() {
      @Override
      public void channelRead(ChannelHandlerContext ctx, Object msg) {
        Stream s = holder[0];
        try {
          if (msg instanceof Http2HeadersFrame) {
            Http2HeadersFrame h = (Http2HeadersFrame) msg;
            if (h.headers().status() != null && h.headers().status().charAt(0) == '1') {
              return; // interim
            }
            if (s.response.headers == null) {
              s.response.headers = h.headers();
            }
            if (h.isEndStream()) {
              s.done.complete(s.response);
            }
          } else if (msg instanceof Http2DataFrame) {
            Http2DataFrame d = (Http2DataFrame) msg;
            ByteBuf c = d.content();
            c.readBytes(s.response.body, c.readableBytes());
            if (d.isEndStream()) {
              s.done.complete(s.response);
            }
          } else if (msg instanceof Http2ResetFrame) {
            s.response.resetCode = ((Http2ResetFrame) msg).errorCode();
            s.done.complete(s.response);
          }
        } catch (java.io.IOException e) {
          s.done.completeExceptionally(e);
        } finally {
          ReferenceCountUtil.release(msg);
        }
      }

      @Override
      public void channelInactive(ChannelHandlerContext ctx) {
        holder[0].done.completeExceptionally(new java.io.EOFException("stream closed before its end"));
      }
    });
    b.option(io.netty.channel.ChannelOption.AUTO_READ, autoRead);
    Http2StreamChannel ch = b.open().sync().getNow();
    holder[0] = new Stream(ch);
    return holder[0];
  }

  /** Sends a request on a new stream. */
  Stream send(String method, String path, byte[] body, String... headerPairs) throws Exception {
    Stream s = open(true);
    Http2Headers h = new DefaultHttp2Headers().method(method).path(path).scheme(protocol != null ? "https" : "http")
        .authority("localhost");
    for (int i = 0; i < headerPairs.length; i += 2) {
      h.add(headerPairs[i], headerPairs[i + 1]);
    }
    boolean hasBody = body != null;
    s.channel.write(new DefaultHttp2HeadersFrame(h, !hasBody));
    if (hasBody) {
      s.channel.write(new DefaultHttp2DataFrame(Unpooled.wrappedBuffer(body), true));
    }
    s.channel.flush();
    return s;
  }

  /** Sends a request and waits for the whole response. */
  Response request(String method, String path, byte[] body, String... headerPairs) throws Exception {
    return send(method, path, body, headerPairs).await();
  }

  Response get(String path) throws Exception {
    return request("GET", path, null);
  }

  @Override
  public void close() {
    channel.close().syncUninterruptibly();
  }
}
