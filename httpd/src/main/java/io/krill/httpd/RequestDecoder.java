package io.krill.httpd;

import io.krill.fibers.VarHandles;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.DecoderResult;
import io.netty.handler.codec.http.DefaultHttpRequest;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpRequestDecoder;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.concurrent.FastThreadLocal;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
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
   *
   * A request without body is a head followed by LastHttpContent.EMPTY_LAST_CONTENT from the
   * same decode step (Netty decided there is no body: no Transfer-Encoding: chunked and a
   * Content-Length absent or 0, exactly when the exchange's checks find no body either). That
   * marker is dropped here, so a keep-alive GET is one message through the pipeline and the
   * connection's queue, not two. A chunked body's end arrives in a later decode step and stays.
   */

  /** The counts of the thread that made this decoder (its channel's loop). */
  final HttpServerStats.Cell cell;
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

  private static final VarHandle HEAD_START =
      VarHandles.field(MethodHandles.lookup(), RequestDecoder.class, "headStartNanos", long.class);

  /** @param cell the server's counts of the current thread, the channel's loop when made there */
  RequestDecoder(HttpDecoderConfig config, HttpServerStats.Cell cell) {
    super(config);
    this.cell = cell;
  }

  /**
   * @return true between requests with nothing held: no byte of a head received, no bytes
   *     cumulated, not rejected; then the decoder can be taken out and a fresh one put in later
   */
  boolean holdsNothing() {
    return headStartNanos == 0 && inHead && !rejected && actualReadableBytes() == 0;
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
    if (msg instanceof ByteBuf) {
      cell.count(HttpServerStats.BYTES_IN, ((ByteBuf) msg).readableBytes());
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
        stampHeadStart();
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
        HEAD_START.setRelease(this, 0L); // no fence per request; see HttpConnection.publishReader
        if (o == LastHttpContent.EMPTY_LAST_CONTENT && i > before && out.get(i - 1) instanceof HttpRequest
            && !rejected) {
          out.remove(i--); // a request without body: nobody needs its end marker
        }
      }
    }
    scanned = inHead ? Math.max(0, scanEnd - in.readerIndex()) : 0;
    stampHeadStart();
  }

  /*
   * The head-start timestamp, taken once per decode step and only for a request that outlives
   * it: a head (or its body) still in pieces. A keep-alive GET whose head arrives whole is begun
   * and ended within one step, so nobody can see its timestamp (the reader runs on the loop
   * after the step, the sweeper reads 0 either way) and it costs no clock read. The time is
   * that of the read which brought the head's first byte, as before: the step runs on that read.
   */
  private void stampHeadStart() {
    if (headStarted && headStartNanos == 0) {
      HEAD_START.setRelease(this, Math.max(1, System.nanoTime()));
    }
  }

  private int scanPosition;

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

  /*
   * Scans [from, to) of the head; returns a violation or null and sets scanPosition. One state
   * machine over the bytes; its state lives in locals inside the loop and in fields between
   * calls (a head may arrive in pieces). Only a line's first bytes and a field name need the
   * whole machine: once a line has a byte other than CR and its name (if any) ended, the rest of
   * the line up to LF cannot change the state (lineBytes only grows, the head has started), so an
   * inner loop looks for the LF alone.
   */
  private String scanHead(ByteBuf in, int from, int to) {
    byte[] chunk = SCRATCH.get();
    boolean lineStart = this.lineStart;
    boolean inName = this.inName;
    boolean sawRequestLine = this.sawRequestLine;
    boolean headStarted = this.headStarted;
    int lineBytes = this.lineBytes;
    String bad = null;
    int end = to;
    scan:
    for (int pos = from; pos < to; pos += chunk.length) {
      int n = Math.min(chunk.length, to - pos);
      in.getBytes(pos, chunk, 0, n);
      for (int i = 0; i < n; i++) {
        byte b = chunk[i];
        if (!lineStart && lineBytes > 0 && !inName && b != '\n') {
          // Past a line's first byte and outside a field name (the request line, a value): only
          // the line's end matters, so skip to it. Most of a head's bytes take this path.
          while (i + 1 < n && chunk[i + 1] != '\n') {
            i++;
          }
          continue;
        }
        if (!headStarted && b != '\r' && b != '\n') {
          headStarted = true; // empty lines between requests do not start the header-read deadline; decode() stamps the time
        }
        if (lineStart) {
          lineStart = false;
          lineBytes = 0;
          inName = sawRequestLine;
          if (sawRequestLine && (b == ' ' || b == '\t')) {
            bad = "obs-fold (a header line starting with whitespace)";
            break scan;
          }
        }
        if (b == '\n') {
          lineStart = true;
          if (lineBytes > 0) {
            sawRequestLine = true;
          } else if (sawRequestLine) {
            inHead = false; // blank line: the head ends here
            end = pos + i + 1;
            break scan;
          }
        } else if (b != '\r') {
          lineBytes++;
          if (inName) {
            if (b == ':') {
              inName = false;
            } else if (b == ' ' || b == '\t') {
              bad = "whitespace between a header name and the colon";
              break scan;
            }
          }
        }
      }
    }
    this.lineStart = lineStart;
    this.inName = inName;
    this.sawRequestLine = sawRequestLine;
    this.headStarted = headStarted;
    this.lineBytes = lineBytes;
    scanPosition = end;
    return bad;
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
