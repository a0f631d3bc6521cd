package io.krill.httpd;

import io.netty.channel.AdaptiveRecvByteBufAllocator;
import io.netty.channel.RecvByteBufAllocator;
import io.netty.util.concurrent.FastThreadLocal;

/**
 * Sizes the server's receive buffers adaptively, with one sizing handle per event-loop thread
 * shared by every connection of that loop instead of one per connection: about 110 bytes less
 * per connection, idle ones included. For transports whose read loop runs to its end within
 * one call (epoll, NIO) only. Thread-safe.
 */
final class LoopReceiveBuffers implements RecvByteBufAllocator {
  /*
   * Implementation notes. A channel asks for its handle once, on its own event loop, and keeps
   * it (AbstractUnsafe.recvBufAllocHandle). The handle's state (the channel's config, the
   * counts of one read loop) is set by reset() at the start of each read loop and used up by
   * readComplete() at its end, both on the loop's thread within one epollInReady()/read() call;
   * a handler that asks another channel to read does not nest that read inside this one (epoll
   * and NIO schedule it as a task), so two read loops never use the handle at once. The
   * adaptive size guess is then the loop's rather than the connection's: a large upload raises
   * it for its neighbours for a few reads, a run of small reads lowers it again. io_uring keeps a
   * read's state from its submission to its completion, between which other channels read, so
   * it keeps a handle per connection (SHARED is for epoll and NIO).
   */
  private static final AdaptiveRecvByteBufAllocator ADAPTIVE = new AdaptiveRecvByteBufAllocator();
  /** For epoll and NIO channels. */
  static final LoopReceiveBuffers SHARED = new LoopReceiveBuffers();

  private final FastThreadLocal<Handle> handles = new FastThreadLocal<>() {
    @Override
    protected Handle initialValue() {
      return ADAPTIVE.newHandle();
    }
  };

  private LoopReceiveBuffers() {}

  /** @return a handle per connection, for transports that cannot share one */
  static RecvByteBufAllocator perConnection() {
    return ADAPTIVE;
  }

  @Override
  public Handle newHandle() {
    return handles.get();
  }
}
