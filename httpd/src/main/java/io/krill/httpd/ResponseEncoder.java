package io.krill.httpd;

import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseEncoder;

/**
 * Netty's response encoder, counting the bytes of every response head into the server's
 * {@code bytesOut} (bodies are counted where they are written). Runs on the channel's loop.
 */
final class ResponseEncoder extends HttpResponseEncoder {
  private final HttpServerStats stats;
  private int headStart;

  ResponseEncoder(HttpServerStats stats) {
    this.stats = stats;
  }

  @Override
  protected void encodeInitialLine(ByteBuf buf, HttpResponse response) throws Exception {
    headStart = buf.writerIndex();
    super.encodeInitialLine(buf, response);
  }

  @Override
  protected void encodeHeaders(HttpHeaders headers, ByteBuf buf) {
    super.encodeHeaders(headers, buf);
    stats.bytesOut.add(buf.writerIndex() - headStart + 2); // + the blank line
  }
}
