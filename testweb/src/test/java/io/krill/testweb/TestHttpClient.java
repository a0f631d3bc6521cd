package io.krill.testweb;

import io.krill.fibers.Continuation;
import io.krill.netio.dns.DnsResolver;
import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.timeout.ReadTimeoutHandler;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * A plain Netty HTTP/1.1 client for the tests: resolves the host through krill's
 * {@link DnsResolver} (so the synthetic web's DNS server answers), connects to that address,
 * sends one GET with the URL's Host header and {@code Connection: close}, and aggregates the
 * answer without decoding it. Independent of the crawler's client on purpose.
 */
final class TestHttpClient implements AutoCloseable {
  /** One answer. */
  record Reply(int status, Map<String, String> headers, byte[] body, InetAddress address, long nanos) {
    String header(String name) {
      return headers.get(name.toLowerCase(java.util.Locale.ROOT));
    }

    String text() {
      return new String(body, java.nio.charset.StandardCharsets.UTF_8);
    }
  }

  private final EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
  private final DnsResolver resolver;
  private final Duration readTimeout;

  TestHttpClient(DnsResolver resolver, Duration readTimeout) {
    this.resolver = resolver;
    this.readTimeout = readTimeout;
  }

  /** @return the address DNS gives {@code host}; throws UnknownHostException when it gives none */
  InetAddress resolve(String host) {
    return Continuation.callOnThread(() -> resolver.resolve(host));
  }

  Reply get(String url) throws IOException, InterruptedException {
    return request("GET", url);
  }

  Reply request(String method, String url) throws IOException, InterruptedException {
    URI uri = URI.create(url);
    InetAddress address = resolve(uri.getHost());
    long start = System.nanoTime();
    CompletableFuture<Reply> reply = new CompletableFuture<>();
    Bootstrap b = new Bootstrap().group(group).channel(NioSocketChannel.class).handler(new ChannelInitializer<SocketChannel>() {
      @Override
      protected void initChannel(SocketChannel ch) {
        ch.pipeline().addLast(new ReadTimeoutHandler(readTimeout.toMillis(), TimeUnit.MILLISECONDS), new HttpClientCodec(),
            new HttpObjectAggregator(4 << 20), new SimpleChannelInboundHandler<FullHttpResponse>() {
              @Override
              protected void channelRead0(ChannelHandlerContext ctx, FullHttpResponse r) {
                Map<String, String> headers = new HashMap<>();
                r.headers().forEach(e -> headers.put(e.getKey().toLowerCase(java.util.Locale.ROOT), e.getValue()));
                reply.complete(new Reply(r.status().code(), headers, ByteBufUtil.getBytes(r.content()), address,
                    System.nanoTime() - start));
                ctx.close();
              }

              @Override
              public void channelInactive(ChannelHandlerContext ctx) {
                reply.completeExceptionally(new IOException("connection closed before a complete response: " + url));
              }

              @Override
              public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                reply.completeExceptionally(cause);
                ctx.close();
              }
            });
      }
    });
    Channel ch = b.connect(new InetSocketAddress(address, uri.getPort())).sync().channel();
    String target = uri.getRawPath() + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
    DefaultFullHttpRequest req = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.valueOf(method), target);
    req.headers().set(HttpHeaderNames.HOST, uri.getHost() + ":" + uri.getPort());
    req.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
    req.headers().set(HttpHeaderNames.USER_AGENT, "krill-testweb-test");
    ch.writeAndFlush(req);
    try {
      return reply.get(readTimeout.toMillis() * 3 + 1_000, TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      Throwable c = e.getCause();
      throw c instanceof IOException ? (IOException) c : new IOException(c.toString(), c);
    } catch (java.util.concurrent.TimeoutException e) {
      throw new IOException("no response within the deadline: " + url, e);
    } finally {
      ch.close().await();
    }
  }

  @Override
  public void close() {
    group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
  }
}
