package io.krill.httpd.internal.http2;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultHttpHeadersFactory;
import io.netty.handler.codec.http.DefaultHttpRequest;
import io.netty.handler.codec.http.DefaultLastHttpContent;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValidationUtil;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpHeadersFactory;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.Http2ConnectionEncoder;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.util.AsciiString;
import io.netty.util.ReferenceCountUtil;
import java.util.Iterator;
import java.util.Map;

/**
 * Converts between a stream's frames and the request and response objects the server's exchange
 * reads and writes on HTTP/1.1: the request head from a HEADERS frame, body pieces and trailers;
 * the response head, body pieces and trailers written straight to the frame codec's encoder.
 * Runs on the connection's event loop.
 */
final class StreamCodec {
  /*
   * Implementation notes.
   *
   * Inbound, the request's fields are copied once, straight from the decoded Http2Headers into
   * the head's header map (:authority becomes Host, several cookie fields one, RFC 9113
   * 8.2.3); the pseudo-header fields become the method and target. Each field is checked as it
   * is copied, once, with Netty's validators (the map's own are off): a name that is a token
   * (HPACK's decoder refused upper case and unknown pseudo-header fields already), a value of
   * field characters that neither starts nor ends with a space or tab (RFC 9113 8.2.1: no NUL,
   * CR or LF), a method that is a token; a request that breaks one is malformed and its stream
   * is reset. Like
   * HTTP/1.1's decoder, a request that ends with its HEADERS frame and has no Content-Length
   * gets no end marker (nothing will read it); one that goes on without a Content-Length is
   * marked chunked, so the exchange reads its body to the stream's end.
   *
   * Outbound, the response head's fields are copied into Http2Headers without the
   * connection-specific ones (RFC 9113 8.2.2). The exchange writes header names in lower case
   * only, the form HTTP/2 requires. Every frame goes to the encoder with the connection's void
   * promise: nobody waits on a single write; a failed write fails the stream (Netty resets it),
   * which ends the strand's reads and writes.
   */
  private static final HttpHeadersFactory REQUEST_HEADERS =
      DefaultHttpHeadersFactory.headersFactory().withValidation(false); // checked as they are copied
  private static final HttpHeadersFactory TRAILERS =
      DefaultHttpHeadersFactory.trailersFactory().withValidation(false);
  private static final AsciiString COOKIE_SEPARATOR = AsciiString.cached("; ");

  private StreamCodec() {}

  /**
   * The request head of a stream's first HEADERS frame.
   *
   * @return the head, or null if the frame is no valid request (the stream is to be reset)
   */
  static HttpRequest request(Http2Headers h, boolean endStream) {
    CharSequence method = h.method();
    if (method == null) {
      return null;
    }
    if (method.length() == 0 || HttpHeaderValidationUtil.validateToken(method) >= 0) {
      return null;
    }
    HttpMethod m = HttpMethod.valueOf(method.toString());
    CharSequence target = m == HttpMethod.CONNECT ? h.authority() : h.path();
    if (target == null) {
      return null; // RFC 9113 8.3.1: :path is required
    }
    HttpHeaders fields = REQUEST_HEADERS.newHeaders();
    CharSequence cookie = null;
    for (Iterator<Map.Entry<CharSequence, CharSequence>> it = h.iterator(); it.hasNext(); ) {
      Map.Entry<CharSequence, CharSequence> e = it.next();
      CharSequence name = e.getKey();
      if (!acceptable(name, e.getValue())) {
        return null;
      }
      if (name.length() > 0 && name.charAt(0) == ':') {
        if (Http2Headers.PseudoHeaderName.AUTHORITY.value().contentEquals(name)) {
          fields.add(HttpHeaderNames.HOST, e.getValue());
        }
      } else if (HttpHeaderNames.COOKIE.contentEquals(name)) {
        cookie = cookie == null ? e.getValue() : new StringBuilder(cookie).append(COOKIE_SEPARATOR).append(e.getValue());
      } else {
        fields.add(name, e.getValue());
      }
    }
    if (cookie != null) {
      fields.add(HttpHeaderNames.COOKIE, cookie);
    }
    if (!endStream && !fields.contains(HttpHeaderNames.CONTENT_LENGTH)) {
      fields.add(HttpHeaderNames.TRANSFER_ENCODING, HttpHeaderValues.CHUNKED);
    }
    return new DefaultHttpRequest(HttpVersion.HTTP_1_1, m, target.toString(), fields);
  }

  /** @return true if a request that ended with its HEADERS frame still needs an end marker (it announced a length) */
  static boolean announcesBody(HttpRequest head) {
    return head.headers().contains(HttpHeaderNames.CONTENT_LENGTH);
  }

  /** @return the trailers that end a request body, or null if {@code h} is no trailer section (a request again) */
  static LastHttpContent trailers(Http2Headers h) {
    if (h.method() != null) {
      return null;
    }
    HttpHeaders fields = TRAILERS.newHeaders();
    for (Map.Entry<CharSequence, CharSequence> e : h) {
      CharSequence name = e.getKey();
      if (name.length() > 0 && name.charAt(0) == ':' || !acceptable(name, e.getValue())) {
        return null; // malformed, or a pseudo-header field, which a trailer section may not have (RFC 9113 8.1)
      }
      if (HttpHeaderNames.CONTENT_LENGTH.contentEquals(name) || HttpHeaderNames.TRANSFER_ENCODING.contentEquals(name)
          || HttpHeaderNames.TRAILER.contentEquals(name)) {
        continue; // framing fields have no meaning as trailers: dropped, as HTTP/1.1's decoder drops them
      }
      fields.add(name, e.getValue());
    }
    return new DefaultLastHttpContent(Unpooled.EMPTY_BUFFER, fields);
  }

  /*
   * RFC 9113 8.2.1: whether a field may appear in a request. A pseudo-header field's name is
   * HPACK's decoder's to check; a value that ends with a space or tab is the one thing Netty's
   * value check lets through that HTTP/2 does not.
   */
  private static boolean acceptable(CharSequence name, CharSequence value) {
    if (!(name.length() > 0 && name.charAt(0) == ':') && HttpHeaderValidationUtil.validateToken(name) >= 0) {
      return false;
    }
    int n = value.length();
    return HttpHeaderValidationUtil.validateValidHeaderValue(value) < 0
        && (n == 0 || value.charAt(n - 1) != ' ' && value.charAt(n - 1) != '\t');
  }

  /** @return a body piece of a DATA frame's bytes (taken over, not retained) */
  static HttpContent content(ByteBuf bytes, boolean endStream) {
    return endStream ? new DefaultLastHttpContent(bytes) : new DefaultHttpContent(bytes);
  }

  /** @return the body bytes {@code msg} carries, for the backpressure of writes made off the loop */
  static long bytes(Object msg) {
    if (msg instanceof ByteBuf) {
      return ((ByteBuf) msg).readableBytes();
    }
    return msg instanceof HttpContent ? ((HttpContent) msg).content().readableBytes() : 0;
  }

  // ------------------------------------------------------------------ outbound: the response to frames

  /**
   * Writes one of the exchange's response objects to stream {@code id} (the encoder owns it
   * from here). Not flushed.
   *
   * @param enc the frame codec's encoder
   * @param ctx the frame codec's context
   */
  static void write(Http2ConnectionEncoder enc, ChannelHandlerContext ctx, int id, Object msg) {
    if (msg instanceof HttpResponse) {
      response(enc, ctx, id, (HttpResponse) msg);
    } else if (msg instanceof LastHttpContent) {
      last(enc, ctx, id, (LastHttpContent) msg);
    } else if (msg instanceof HttpContent) {
      enc.writeData(ctx, id, ((HttpContent) msg).content(), 0, false, ctx.voidPromise());
    } else if (msg instanceof ByteBuf) {
      enc.writeData(ctx, id, (ByteBuf) msg, 0, false, ctx.voidPromise());
    } else {
      ReferenceCountUtil.release(msg);
      throw new IllegalArgumentException("msg: " + msg.getClass().getName()
          + " (expected: an HttpResponse, HttpContent or ByteBuf)");
    }
  }

  private static void response(Http2ConnectionEncoder enc, ChannelHandlerContext ctx, int id, HttpResponse res) {
    Http2Headers h = http2Headers(res);
    if (!(res instanceof FullHttpResponse)) {
      enc.writeHeaders(ctx, id, h, 0, false, ctx.voidPromise());
      return;
    }
    FullHttpResponse full = (FullHttpResponse) res;
    if (res.status().code() == HttpResponseStatus.CONTINUE.code()) {
      full.release();
      enc.writeHeaders(ctx, id, h, 0, false, ctx.voidPromise()); // an interim response: the stream goes on
      return;
    }
    if (!full.content().isReadable() && full.trailingHeaders().isEmpty()) {
      full.release();
      enc.writeHeaders(ctx, id, h, 0, true, ctx.voidPromise());
      return;
    }
    enc.writeHeaders(ctx, id, h, 0, false, ctx.voidPromise());
    last(enc, ctx, id, full);
  }

  /* A body's end: its last bytes (or an empty DATA frame) ending the stream, or trailers after them. */
  private static void last(Http2ConnectionEncoder enc, ChannelHandlerContext ctx, int id, LastHttpContent last) {
    HttpHeaders trailers = last.trailingHeaders();
    if (trailers.isEmpty()) {
      enc.writeData(ctx, id, last.content(), 0, true, ctx.voidPromise());
      return;
    }
    if (last.content().isReadable()) {
      enc.writeData(ctx, id, last.content(), 0, false, ctx.voidPromise());
    } else {
      last.release();
    }
    DefaultHttp2Headers h = new DefaultHttp2Headers(false, trailers.size());
    copyFields(trailers, h);
    enc.writeHeaders(ctx, id, h, 0, true, ctx.voidPromise());
  }

  private static Http2Headers http2Headers(HttpResponse res) {
    HttpHeaders fields = res.headers();
    DefaultHttp2Headers h = new DefaultHttp2Headers(false, fields.size() + 1);
    h.status(res.status().codeAsText());
    copyFields(fields, h);
    return h;
  }

  private static void copyFields(HttpHeaders fields, Http2Headers h) {
    for (Iterator<Map.Entry<CharSequence, CharSequence>> it = fields.iteratorCharSequence(); it.hasNext(); ) {
      Map.Entry<CharSequence, CharSequence> e = it.next();
      CharSequence name = e.getKey();
      if (!connectionSpecific(name)) {
        h.add(name, e.getValue());
      }
    }
  }

  /* RFC 9113 8.2.2: fields HTTP/2 does not carry. */
  private static boolean connectionSpecific(CharSequence name) {
    return HttpHeaderNames.CONNECTION.contentEqualsIgnoreCase(name)
        || HttpHeaderNames.TRANSFER_ENCODING.contentEqualsIgnoreCase(name)
        || HttpHeaderNames.KEEP_ALIVE.contentEqualsIgnoreCase(name)
        || HttpHeaderNames.PROXY_CONNECTION.contentEqualsIgnoreCase(name)
        || HttpHeaderNames.UPGRADE.contentEqualsIgnoreCase(name);
  }
}
