package io.krill.httpd;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.DecoderResult;
import io.netty.handler.codec.http.DefaultHttpRequest;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpRequestDecoder;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.concurrent.FastThreadLocal;
import java.util.List;

/**
 * Netty's request decoder plus what it lets through: obs-fold and whitespace before the
 * colon (RFC 9112 section 5), and Transfer-Encoding together with Content-Length (section
 * 6.3) become failed messages (400). It also notes when the first byte of a request head
 * arrived (for the header-read deadline) and counts bytes in. Runs on the channel's loop.
 */
final class RequestDecoder extends HttpRequestDecoder {
  /*
   * Implementation notes.
   *
   * Netty parses header lines itself; it folds obs-fold lines into the previous value and
   * trims whitespace before the colon, so neither is visible afterwards. We therefore scan the
   * head's bytes once more before Netty sees them: only while a head is being read (from the
   * end of one request to the blank line of the next), so bodies are never scanned. `scanned`
   * counts bytes after the reader index that were scanned already; Netty may leave a partial
   * line unconsumed, and the cumulation may be compacted, so positions are kept relative to
   * the reader index. A request ends with a LastHttpContent (Netty emits one per request), and
   * a new head starts after it.
   */

  private final HttpServerStats stats;
  private boolean inHead = true;
  private int scanned;
  private boolean lineStart = true;
  private boolean inName;
  private boolean sawRequestLine;
  private int lineBytes;
  private boolean rejected;
  private boolean headStarted;
  /** System.nanoTime() when the first byte of the current head came; 0 while none did. */
  volatile long headStartNanos;

  RequestDecoder(HttpDecoderConfig config, HttpServerStats stats) {
    super(config);
    this.stats = stats;
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
    if (msg instanceof ByteBuf) {
      stats.bytesIn.add(((ByteBuf) msg).readableBytes());
    }
    super.channelRead(ctx, msg);
  }

  @Override
  protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) throws Exception {
    if (rejected) {
      in.skipBytes(in.readableBytes());
      return;
    }
    int scanEnd = in.readerIndex();
    if (inHead) {
      int from = in.readerIndex() + scanned;
      int to = in.writerIndex();
      String bad = scanHead(in, from, to);
      if (bad != null) {
        rejected = true;
        in.skipBytes(in.readableBytes());
        out.add(failed(bad));
        return;
      }
      scanEnd = scanPosition;
    }
    int before = out.size();
    super.decode(ctx, in, out);
    for (int i = before; i < out.size(); i++) {
      Object o = out.get(i);
      if (o instanceof HttpObject && ((HttpObject) o).decoderResult().isFailure()) {
        rejected = true;
      }
      if (o instanceof LastHttpContent) {
        inHead = true;
        lineStart = true;
        sawRequestLine = false;
        headStarted = false;
        headStartNanos = 0;
      }
    }
    scanned = inHead ? Math.max(0, scanEnd - in.readerIndex()) : 0;
  }

  private int scanPosition;
  private String violation;

  /*
   * Head bytes are copied to this per-thread array in chunks and scanned there: reading a
   * direct buffer byte by byte (ByteBuf.forEachByte) goes through a checked ByteBuffer access
   * per byte when Netty runs without Unsafe (the default on JDK 24+), which cost ~5 % of a
   * loop's time per keep-alive GET; one bulk copy per chunk and a plain array loop do not.
   * Per thread (the decoder runs on its channel's loop), so idle connections hold no array.
   */
  private static final int SCAN_CHUNK = 512;
  private static final FastThreadLocal<byte[]> SCRATCH = new FastThreadLocal<byte[]>() {
    @Override
    protected byte[] initialValue() {
      return new byte[SCAN_CHUNK];
    }
  };

  /* Scans [from, to) of the head; returns a violation or null and sets scanPosition. */
  private String scanHead(ByteBuf in, int from, int to) {
    violation = null;
    byte[] chunk = SCRATCH.get();
    for (int pos = from; pos < to; ) {
      int n = Math.min(chunk.length, to - pos);
      in.getBytes(pos, chunk, 0, n);
      for (int i = 0; i < n; i++) {
        if (!scan(chunk[i])) {
          if (violation != null) {
            return violation;
          }
          scanPosition = pos + i + 1; // the LF that ended the head
          return null;
        }
      }
      pos += n;
    }
    scanPosition = to;
    return null;
  }

  /* One byte of the head-scanning state machine; false stops at a violation or the head's end. */
  private boolean scan(byte b) {
    if (!headStarted && b != '\r' && b != '\n') {
      headStarted = true; // empty lines between requests do not start the header-read deadline
      headStartNanos = Math.max(1, System.nanoTime());
    }
    if (lineStart) {
      lineStart = false;
      lineBytes = 0;
      inName = sawRequestLine;
      if (sawRequestLine && (b == ' ' || b == '\t')) {
        violation = "obs-fold (a header line starting with whitespace)";
        return false;
      }
    }
    if (b == '\n') {
      lineStart = true;
      if (lineBytes > 0) {
        sawRequestLine = true;
      } else if (sawRequestLine) {
        inHead = false; // blank line: the head ends here
        return false;
      }
    } else if (b != '\r') {
      lineBytes++;
      if (inName) {
        if (b == ':') {
          inName = false;
        } else if (b == ' ' || b == '\t') {
          violation = "whitespace between a header name and the colon";
          return false;
        }
      }
    }
    return true;
  }

  @Override
  protected void handleTransferEncodingChunkedWithContentLength(HttpMessage message) {
    super.handleTransferEncodingChunkedWithContentLength(message);
    message.setDecoderResult(DecoderResult.failure(
        new ProtocolViolation("both Transfer-Encoding and Content-Length (request smuggling shape)")));
  }

  private static DefaultHttpRequest failed(String violation) {
    DefaultHttpRequest r = new DefaultHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, "/bad-request");
    r.setDecoderResult(DecoderResult.failure(new ProtocolViolation(violation)));
    return r;
  }

  /** A request the server refuses with 400 for its framing; the message says why. */
  static final class ProtocolViolation extends Exception {
    private static final long serialVersionUID = 1L;

    ProtocolViolation(String message) {
      super(message, null, false, false);
    }
  }
}
