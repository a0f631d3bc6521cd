package io.krill.netio.spi;

import io.krill.fibers.Suspendable;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.io.IOException;

/**
 * Where a {@link io.krill.netio.FiberOutput} sends its bytes: a socket's connection, or a
 * stream framed inside one (a chunked HTTP response body). For protocol libraries, not application code.
 */
public interface ByteSink {
  /**
   * Writes a buffer; the sink owns it from now on, also when this throws.
   *
   * @param buf the bytes
   * @param flush whether to flush
   * @throws IOException if the sink is closed or failed
   */
  void write(ByteBuf buf, boolean flush) throws IOException;

  /**
   * Flushes what was written.
   *
   * @throws IOException if the sink is closed or failed
   */
  void flush() throws IOException;

  /**
   * Parks while the sink cannot take more (the channel is above its high water mark). May
   * suspend.
   *
   * @throws IOException on timeout, reset or close
   * @throws Suspendable never; marks that this method suspends
   */
  void awaitWritable() throws IOException, Suspendable;

  /** @return the allocator for output buffers */
  ByteBufAllocator alloc();

  /** @return the peer, {@code host:port}, for messages */
  String peer();
}
