package io.krill.netio.internal;

import io.krill.fibers.FiberScheduler;
import io.krill.fibers.internal.CarrierIo;
import io.krill.fibers.internal.EventLoopScheduler;
import io.krill.netio.Transport;
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
import java.util.Map;

/**
 * Chooses event-loop groups and channel classes. Channels of a fiber on an
 * {@link EventLoopScheduler} live on that scheduler's loops when the transport matches the
 * loops' I/O handler ({@code -Dkrill.fibers.io}); everything else uses a shared, lazily created
 * group of daemon loops of that transport, one per core. Thread-safe. Not API.
 */
public final class Transports {
  private static final Map<Transport, EventLoopGroup> SHARED = new EnumMap<>(Transport.class);

  private Transports() {}

  /**
   * @param transport a resolved transport (not AUTO)
   * @param scheduler the scheduler of the fibers that use the channel
   * @return the group that runs channels of {@code transport} for fibers of {@code scheduler}
   */
  public static EventLoopGroup group(Transport transport, FiberScheduler scheduler) {
    if (scheduler instanceof EventLoopScheduler && ((EventLoopScheduler) scheduler).io() == carrierIo(transport)) {
      return ((EventLoopScheduler) scheduler).group();
    }
    synchronized (SHARED) {
      return SHARED.computeIfAbsent(transport, t -> new MultiThreadIoEventLoopGroup(
          Runtime.getRuntime().availableProcessors(),
          new DefaultThreadFactory("krill-netio-" + carrierIo(t).id(), true), carrierIo(t).newFactory()));
    }
  }

  /**
   * The group a client channel registers with: the calling fiber's own loop when that loop is
   * one of {@link #group}'s, so the fiber and its channel share a thread; else the group.
   *
   * @param transport a resolved transport (not AUTO)
   * @param scheduler the scheduler of the fibers that use the channel
   * @return a loop or a group
   */
  public static EventLoopGroup clientGroup(Transport transport, FiberScheduler scheduler) {
    EventLoopGroup group = group(transport, scheduler);
    EventLoop current = EventLoopScheduler.currentLoop();
    return current != null && current.parent() == group ? current : group;
  }

  /**
   * @param scheduler a fiber scheduler
   * @return the transport whose channels live on {@code scheduler}'s carriers, or the
   *     {@link Transport#fromSystemProperty() default} (resolved) for other schedulers
   */
  public static Transport carrierTransport(FiberScheduler scheduler) {
    if (scheduler instanceof EventLoopScheduler) {
      return transport(((EventLoopScheduler) scheduler).io());
    }
    return Transport.fromSystemProperty().resolve();
  }

  /** @return the client channel class of {@code transport} (resolved, not AUTO) */
  public static Class<? extends SocketChannel> socketChannel(Transport transport) {
    switch (transport) {
      case EPOLL:
        return EpollSocketChannel.class;
      case IO_URING:
        return IoUringSocketChannel.class;
      default:
        return NioSocketChannel.class;
    }
  }

  /** @return the server channel class of {@code transport} (resolved, not AUTO) */
  public static Class<? extends ServerChannel> serverChannel(Transport transport) {
    switch (transport) {
      case EPOLL:
        return EpollServerSocketChannel.class;
      case IO_URING:
        return IoUringServerSocketChannel.class;
      default:
        return NioServerSocketChannel.class;
    }
  }

  /** @return true if {@code loop} is one of {@code scheduler}'s carriers, so a fiber can live there */
  public static boolean isCarrier(EventLoop loop, FiberScheduler scheduler) {
    return scheduler instanceof EventLoopScheduler && loop.parent() == ((EventLoopScheduler) scheduler).group();
  }

  /** @return the carriers' I/O handler of the same kind as {@code transport} (resolved, not AUTO) */
  public static CarrierIo carrierIo(Transport transport) {
    switch (transport) {
      case EPOLL:
        return CarrierIo.EPOLL;
      case IO_URING:
        return CarrierIo.IO_URING;
      case NIO:
        return CarrierIo.NIO;
      default:
        throw new IllegalArgumentException("transport: AUTO (expected: resolved with Transport.resolve())");
    }
  }

  /** @return the transport of the same kind as the carriers' I/O handler {@code io} */
  public static Transport transport(CarrierIo io) {
    switch (io) {
      case EPOLL:
        return Transport.EPOLL;
      case IO_URING:
        return Transport.IO_URING;
      default:
        return Transport.NIO;
    }
  }
}
