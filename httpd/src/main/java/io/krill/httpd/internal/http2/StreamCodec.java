package io.krill.httpd.internal.http2;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultHttpHeadersFactory;
import io.netty.handler.codec.http.DefaultHttpRequest;
import io.netty.handler.codec.http.DefaultLastHttpContent;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpHeadersFactory;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.codec.http2.DefaultHttp2DataFrame;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.DefaultHttp2HeadersFrame;
import io.netty.handler.codec.http2.DefaultHttp2ResetFrame;
import io.netty.handler.codec.http2.Http2DataFrame;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2HeadersFrame;
import io.netty.handler.codec.http2.Http2Stream;
import io.netty.handler.codec.http2.Http2StreamChannel;
import io.netty.util.AsciiString;
import java.util.Iterator;
import java.util.Map;

/**
 * The one handler of a stream channel before the server's connection handler: sets the stream
 * up for the server when it is added, then turns the stream's HEADERS and DATA frames into the
 * request head and body pieces the exchange reads on HTTP/1.1, and the response objects the
 * exchange writes into HEADERS and DATA frames. One instance serves every stream of a
 * connection. Runs on the connection's event loop.
 */
@ChannelHandler.Sharable
final class StreamCodec extends ChannelDuplexHandler {
  /*
   * Implementation notes.
   *
   * Inbound, the request's fields are copied once, straight from the decoded Http2Headers into
   * the head's header map (:authority becomes Host, several cookie fields one, RFC 9113
   * 8.2.3); the pseudo-header fields become the method and target. Names need no check (HPACK's
   * decoder checked them, and HTTP/2 names are lower case); values keep the map's check. Like
   * HTTP/1.1's decoder, a request that ends with its HEADERS frame and has no Content-Length
   * gets no end marker (nothing will read it); one that goes on without a Content-Length is
   * marked chunked, so the exchange reads its body to the stream's end.
   *
   * Outbound, the response head's fields are copied into Http2Headers without the
   * connection-specific ones (RFC 9113 8.2.2). The exchange writes header names in lower case
   * only, the form HTTP/2 requires. A message that becomes several frames writes all but the
   * last with a void promise: a failure of one fails the stream, and the last frame's promise
   * with it.
   */
  private static final HttpHeadersFactory REQUEST_HEADERS =
      DefaultHttpHeadersFactory.headersFactory().withNameValidation(false);
  private static final AsciiString COOKIE_SEPARATOR = AsciiString.cached("; ");

  private final Http2Pipeline.Host host;
  private final Channel connection;
  /* Loop thread only: a flush of the connection is queued behind the strands that run now. */
  private boolean flushQueued;
  private final Runnable flushConnection = this::flushConnection;

  StreamCodec(Http2Pipeline.Host host, Channel connection) {
    this.host = host;
    this.connection = connection;
  }

  /*
   * The multiplexer adds this to each new stream channel: the stream is set up right here, with
   * no initializer added and removed per stream. Reads are on demand (the strand's), so an
   * unread body holds back WINDOW_UPDATE.
   */
  @Override
  public void handlerAdded(ChannelHandlerContext ctx) {
    ctx.channel().config().setAutoRead(false);
    host.stream(ctx.channel());
  }

  // ------------------------------------------------------------------ inbound: frames to the request

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    if (msg instanceof Http2HeadersFrame) {
      headers(ctx, (Http2HeadersFrame) msg);
    } else if (msg instanceof Http2DataFrame) {
      Http2DataFrame data = (Http2DataFrame) msg;
      ByteBuf content = data.content(); // the frame's only reference: passed on, not retained
      ctx.fireChannelRead(data.isEndStream() ? new DefaultLastHttpContent(content) : new DefaultHttpContent(content));
    } else {
      ctx.fireChannelRead(msg);
    }
  }

  private static void headers(ChannelHandlerContext ctx, Http2HeadersFrame frame) {
    Http2Headers h = frame.headers();
    CharSequence method = h.method();
    if (method == null) {
      if (frame.isEndStream()) {
        ctx.fireChannelRead(trailers(h)); // trailers end the body
      } else {
        ctx.writeAndFlush(new DefaultHttp2ResetFrame(Http2Error.PROTOCOL_ERROR)); // neither a request nor trailers
      }
      return;
    }
    HttpMethod m = HttpMethod.valueOf(method.toString());
    CharSequence target = m == HttpMethod.CONNECT ? h.authority() : h.path();
    if (target == null) {
      ctx.writeAndFlush(new DefaultHttp2ResetFrame(Http2Error.PROTOCOL_ERROR)); // RFC 9113 8.3.1: :path is required
      return;
    }
    HttpHeaders fields = REQUEST_HEADERS.newHeaders();
    CharSequence cookie = null;
    for (Iterator<Map.Entry<CharSequence, CharSequence>> it = h.iterator(); it.hasNext(); ) {
      Map.Entry<CharSequence, CharSequence> e = it.next();
      CharSequence name = e.getKey();
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
    boolean length = fields.contains(HttpHeaderNames.CONTENT_LENGTH);
    if (!frame.isEndStream() && !length) {
      fields.add(HttpHeaderNames.TRANSFER_ENCODING, HttpHeaderValues.CHUNKED);
    }
    ctx.fireChannelRead(new DefaultHttpRequest(HttpVersion.HTTP_1_1, m, target.toString(), fields));
    if (frame.isEndStream() && length) {
      ctx.fireChannelRead(LastHttpContent.EMPTY_LAST_CONTENT); // a body the head announced ends here
    }
  }

  private static LastHttpContent trailers(Http2Headers h) {
    DefaultLastHttpContent last = new DefaultLastHttpContent();
    for (Map.Entry<CharSequence, CharSequence> e : h) {
      last.trailingHeaders().add(e.getKey(), e.getValue());
    }
    return last;
  }

  // ------------------------------------------------------------------ outbound: the response to frames

  /*
   * A stream's strand runs as a task of the connection's loop, not inside the connection's
   * read (where Netty's multiplexer gathers the streams' flushes into one): a flush per stream
   * would cost the connection a pass of the flow controller and a socket write per response.
   * So a stream's flush queues one flush of the connection behind the tasks queued now (the
   * other streams' strands), and every response written meanwhile goes out with it.
   */
  @Override
  public void flush(ChannelHandlerContext ctx) {
    if (!flushQueued) {
      flushQueued = true;
      ctx.executor().execute(flushConnection);
    }
  }

  private void flushConnection() {
    flushQueued = false;
    connection.flush();
  }

  /*
   * A stream closed before the client ended its side is reset (RST_STREAM CANCEL) as it closes,
   * and a reset drops the DATA frames flow control still holds for it: what the stream wrote
   * goes out first, as it did when every stream flushed at once.
   */
  @Override
  public void close(ChannelHandlerContext ctx, ChannelPromise promise) {
    if (flushQueued && !clientEnded((Http2StreamChannel) ctx.channel())) {
      connection.flush();
    }
    ctx.close(promise);
  }

  private static boolean clientEnded(Http2StreamChannel stream) {
    Http2Stream.State s = stream.stream().state();
    return s == Http2Stream.State.HALF_CLOSED_REMOTE || s == Http2Stream.State.CLOSED;
  }

  @Override
  public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
    if (msg instanceof HttpResponse) {
      response(ctx, (HttpResponse) msg, promise);
    } else if (msg instanceof LastHttpContent) {
      last(ctx, (LastHttpContent) msg, promise);
    } else if (msg instanceof HttpContent) {
      ctx.write(new DefaultHttp2DataFrame(((HttpContent) msg).content(), false), promise);
    } else if (msg instanceof ByteBuf) {
      ctx.write(new DefaultHttp2DataFrame((ByteBuf) msg, false), promise);
    } else {
      ctx.write(msg, promise);
    }
  }

  private static void response(ChannelHandlerContext ctx, HttpResponse res, ChannelPromise promise) {
    Http2Headers h = http2Headers(res);
    if (!(res instanceof FullHttpResponse)) {
      ctx.write(new DefaultHttp2HeadersFrame(h, false), promise);
      return;
    }
    FullHttpResponse full = (FullHttpResponse) res;
    if (res.status().code() == HttpResponseStatus.CONTINUE.code()) {
      full.release();
      ctx.write(new DefaultHttp2HeadersFrame(h, false), promise); // an interim response: the stream goes on
      return;
    }
    if (!full.content().isReadable() && full.trailingHeaders().isEmpty()) {
      full.release();
      ctx.write(new DefaultHttp2HeadersFrame(h, true), promise);
      return;
    }
    ctx.write(new DefaultHttp2HeadersFrame(h, false), ctx.voidPromise());
    last(ctx, full, promise);
  }

  /* A body's end: its last bytes (or an empty DATA frame) ending the stream, or trailers after them. */
  private static void last(ChannelHandlerContext ctx, LastHttpContent last, ChannelPromise promise) {
    HttpHeaders trailers = last.trailingHeaders();
    if (trailers.isEmpty()) {
      ctx.write(new DefaultHttp2DataFrame(last.content(), true), promise);
      return;
    }
    if (last.content().isReadable()) {
      ctx.write(new DefaultHttp2DataFrame(last.content(), false), ctx.voidPromise());
    } else {
      last.release();
    }
    DefaultHttp2Headers h = new DefaultHttp2Headers(false, trailers.size());
    copyFields(trailers, h);
    ctx.write(new DefaultHttp2HeadersFrame(h, true), promise);
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
