package io.krill.httpd;

import io.krill.fibers.Strand;
import io.krill.fibers.Suspendable;
import io.krill.netio.FiberInput;
import io.krill.netio.spi.ByteSource;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;
import java.io.EOFException;
import java.io.IOException;
import java.net.SocketTimeoutException;

/**
 * One request's body as the byte source of a {@link FiberInput}: the decoded contents up to the
 * last one, within maxBodyBytes and the idle timeout, with 100 Continue sent on the first read.
 * Used by the connection's strand only.
 */
final class RequestBody implements ByteSource {
  private final Exchange exchange;
  private final HttpConnection conn;
  private final boolean hasBody;
  private final boolean expectContinue;
  private boolean continueSent;
  private boolean done;
  private long read;
  private int failure; // the status for a body that failed: 400, 408 or 413
  private FiberInput input;

  RequestBody(Exchange exchange, HttpConnection conn, boolean hasBody, boolean expectContinue) {
    this.exchange = exchange;
    this.conn = conn;
    this.hasBody = hasBody;
    this.expectContinue = expectContinue;
  }

  /** @return the body as a stream, created on first use */
  FiberInput input() {
    FiberInput in = input;
    if (in == null) {
      in = FiberInput.of(this);
      input = in;
    }
    return in;
  }

  /** @return true while the client waits for 100 Continue before it sends the body */
  boolean awaitsContinue() {
    return expectContinue && !continueSent;
  }

  /** @return the status that answers a body that failed (400, 408, 413), or 0 */
  int failure() {
    return failure;
  }

  /**
   * Reads what is left of the body and drops it, so the next request can be decoded. May suspend.
   *
   * @return false if the connection must close instead (the client waits for 100 Continue)
   */
  boolean drain() throws IOException, Suspendable {
    if (!hasBody || done) {
      return true;
    }
    if (awaitsContinue()) {
      return false; // the client waits for 100 before sending the body: close rather than read it
    }
    close();
    for (Object b; (b = take()) != null; ) {
      ((ByteBuf) b).release();
    }
    return true;
  }

  /** Closes the stream, if one was made. */
  void close() {
    if (input != null) {
      input.close();
    }
  }

  /** Next piece of the body (for {@link FiberInput}); enforces maxBodyBytes. May suspend. */
  @Override
  public Object take() throws IOException, Suspendable {
    exchange.checkNotOver();
    ServerCore server = conn.server;
    long deadline = Strand.deadline(server.idleTimeoutNanos);
    for (;;) {
      if (!hasBody || done) {
        return null;
      }
      if (awaitsContinue()) {
        sendContinue();
      }
      Object m = conn.next(deadline);
      if (m == HttpConnection.NOTHING) {
        continue;
      }
      ByteBuf content = content(m, server);
      if (content != null) {
        return content; // releasing the content releases the HttpContent
      }
    }
  }

  private void sendContinue() throws IOException {
    continueSent = true;
    conn.server.stats.response(conn.statsCell(), 100);
    conn.write(new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.CONTINUE,
        Unpooled.EMPTY_BUFFER), true);
  }

  /* One message of the body: its content if readable, null for an empty one; a failure sets `failure` and throws. */
  private ByteBuf content(Object m, ServerCore server) throws IOException {
    if (m == HttpConnection.TIMEOUT) {
      throw fail(408, new SocketTimeoutException("Request body: nothing came for "
          + server.idleTimeoutNanos / 1_000_000 + " ms (idleTimeout) from " + peer()));
    }
    if (m == null) {
      throw fail(400, new EOFException("Request body: the connection ended after " + read + " bytes: " + peer()));
    }
    if (!(m instanceof HttpContent)) {
      ReferenceCountUtil.release(m);
      throw fail(400, new IOException("Request body: unexpected " + m.getClass().getSimpleName() + " from " + peer()));
    }
    HttpContent c = (HttpContent) m;
    if (c.decoderResult().isFailure()) {
      c.release();
      throw fail(400, new IOException("Request body: bad framing from " + peer() + ": " + c.decoderResult().cause()));
    }
    ByteBuf content = c.content();
    read += content.readableBytes();
    if (c instanceof LastHttpContent) {
      done = true;
    }
    if (read > server.maxBodyBytes) {
      c.release();
      done = true;
      throw fail(413, new IOException("Request body: more than " + server.maxBodyBytes
          + " bytes (maxBodyBytes) from " + peer()));
    }
    if (content.isReadable()) {
      return content;
    }
    c.release();
    return null;
  }

  private IOException fail(int status, IOException e) {
    failure = status;
    return e;
  }

  @Override
  public String peer() {
    return conn.peer();
  }
}
