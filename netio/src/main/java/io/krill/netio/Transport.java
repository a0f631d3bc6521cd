package io.krill.netio;

import io.krill.fibers.FiberScheduler;
import io.krill.fibers.spi.Carriers;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.channel.uring.IoUringServerSocketChannel;
import io.netty.channel.uring.IoUringSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;

/**
 * The Netty transport a socket uses. A channel lives on the fiber scheduler's own event loops
 * when its transport is the one the carriers run ({@code -Dkrill.fibers.io}), so an I/O
 * completion resumes the fiber on the same thread; otherwise it runs on a separate shared
 * group of that transport and resumes fibers with a hand-off to their home loop.
 *
 * <p>{@link #AUTO} picks epoll if it loads, else NIO. io_uring is used only when asked for by
 * name: Netty 4.2.7's io_uring transport can lose a write that is in flight when the output
 * shuts down (netty/netty#17237), so {@code auto} does not pick it yet.
 *
 * <p>The default comes from the system property {@code krill.netio.transport} ({@code nio},
 * {@code epoll}, {@code io_uring} or {@code auto}); when it is unset, from
 * {@code krill.fibers.io}, the I/O handler of the fiber carriers, so that channels live on
 * the carriers either way; when both are unset, AUTO.
 *
 * <p>The methods that return Netty types ({@link #group}, {@link #socketChannel()}, ...) are for
 * protocol libraries that bootstrap their own channels, such as httpd. Thread-safe.
 */
public enum Transport {
  /** Java NIO: works everywhere. */
  NIO("nio"),
  /** Linux epoll through Netty's native library. */
  EPOLL("epoll"),
  /**
   * Linux io_uring through Netty's native library (kernel 5.14+ with io_uring enabled). Opt-in
   * only for now; see the class comment.
   */
  IO_URING("io_uring"),
  /** Epoll if it loads, else NIO. */
  AUTO("auto");

  /** The system property that sets the default transport of {@link SocketOptions}. */
  public static final String PROPERTY = "krill.netio.transport";

  private final String id;

  Transport(String id) {
    this.id = id;
  }

  /**
   * Reads the default transport: {@code krill.netio.transport}, else {@code krill.fibers.io},
   * else NIO.
   *
   * @return the transport named there (AUTO stays AUTO)
   * @throws IllegalArgumentException naming the property for an unknown value
   * @throws IllegalStateException naming the property when it asks for a transport that does
   *     not load here ({@code "krill.netio.transport: io_uring is not available here: <cause>"})
   */
  public static Transport fromSystemProperty() {
    String property = System.getProperty(PROPERTY) != null ? PROPERTY : Carriers.IO_PROPERTY;
    String name = System.getProperty(property, Carriers.IO_DEFAULT);
    Transport t;
    try {
      t = valueOf(name.trim().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(property + ": " + name + " (expected: nio, epoll, io_uring or auto)", e);
    }
    if (t != AUTO) {
      t.requireAvailable(property);
    }
    return t;
  }

  /** @return the transport of the fiber carriers' I/O handler with this id: nio, epoll or io_uring */
  static Transport ofIo(String io) {
    for (Transport t : values()) {
      if (t.id.equals(io)) {
        return t;
      }
    }
    throw new IllegalArgumentException("io: " + io + " (expected: nio, epoll or io_uring)");
  }

  /** @return true if this transport can be used in this process (AUTO always can) */
  public boolean isAvailable() {
    return unavailabilityCause() == null;
  }

  /** @return why this transport does not load here, or null if it does */
  public Throwable unavailabilityCause() {
    return this == AUTO ? null : Carriers.unavailabilityCause(id);
  }

  private void requireAvailable(String setting) {
    Throwable cause = unavailabilityCause();
    if (cause != null) {
      throw new IllegalStateException(setting + ": " + id + " is not available here: " + cause, cause);
    }
  }

  /**
   * Resolves {@link #AUTO} and checks availability.
   *
   * @return NIO, EPOLL or IO_URING
   * @throws IllegalStateException if this transport does not load here
   *     ({@code "transport: io_uring is not available here: <cause>"})
   */
  public Transport resolve() {
    if (this == AUTO) {
      return ofIo(Carriers.bestIo());
    }
    requireAvailable("transport");
    return this;
  }

  /**
   * The transport whose channels live on {@code scheduler}'s carriers.
   *
   * @param scheduler a fiber scheduler
   * @return the carriers' transport, or the {@link #fromSystemProperty() default} (resolved)
   *     for a scheduler without event loops
   */
  public static Transport ofCarriers(FiberScheduler scheduler) {
    String io = Carriers.io(scheduler);
    return io != null ? ofIo(io) : fromSystemProperty().resolve();
  }

  /**
   * The group that runs channels of this transport for fibers of {@code scheduler}: the
   * scheduler's own loops when they run this transport, else a shared, lazily created group of
   * daemon loops of this transport, one per core.
   *
   * @param scheduler the scheduler of the fibers that use the channels
   * @return the group
   */
  public EventLoopGroup group(FiberScheduler scheduler) {
    requireResolved();
    if (id.equals(Carriers.io(scheduler))) {
      return Carriers.group(scheduler);
    }
    return Shared.group(this);
  }

  /**
   * The group a client channel registers with: the calling fiber's own loop when that loop is
   * one of {@link #group}'s, so the fiber and its channel share a thread; else the group.
   *
   * @param scheduler the scheduler of the fibers that use the channel
   * @return a loop or a group
   */
  public EventLoopGroup clientGroup(FiberScheduler scheduler) {
    EventLoopGroup group = group(scheduler);
    EventLoop current = Carriers.currentLoop();
    return current != null && current.parent() == group ? current : group;
  }

  /** @return the client channel class of this (resolved) transport */
  public Class<? extends SocketChannel> socketChannel() {
    return pick(NioSocketChannel.class, EpollSocketChannel.class, IoUringSocketChannel.class);
  }

  /** @return the server channel class of this (resolved) transport */
  public Class<? extends ServerChannel> serverChannel() {
    return pick(NioServerSocketChannel.class, EpollServerSocketChannel.class, IoUringServerSocketChannel.class);
  }

  /* One switch over the resolved transports for every per-transport choice. */
  private <T> T pick(T nio, T epoll, T ioUring) {
    switch (requireResolved()) {
      case EPOLL:
        return epoll;
      case IO_URING:
        return ioUring;
      default:
        return nio;
    }
  }

  /** @return a new Netty I/O handler factory of this (resolved) transport, for a group of its own */
  public io.netty.channel.IoHandlerFactory newIoHandlerFactory() {
    return Carriers.newIoHandlerFactory(requireResolved().id);
  }

  /** @return true if {@code loop} is one of {@code scheduler}'s carriers, so a fiber can live there */
  public static boolean isCarrier(EventLoop loop, FiberScheduler scheduler) {
    return Carriers.isCarrier(loop, scheduler);
  }

  private Transport requireResolved() {
    if (this == AUTO) {
      throw new IllegalArgumentException("transport: AUTO (expected: resolved with Transport.resolve())");
    }
    return this;
  }

  /* The shared groups, created on first use. */
  private static final class Shared {
    private static final Map<Transport, EventLoopGroup> GROUPS = new EnumMap<>(Transport.class);

    static EventLoopGroup group(Transport t) {
      synchronized (GROUPS) {
        return GROUPS.computeIfAbsent(t, k -> new MultiThreadIoEventLoopGroup(
            Runtime.getRuntime().availableProcessors(),
            new DefaultThreadFactory("krill-netio-" + k.id, true), Carriers.newIoHandlerFactory(k.id)));
      }
    }
  }
}
