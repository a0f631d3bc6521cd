package io.krill.httpd;

import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseEncoder;

/**
 * Netty's response encoder, counting into the server's {@code bytesOut} the bytes of every
 * response head and, for a whole response ({@link FullHttpResponse}), its body, with one
 * counter update per response (streamed bodies are counted where they are written). Runs on
 * the channel's loop.
 */
final class ResponseEncoder extends HttpResponseEncoder {
  private final HttpServerStats stats;
  private int headStart = -1;
  private int bodyBytes;

  ResponseEncoder(HttpServerStats stats) {
    this.stats = stats;
  }

  @Override
  protected void encodeInitialLine(ByteBuf buf, HttpResponse response) throws Exception {
    headStart = buf.writerIndex();
    bodyBytes = response instanceof FullHttpResponse ? ((FullHttpResponse) response).content().readableBytes() : 0;
    super.encodeInitialLine(buf, response);
  }

  @Override
  protected void encodeHeaders(HttpHeaders headers, ByteBuf buf) {
    super.encodeHeaders(headers, buf);
    if (headStart >= 0) { // a response head (trailers of a last chunk are encoded here too)
      stats.bytesOut.add(buf.writerIndex() - headStart + 2 + bodyBytes); // + the blank line
      headStart = -1;
    }
  }
}
