package io.krill.netio.internal;

import io.krill.fibers.FiberScheduler;
import io.krill.fibers.internal.EventLoopScheduler;
import io.krill.netio.Transport;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;

/**
 * Chooses event-loop groups and channel classes. Channels of a fiber on an
 * {@link EventLoopScheduler} live on that scheduler's loops when the transport matches the
 * loops' I/O handler (NIO, or epoll with {@code -Dkrill.fibers.io=epoll}); everything else uses a shared,
 * lazily created group of daemon loops, one per core. Not API.
 */
public final class Transports {
  private static final Object LOCK = new Object();
  private static EventLoopGroup sharedNio;
  private static EventLoopGroup sharedEpoll;

  private Transports() {}

  /** @return the group that runs channels of {@code transport} for fibers of {@code scheduler} */
  public static EventLoopGroup group(Transport transport, FiberScheduler scheduler) {
    if (scheduler instanceof EventLoopScheduler
        && ((EventLoopScheduler) scheduler).isEpoll() == (transport == Transport.EPOLL)) {
      return ((EventLoopScheduler) scheduler).group();
    }
    synchronized (LOCK) {
      if (transport == Transport.EPOLL) {
        if (sharedEpoll == null) {
          sharedEpoll = newGroup("krill-netio-epoll", EpollIoHandler.newFactory());
        }
        return sharedEpoll;
      }
      if (sharedNio == null) {
        sharedNio = newGroup("krill-netio-nio", NioIoHandler.newFactory());
      }
      return sharedNio;
    }
  }

  private static EventLoopGroup newGroup(String name, IoHandlerFactory factory) {
    return new MultiThreadIoEventLoopGroup(Runtime.getRuntime().availableProcessors(),
        new DefaultThreadFactory(name, true), factory);
  }

  /** @return the client channel class of {@code transport} */
  public static Class<? extends SocketChannel> socketChannel(Transport transport) {
    return transport == Transport.EPOLL ? EpollSocketChannel.class : NioSocketChannel.class;
  }

  /** @return the server channel class of {@code transport} */
  public static Class<? extends ServerChannel> serverChannel(Transport transport) {
    return transport == Transport.EPOLL ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
  }

  /** @return true if {@code loop} is one of {@code scheduler}'s carriers, so a fiber can live there */
  public static boolean isCarrier(EventLoop loop, FiberScheduler scheduler) {
    return scheduler instanceof EventLoopScheduler && loop.parent() == ((EventLoopScheduler) scheduler).group();
  }
}
