package io.krill.netio;

import io.krill.fibers.Blocking;
import io.krill.fibers.Checks;
import io.krill.fibers.Strand;
import io.krill.fibers.Suspendable;
import io.krill.netio.internal.Await;
import io.krill.netio.internal.Connection;
import io.krill.netio.internal.Errors;
import io.krill.netio.spi.ByteSink;
import io.krill.netio.spi.ByteSource;
import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.NetUtil;
import io.netty.util.concurrent.Future;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * A TCP connection used blocking-style from a fiber: {@link #input()} and {@link #output()}
 * are buffered byte streams, and {@link #messages(Consumer)} switches to objects decoded and
 * encoded by Netty codecs.
 *
 * <pre>{@code
 * try (FiberSocket s = FiberSocket.connect("localhost", 7, SocketOptions.defaults())) {
 *   s.output().writeUtf8("hello\n");
 *   s.output().flush();
 *   String echo = s.input().readLine(1024);
 * }
 * }</pre>
 *
 * <p>Threading: the blocking calls (connect, reads, flush) suspend the calling fiber, never its
 * carrier; called from a platform or virtual thread they block that thread. One strand may
 * read while another writes; {@link #close()} may be called from any thread and never blocks.
 */
public final class FiberSocket implements AutoCloseable {
  final Connection connection;
  final SocketOptions options;
  private final FiberInput input;
  private final FiberOutput output;
  volatile long readTimeoutNanos;
  volatile long writeTimeoutNanos;
  private volatile boolean messageMode;

  FiberSocket(Connection connection, SocketOptions options) {
    this.connection = connection;
    this.options = options;
    this.readTimeoutNanos = options.readTimeout.toNanos();
    this.writeTimeoutNanos = options.writeTimeout.toNanos();
    Streams streams = new Streams();
    this.input = new FiberInput(streams);
    this.output = new FiberOutput(streams, options.outputBufferSize);
  }

  /** The socket's connection seen as the source of {@link #input()} and sink of {@link #output()}. */
  private final class Streams implements ByteSource, ByteSink {
    @Override
    public Object take() throws IOException, Suspendable {
      return connection.take(readTimeoutNanos);
    }

    @Override
    public void write(ByteBuf buf, boolean flush) throws IOException {
      connection.write(buf, flush);
    }

    @Override
    public void flush() {
      connection.flush();
    }

    @Override
    public void awaitWritable() throws IOException, Suspendable {
      connection.awaitWritable(writeTimeoutNanos);
    }

    @Override
    public ByteBufAllocator alloc() {
      return connection.channel().alloc();
    }

    @Override
    public String peer() {
      return connection.peer();
    }
  }

  /**
   * Connects with the default options. May suspend.
   *
   * @param host a hostname or IP literal
   * @param port the port, 1..65535
   * @return the connected socket
   * @throws IOException see {@link #connect(String, int, SocketOptions)}
   * @throws Suspendable never; marks that this method suspends
   */
  public static FiberSocket connect(String host, int port) throws IOException, Suspendable {
    return connect(host, port, SocketOptions.defaults());
  }

  /**
   * Resolves {@code host}, connects, and completes the TLS handshake when the options ask for
   * TLS. May suspend.
   *
   * @param host a hostname or IP literal
   * @param port the port, 1..65535
   * @param options the socket's options
   * @return the connected socket
   * @throws UnknownHostException if {@code host} does not resolve
   * @throws java.net.ConnectException if the connection is refused ("Connection refused: host:port")
   * @throws SocketTimeoutException if connecting or the handshake takes longer than allowed
   * @throws javax.net.ssl.SSLHandshakeException if the TLS handshake fails, naming host:port and why
   * @throws Suspendable never; marks that this method suspends
   */
  public static FiberSocket connect(String host, int port, SocketOptions options) throws IOException, Suspendable {
    Objects.requireNonNull(host, "host");
    Checks.inRange("port", port, 1, 65535);
    Objects.requireNonNull(options, "options");
    long timeoutMillis = options.connectTimeout.toMillis();
    long deadline = Strand.deadline(options.connectTimeout.toNanos());
    String peer = host + ":" + port;
    InetAddress address = resolve(host, options);
    Transport transport = options.transport();
    Tls tls = options.tls;
    Bootstrap b = new Bootstrap()
        .group(transport.clientGroup(options.scheduler()))
        .channel(transport.socketChannel())
        .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) Math.min(Integer.MAX_VALUE, timeoutMillis))
        .handler(new ChannelInitializer<Channel>() {
          @Override
          protected void initChannel(Channel ch) {
            if (tls != null) {
              ch.pipeline().addLast("tls", tls.newHandler(ch.alloc(), host, port));
            }
            ch.pipeline().addLast(Connection.NAME, new Connection(ch, peer));
          }
        });
    applyChildOptions(b::option, options);
    if (options.localAddress != null) {
      b.localAddress(new InetSocketAddress(options.localAddress, 0));
    }
    ChannelFuture f = b.connect(new InetSocketAddress(address, port));
    Channel ch = f.channel();
    boolean ok = false;
    try {
      if (!Await.done(f, deadline)) {
        throw Errors.connectTimedOut(peer, timeoutMillis, null);
      }
      if (!f.isSuccess()) {
        throw Errors.connectFailed(f.cause(), peer, timeoutMillis);
      }
      FiberSocket socket = new FiberSocket(ch.pipeline().get(Connection.class), options);
      if (tls != null) {
        socket.awaitHandshake(tls);
      }
      ok = true;
      return socket;
    } finally {
      if (!ok) {
        f.cancel(false);
        ch.close();
      }
    }
  }

  private void awaitHandshake(Tls tls) throws IOException, Suspendable {
    SslHandler ssl = connection.channel().pipeline().get(SslHandler.class);
    connection.channel().read(); // autoRead is off: the handshake needs a read to start
    Future<Channel> hs = ssl.handshakeFuture();
    if (!Await.done(hs, Strand.deadline(tls.handshakeTimeout().toNanos()))) {
      throw new SocketTimeoutException("TLS handshake timed out after " + tls.handshakeTimeout().toMillis() + " ms: "
          + connection.peer());
    }
    if (!hs.isSuccess()) {
      throw Errors.handshakeFailed(hs.cause(), connection.peer());
    }
  }

  private static InetAddress resolve(String host, SocketOptions options) throws UnknownHostException, Suspendable {
    byte[] literal = NetUtil.createByteArrayFromIpAddressString(host);
    if (literal != null) {
      return InetAddress.getByAddress(host, literal);
    }
    if (options.resolver != null) {
      return options.resolver.resolve(host);
    }
    try {
      return Blocking.call(() -> InetAddress.getByName(host));
    } catch (UnknownHostException | RuntimeException e) {
      throw e;
    } catch (Exception e) {
      UnknownHostException u = new UnknownHostException(host + ": " + e);
      u.initCause(e);
      throw u;
    }
  }

  /** Sets the TCP options shared by client and accepted channels. */
  static void applyChildOptions(OptionSetter set, SocketOptions o) {
    set.option(ChannelOption.AUTO_READ, false);
    set.option(ChannelOption.ALLOW_HALF_CLOSURE, true);
    set.option(ChannelOption.TCP_NODELAY, o.tcpNoDelay);
    set.option(ChannelOption.SO_KEEPALIVE, o.keepAlive);
    set.option(ChannelOption.WRITE_BUFFER_WATER_MARK, new WriteBufferWaterMark(o.writeLowWaterMark, o.writeHighWaterMark));
    if (o.sendBufferSize > 0) {
      set.option(ChannelOption.SO_SNDBUF, o.sendBufferSize);
    }
    if (o.receiveBufferSize > 0) {
      set.option(ChannelOption.SO_RCVBUF, o.receiveBufferSize);
    }
  }

  /** Bootstrap.option or ServerBootstrap.childOption. */
  interface OptionSetter {
    <T> Object option(ChannelOption<T> option, T value);
  }

  /** @return the buffered input stream; one strand reads at a time */
  public FiberInput input() {
    checkByteMode();
    return input;
  }

  /** @return the buffered output stream; one strand writes at a time */
  public FiberOutput output() {
    checkByteMode();
    return output;
  }

  private void checkByteMode() {
    if (messageMode) {
      throw new IllegalStateException("socket " + connection.peer() + " carries messages now (messages() was called)");
    }
  }

  /**
   * Switches this socket to messages: {@code codecs} adds Netty handlers to the pipeline
   * ({@code addLast}), and what they decode is what {@link MessageSocket#receive()} returns.
   * Call it before reading anything. May suspend (the pipeline changes on the channel's loop).
   *
   * @param codecs adds the codec handlers
   * @param <I> the type of the decoded messages
   * @return the message view of this socket
   * @throws IllegalStateException if bytes were read or buffered already
   * @throws Suspendable never; marks that this method suspends
   */
  public <I> MessageSocket<I> messages(Consumer<ChannelPipeline> codecs) throws IOException, Suspendable {
    Objects.requireNonNull(codecs, "codecs");
    int buffered = input.available();
    if (buffered > 0 || connection.hasQueued()) {
      throw new IllegalStateException("messages: " + connection.peer() + " has " + buffered
          + " bytes or more buffered (expected: call before reading)");
    }
    messageMode = true;
    Channel ch = connection.channel();
    Runnable swap = () -> {
      ChannelPipeline p = ch.pipeline();
      p.remove(Connection.NAME);
      codecs.accept(p);
      p.addLast(Connection.NAME, connection);
    };
    if (ch.eventLoop().inEventLoop()) {
      swap.run();
    } else {
      Future<?> done = ch.eventLoop().submit(swap);
      Await.done(done, Long.MAX_VALUE);
      if (!done.isSuccess()) {
        throw new IllegalStateException("messages: adding the codecs failed: " + done.cause(), done.cause());
      }
    }
    return new MessageSocket<>(this);
  }

  /**
   * Half-closes: flushes what {@link #output()} holds, then shuts down the sending side; the
   * peer reads end of stream and may still answer. May suspend.
   *
   * @throws IOException if the flush or the shutdown failed
   * @throws Suspendable never; marks that this method suspends
   */
  public void shutdownOutput() throws IOException, Suspendable {
    if (!messageMode) {
      output.flush();
    }
    connection.shutdownOutput(writeTimeoutNanos);
  }

  /**
   * Closes the socket without blocking: releases buffered input, writes what {@link #output()}
   * holds, and closes the connection once that is sent (at the latest after the linger time).
   * A strand parked in a read or flush gets a {@link java.net.SocketException}. Idempotent.
   */
  @Override
  public void close() {
    input.close();
    output.close();
    connection.close(options.linger.toNanos());
  }

  /** @return true until closed locally or by the peer */
  public boolean isOpen() {
    return connection.isOpen();
  }

  /** @return the peer as given to connect, {@code host:port} */
  public String peer() {
    return connection.peer();
  }

  /** @return the remote address */
  public SocketAddress remoteAddress() {
    return connection.channel().remoteAddress();
  }

  /** @return the local address */
  public SocketAddress localAddress() {
    return connection.channel().localAddress();
  }

  /** @param timeout how long one read may wait from now on, zero for forever */
  public void setReadTimeout(Duration timeout) {
    readTimeoutNanos = Checks.nonNegative("readTimeout", timeout).toNanos();
  }

  /** @param timeout how long one flush may wait for room from now on, zero for forever */
  public void setWriteTimeout(Duration timeout) {
    writeTimeoutNanos = Checks.nonNegative("writeTimeout", timeout).toNanos();
  }

  /** @return the Netty channel, for diagnostics and advanced use */
  public Channel channel() {
    return connection.channel();
  }

  @Override
  public String toString() {
    return "FiberSocket[" + connection.peer() + (isOpen() ? "" : ", closed") + "]";
  }
}
