package io.krill.netio;

import io.krill.fibers.Checks;
import io.krill.fibers.Fiber;
import io.krill.fibers.FiberScheduler;
import io.krill.fibers.Strand;
import io.krill.fibers.Suspendable;
import io.krill.netio.internal.Await;
import io.krill.netio.internal.Connection;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.util.NetUtil;
import java.io.IOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A listening TCP socket. Either {@link #accept()} connections one by one (on demand: the
 * server accepts only while someone waits in accept), or {@link #serve(SocketHandler)} them:
 * each accepted connection gets its own fiber, started on that connection's event loop, so
 * its I/O completions resume it without a thread hand-off.
 *
 * <pre>{@code
 * FiberServerSocket server = FiberServerSocket.bind("127.0.0.1", 0, SocketOptions.defaults());
 * server.serve(s -> {
 *   for (String line; (line = s.input().readLine()) != null; ) {
 *     s.output().writeUtf8(line + "\n");
 *     s.output().flush();
 *   }
 * });
 * }</pre>
 *
 * <p>Threading: thread-safe. {@link #accept()} suspends the calling fiber (blocks a thread);
 * {@link #close()} never blocks and does not close connections already accepted.
 */
public final class FiberServerSocket implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(FiberServerSocket.class);

  private final SocketOptions options;
  private final FiberScheduler scheduler;
  private final ArrayDeque<Connection> accepted = new ArrayDeque<>();
  private Channel channel;
  private SocketHandler handler;
  private boolean closed;
  private volatile Object acceptor;

  private FiberServerSocket(SocketOptions options) {
    this.options = options;
    this.scheduler = options.scheduler();
  }

  /**
   * Binds to {@code port} on the loopback address with default options. May suspend.
   *
   * @param port the port, 0 for any free one
   * @return the bound server
   * @throws IOException if binding fails
   * @throws Suspendable never; marks that this method suspends
   */
  public static FiberServerSocket bind(int port) throws IOException, Suspendable {
    return bind("127.0.0.1", port, SocketOptions.defaults());
  }

  /**
   * Binds to {@code host:port}. May suspend.
   *
   * @param host an IP literal or hostname to listen on ("0.0.0.0" for all IPv4 addresses)
   * @param port the port, 0 for any free one
   * @param options options of the server and of every accepted connection
   * @return the bound server
   * @throws BindException if the address is in use or not local, naming host:port
   * @throws IOException if binding fails otherwise
   * @throws Suspendable never; marks that this method suspends
   */
  public static FiberServerSocket bind(String host, int port, SocketOptions options) throws IOException, Suspendable {
    Objects.requireNonNull(host, "host");
    Checks.port("port", port);
    Objects.requireNonNull(options, "options");
    byte[] literal = NetUtil.createByteArrayFromIpAddressString(host);
    InetAddress address = literal != null ? InetAddress.getByAddress(host, literal)
        : options.resolver != null ? options.resolver.resolve(host) : InetAddress.getByName(host);
    FiberServerSocket server = new FiberServerSocket(options);
    Transport transport = options.transport();
    io.netty.channel.EventLoopGroup group = transport.group(server.scheduler);
    Tls tls = options.tls;
    if (tls != null && !tls.isServer()) {
      throw new IllegalArgumentException("tls: client settings (expected: Tls.server(key, chain))");
    }
    ServerBootstrap b = new ServerBootstrap()
        .group(group, group)
        .channel(transport.serverChannel())
        .option(ChannelOption.SO_BACKLOG, options.backlog)
        .option(ChannelOption.SO_REUSEADDR, true)
        .option(ChannelOption.AUTO_READ, false)
        .childHandler(new ChannelInitializer<Channel>() {
          @Override
          protected void initChannel(Channel ch) {
            InetSocketAddress remote = (InetSocketAddress) ch.remoteAddress();
            String peer = remote == null ? "?" : NetUtil.toSocketAddressString(remote);
            if (tls != null) {
              ch.pipeline().addLast("tls", tls.newHandler(ch.alloc(), null, 0));
            }
            Connection c = new Connection(ch, peer);
            ch.pipeline().addLast(Connection.NAME, c);
            server.accepted(c);
          }
        });
    FiberSocket.applyChildOptions(b::childOption, options);
    ChannelFuture f = b.bind(new InetSocketAddress(address, port));
    Await.done(f, Long.MAX_VALUE);
    if (!f.isSuccess()) {
      Throwable cause = f.cause();
      IOException e = new BindException("Cannot bind " + host + ":" + port + ": " + cause.getMessage());
      e.initCause(cause);
      throw e;
    }
    synchronized (server) {
      server.channel = f.channel();
    }
    return server;
  }

  private void accepted(Connection c) {
    SocketHandler h;
    boolean reject;
    synchronized (this) {
      h = handler;
      reject = closed && h == null;
      if (h == null && !reject) {
        accepted.add(c);
      }
    }
    if (reject) {
      c.close(0);
    } else if (h != null) {
      start(c, h);
    } else {
      Strand.wake(acceptor);
    }
  }

  /**
   * Waits for the next connection, as long as it takes. May suspend.
   *
   * @return the connection; with TLS, its handshake completes on first read or flush
   * @throws SocketException once the server is closed
   * @throws IllegalStateException if the server is serving with a handler
   * @throws Suspendable never; marks that this method suspends
   */
  public FiberSocket accept() throws IOException, Suspendable {
    return accept(Duration.ZERO);
  }

  /**
   * Waits at most {@code timeout} for the next connection. May suspend. A timeout leaves the
   * server usable: a connection that arrives later waits for the next accept.
   *
   * @param timeout how long to wait, zero for as long as it takes
   * @return the connection; with TLS, its handshake completes on first read or flush
   * @throws SocketTimeoutException "Accept timed out after N ms: host:port" when no connection came in time
   * @throws SocketException once the server is closed
   * @throws IllegalArgumentException if {@code timeout} is negative
   * @throws IllegalStateException if the server is serving with a handler
   * @throws Suspendable never; marks that this method suspends
   */
  public FiberSocket accept(Duration timeout) throws IOException, Suspendable {
    Checks.nonNegative("timeout", timeout);
    long deadline = Strand.deadline(timeout.toNanos());
    Object me = Strand.current();
    boolean timedOut = false;
    try {
      for (;;) {
        Channel ch;
        synchronized (this) {
          if (handler != null) {
            throw new IllegalStateException("accept: " + this + " serves with a handler (expected: accept or serve)");
          }
          Connection c = accepted.poll();
          if (c != null) {
            return new FiberSocket(c, options);
          }
          if (closed) {
            throw new SocketException("Socket closed: " + this);
          }
          if (timedOut) {
            throw new SocketTimeoutException("Accept timed out after " + timeout.toMillis() + " ms: "
                + NetUtil.toSocketAddressString((InetSocketAddress) channel.localAddress()));
          }
          acceptor = me;
          ch = channel;
        }
        ch.read();
        timedOut = !Strand.park(this, deadline);
      }
    } finally {
      acceptor = null;
    }
  }

  /**
   * Serves every connection from now on with {@code handler}, each in its own fiber on the
   * connection's event loop; the socket is closed when the handler returns. Does not block.
   *
   * @param handler serves one connection
   * @return this
   * @throws IllegalStateException if a handler was set already
   */
  public FiberServerSocket serve(SocketHandler handler) {
    Objects.requireNonNull(handler, "handler");
    List<Connection> waiting;
    Channel ch;
    synchronized (this) {
      if (this.handler != null) {
        throw new IllegalStateException("serve: a handler is set already");
      }
      this.handler = handler;
      waiting = new ArrayList<>(accepted);
      accepted.clear();
      ch = channel;
    }
    Strand.wake(acceptor);
    for (Connection c : waiting) {
      start(c, handler);
    }
    ch.config().setAutoRead(true);
    return this;
  }

  private void start(Connection c, SocketHandler h) {
    Fiber.Builder b = Fiber.builder().scheduler(scheduler).name("netio " + c.peer());
    if (Transport.isCarrier(c.channel().eventLoop(), scheduler)) {
      b.home(c.channel().eventLoop());
    }
    b.start(() -> run(new FiberSocket(c, options), h));
  }

  private static void run(FiberSocket socket, SocketHandler h) throws Suspendable {
    try {
      h.handle(socket);
    } catch (IOException e) {
      LOG.debug("connection {} ended: {}", socket.peer(), e.toString());
    } catch (RuntimeException | Error e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalStateException("handler failed for " + socket.peer(), e);
    } finally {
      socket.close();
    }
  }

  /** @return the bound local address */
  public synchronized InetSocketAddress localAddress() {
    return (InetSocketAddress) channel.localAddress();
  }

  /** @return the bound port */
  public int port() {
    return localAddress().getPort();
  }

  /**
   * Stops listening and closes connections accepted but not yet taken by {@link #accept()};
   * a strand waiting in accept gets a {@link SocketException}. Never blocks; idempotent.
   */
  @Override
  public void close() {
    List<Connection> waiting;
    Channel ch;
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
      waiting = new ArrayList<>(accepted);
      accepted.clear();
      ch = channel;
    }
    ch.close();
    for (Connection c : waiting) {
      c.close(0);
    }
    Strand.wake(acceptor);
  }

  @Override
  public String toString() {
    Channel ch;
    synchronized (this) {
      ch = channel;
    }
    return "FiberServerSocket[" + (ch == null ? "unbound" : ch.localAddress()) + "]";
  }
}
