package io.krill.testkit;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.DefaultLastHttpContent;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.ssl.SslContext;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * A real HTTP/1.1 server on a loopback address, on Netty's codec, whose every answer a test
 * chooses: each request is answered by a function that returns a {@link Response} (a status,
 * headers and body, after a delay, dripped slowly, chunked, then closed; or a reset, or
 * silence). The server keeps an access log ({@link #hits()}), counts requests and open
 * connections, and records the highest concurrency per Host header and per local address, so
 * that tests check a client's behaviour from the server's side.
 *
 * <p>Threading: thread-safe; it serves from one event-loop thread of its own, on which the
 * answering function runs.
 */
public final class TestHttpServer implements AutoCloseable {
  /**
   * One answered request as the server saw it.
   *
   * @param host the Host header ("" if none)
   * @param path the request target
   * @param startNanos when the request arrived ({@link System#nanoTime()})
   * @param endNanos when the answer was complete
   * @param localAddress the server address the request came to
   * @param connection the connection's number, from 1
   * @param userAgent the User-Agent header, or null
   */
  public record Hit(String host, String path, long startNanos, long endNanos, String localAddress, int connection,
      String userAgent) {}

  /** What to answer to one request. */
  public static final class Response {
    int status = 200;
    final Map<String, String> headers = new LinkedHashMap<>();
    byte[] body = new byte[0];
    long delayMillis;
    int dripChunk;
    long dripIntervalMillis;
    boolean chunked;
    boolean close;
    boolean reset;
    boolean silent;
    final List<Map.Entry<Integer, String[]>> interim = new ArrayList<>();

    private Response() {}

    /** @return 200 with {@code body} in UTF-8 */
    public static Response ok(String contentType, String body) {
      return ok(contentType, body.getBytes(StandardCharsets.UTF_8));
    }

    /** @return 200 with {@code body} */
    public static Response ok(String contentType, byte[] body) {
      Response r = new Response();
      r.headers.put("Content-Type", contentType);
      r.body = body;
      return r;
    }

    /** @return 200 with an HTML body */
    public static Response html(String body) {
      return ok("text/html; charset=utf-8", body);
    }

    /** @return {@code code} with a short text body */
    public static Response status(int code) {
      Response r = ok("text/plain", code + "\n");
      r.status = code;
      return r;
    }

    /** @return a redirect to {@code location} */
    public static Response redirect(int code, String location) {
      Response r = status(code);
      r.headers.put("Location", location);
      return r;
    }

    /** @return no answer: the connection is reset (a TCP RST) instead */
    public static Response reset() {
      Response r = new Response();
      r.reset = true;
      return r;
    }

    /** @return no answer ever: the request is read and the connection left open */
    public static Response silent() {
      Response r = new Response();
      r.silent = true;
      return r;
    }

    /** Sets a header. */
    public Response header(String name, String value) {
      headers.put(name, value);
      return this;
    }

    /** Answers after {@code millis}. */
    public Response delay(long millis) {
      this.delayMillis = millis;
      return this;
    }

    /** Sends the body {@code chunk} bytes at a time, one chunk per {@code intervalMillis}. */
    public Response drip(int chunk, long intervalMillis) {
      this.dripChunk = chunk;
      this.dripIntervalMillis = intervalMillis;
      return this;
    }

    /** Sends the body with chunked transfer encoding. */
    public Response chunked() {
      this.chunked = true;
      return this;
    }

    /**
     * Sends an interim (1xx) response before this one, e.g. 103 Early Hints; call again for more.
     *
     * @param code 100..199
     * @param nameValues its header fields: name, value, name, value ...
     */
    public Response interim(int code, String... nameValues) {
      interim.add(Map.entry(code, nameValues));
      return this;
    }

    /** Closes the connection after the answer. */
    public Response close() {
      this.close = true;
      return this;
    }
  }

  private final EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
  private final Channel server;
  private final Function<FullHttpRequest, Response> handler;
  private final List<Hit> hits = new CopyOnWriteArrayList<>();
  private final Map<String, AtomicInteger> concurrent = new ConcurrentHashMap<>();
  private final Map<String, AtomicInteger> maxConcurrent = new ConcurrentHashMap<>();
  private final AtomicInteger connections = new AtomicInteger();
  private final AtomicInteger open = new AtomicInteger();
  private final AtomicInteger maxOpen = new AtomicInteger();
  private final AtomicLong requests = new AtomicLong();

  private TestHttpServer(String bind, int port, SslContext tls, Function<FullHttpRequest, Response> handler)
      throws InterruptedException {
    this.handler = handler;
    ServerBootstrap b = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
        .option(ChannelOption.SO_REUSEADDR, true)
        .option(ChannelOption.SO_BACKLOG, 1024)
        .childOption(ChannelOption.TCP_NODELAY, true)
        .childHandler(new ChannelInitializer<SocketChannel>() {
          @Override
          protected void initChannel(SocketChannel ch) {
            int id = connections.incrementAndGet();
            if (tls != null) {
              ch.pipeline().addLast(tls.newHandler(ch.alloc()));
            }
            ch.pipeline().addLast(new HttpServerCodec(), new HttpObjectAggregator(1 << 20), new Serve(id));
          }
        });
    server = b.bind(bind, port).sync().channel();
  }

  /** Starts a plain HTTP server on 127.0.0.1, any free port. */
  public static TestHttpServer start(Function<FullHttpRequest, Response> handler) throws InterruptedException {
    return start("127.0.0.1", handler);
  }

  /** Starts a plain HTTP server on {@code bind}, any free port. */
  public static TestHttpServer start(String bind, Function<FullHttpRequest, Response> handler) throws InterruptedException {
    return new TestHttpServer(bind, 0, null, handler);
  }

  /** Starts a server on {@code bind} and {@code port} (several addresses may share one port number). */
  public static TestHttpServer start(String bind, int port, Function<FullHttpRequest, Response> handler)
      throws InterruptedException {
    return new TestHttpServer(bind, port, null, handler);
  }

  /** Starts an HTTPS server on {@code bind}, any free port. */
  public static TestHttpServer startTls(String bind, SslContext tls, Function<FullHttpRequest, Response> handler)
      throws InterruptedException {
    return new TestHttpServer(bind, 0, tls, handler);
  }

  /** @return the port it listens on */
  public int port() {
    return ((InetSocketAddress) server.localAddress()).getPort();
  }

  /** @return the requests answered so far, in the order their answers completed */
  public List<Hit> hits() {
    return new ArrayList<>(hits);
  }

  /** @return paths answered, in order */
  public List<String> paths() {
    List<String> p = new ArrayList<>();
    for (Hit h : hits) {
      p.add(h.path());
    }
    return p;
  }

  /** @return the highest number of requests in progress at once for a key ("host:" + Host header, or "ip:" + local address) */
  public int maxConcurrent(String key) {
    AtomicInteger m = maxConcurrent.get(key);
    return m == null ? 0 : m.get();
  }

  /** @return connections accepted so far */
  public int connections() {
    return connections.get();
  }

  /** @return connections open now */
  public int openConnections() {
    return open.get();
  }

  /** @return the most connections open at once */
  public int maxOpenConnections() {
    return maxOpen.get();
  }

  /** @return requests received so far, answered or not */
  public long requests() {
    return requests.get();
  }

  private final class Serve extends SimpleChannelInboundHandler<FullHttpRequest> {
    private final int id;

    Serve(int id) {
      this.id = id;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
      maxOpen.accumulateAndGet(open.incrementAndGet(), Math::max);
      ctx.fireChannelActive();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
      open.decrementAndGet();
      ctx.fireChannelInactive();
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest req) {
      long start = System.nanoTime();
      requests.incrementAndGet();
      String host = req.headers().get(HttpHeaderNames.HOST, "");
      String local = ((InetSocketAddress) ctx.channel().localAddress()).getAddress().getHostAddress();
      String[] keys = {"host:" + host, "ip:" + local};
      for (String k : keys) {
        int now = concurrent.computeIfAbsent(k, x -> new AtomicInteger()).incrementAndGet();
        maxConcurrent.computeIfAbsent(k, x -> new AtomicInteger()).accumulateAndGet(now, Math::max);
      }
      String ua = req.headers().get(HttpHeaderNames.USER_AGENT);
      String uri = req.uri();
      boolean keepAlive = HttpUtil.isKeepAlive(req);
      Response r;
      try {
        r = handler.apply(req);
      } catch (RuntimeException e) {
        r = Response.status(500);
      }
      Response resp = r;
      Runnable done = () -> {
        for (String k : keys) {
          concurrent.get(k).decrementAndGet();
        }
        hits.add(new Hit(host, uri, start, System.nanoTime(), local, id, ua));
      };
      if (resp.silent) {
        return;
      }
      ctx.executor().schedule(() -> respond(ctx, resp, keepAlive, done), resp.delayMillis, TimeUnit.MILLISECONDS);
    }

    private void respond(ChannelHandlerContext ctx, Response r, boolean keepAlive, Runnable done) {
      if (r.reset) {
        done.run();
        ctx.channel().config().setOption(ChannelOption.SO_LINGER, 0);
        ctx.close();
        return;
      }
      for (Map.Entry<Integer, String[]> i : r.interim) {
        FullHttpResponse head = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.valueOf(i.getKey()));
        for (int k = 0; k + 1 < i.getValue().length; k += 2) {
          head.headers().add(i.getValue()[k], i.getValue()[k + 1]);
        }
        ctx.write(head);
      }
      HttpResponseStatus status = HttpResponseStatus.valueOf(r.status);
      boolean close = r.close || !keepAlive;
      if (r.dripChunk > 0 || r.chunked) {
        HttpResponse head = new DefaultHttpResponse(HttpVersion.HTTP_1_1, status);
        r.headers.forEach((k, v) -> head.headers().set(k, v));
        if (r.chunked) {
          HttpUtil.setTransferEncodingChunked(head, true);
        } else {
          HttpUtil.setContentLength(head, r.body.length);
        }
        ctx.writeAndFlush(head);
        int chunk = r.dripChunk > 0 ? r.dripChunk : Math.max(1, r.body.length / 3);
        drip(ctx, r, 0, chunk, close, done);
        return;
      }
      FullHttpResponse resp = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, Unpooled.wrappedBuffer(r.body));
      r.headers.forEach((k, v) -> resp.headers().set(k, v));
      HttpUtil.setContentLength(resp, r.body.length);
      if (close) {
        resp.headers().set(HttpHeaderNames.CONNECTION, "close");
      }
      done.run();
      var f = ctx.writeAndFlush(resp);
      if (close) {
        f.addListener(ChannelFutureListener.CLOSE);
      }
    }

    private void drip(ChannelHandlerContext ctx, Response r, int offset, int chunk, boolean close, Runnable done) {
      if (!ctx.channel().isActive()) {
        done.run();
        return;
      }
      if (offset >= r.body.length) {
        done.run();
        var f = ctx.writeAndFlush(new DefaultLastHttpContent());
        if (close) {
          f.addListener(ChannelFutureListener.CLOSE);
        }
        return;
      }
      int n = Math.min(chunk, r.body.length - offset);
      ctx.writeAndFlush(new DefaultHttpContent(Unpooled.wrappedBuffer(r.body, offset, n)));
      ctx.executor().schedule(() -> drip(ctx, r, offset + n, chunk, close, done), r.dripIntervalMillis,
          TimeUnit.MILLISECONDS);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      ctx.close();
    }
  }

  @Override
  public void close() {
    server.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
    group.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
  }
}
