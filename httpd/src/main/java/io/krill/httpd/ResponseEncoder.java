package io.krill.httpd;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.FileRegion;
import io.netty.handler.codec.http.HttpResponseEncoder;
import java.util.List;

/**
 * Netty's response encoder, counting into the server's {@code bytesOut} every byte it hands to
 * the network: heads, bodies (whole, chunk framing included, or file regions) and interim
 * responses, one counter update per message. Runs on the channel's loop.
 */
final class ResponseEncoder extends HttpResponseEncoder {
  private final HttpServerStats.Cell cell;

  /** @param cell the server's counts of the current thread, the channel's loop when made there */
  ResponseEncoder(HttpServerStats.Cell cell) {
    this.cell = cell;
  }

  @Override
  protected void encode(ChannelHandlerContext ctx, Object msg, List<Object> out) throws Exception {
    int from = out.size();
    super.encode(ctx, msg, out);
    long n = 0;
    for (int i = from; i < out.size(); i++) {
      Object o = out.get(i);
      if (o instanceof ByteBuf) {
        n += ((ByteBuf) o).readableBytes();
      } else if (o instanceof FileRegion) {
        n += ((FileRegion) o).count();
      }
    }
    if (n > 0) {
      cell.count(HttpServerStats.BYTES_OUT, n);
    }
  }
}
