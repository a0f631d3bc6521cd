package io.krill.httpd.internal.http2;

import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.codec.http2.DefaultHttp2ResetFrame;
import io.netty.handler.codec.http2.DefaultHttp2WindowUpdateFrame;
import io.netty.handler.codec.http2.Http2DataFrame;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2FrameCodec;
import io.netty.handler.codec.http2.Http2FrameStream;
import io.netty.handler.codec.http2.Http2FrameStreamEvent;
import io.netty.handler.codec.http2.Http2FrameStreamException;
import io.netty.handler.codec.http2.Http2HeadersFrame;
import io.netty.handler.codec.http2.Http2ResetFrame;
import io.netty.handler.codec.http2.Http2Stream;
import io.netty.handler.codec.http2.Http2StreamFrame;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.collection.IntObjectHashMap;
import io.netty.util.collection.IntObjectMap;
import java.util.ArrayList;
import java.util.List;

/**
 * The streams of one HTTP/2 connection, right after Netty's frame codec: turns each stream the
 * client opens into a {@link ServerStream} with the server's handler and strand, hands it its
 * frames as the exchange's request objects, passes on the codec's writability and state events,
 * and flushes the connection once for every batch of responses. Connection-level frames go on
 * down the pipeline. Runs on the connection's event loop.
 */
final class StreamTable extends ChannelDuplexHandler {
  /*
   * Implementation notes.
   *
   * No child channel per stream: a stream is one object in an int-keyed table of this
   * connection, so opening and closing one costs no pipeline, no channel registration, no
   * promise per write and no entry in a server-wide concurrent set. The request head (and its
   * end, for a GET) is queued before the strand starts, so a strand that starts finds its
   * request and never parks for it.
   *
   * Reading: a DATA frame's bytes stay unconsumed (they count against the client's windows)
   * until the strand asks for more after reading what it was given (ServerStream.read), so an
   * unread body holds the client at its window as the child channel's on-demand reads did.
   * Wake-ups: a strand that got something in this read runs in channelReadComplete, with the
   * whole read queued.
   *
   * Flushing: strands run as tasks of the loop, outside the connection's read; a stream's flush
   * queues one flush of the connection behind the strands running now, so a batch of responses
   * costs one pass of the flow controller and one socket write. A flush that the codec does at
   * the end of a read carries what strands woken in that read wrote.
   */
  private final Http2Pipeline.Host host;
  final Http2FrameCodec codec;
  private final IntObjectMap<ServerStream> streams = new IntObjectHashMap<>();
  /* Streams that got something in the current read (their strands are woken at its end). */
  private final List<ServerStream> received = new ArrayList<>();
  /* The frame codec's context: writes go straight to its encoder. */
  ChannelHandlerContext codecCtx;
  private ChannelHandlerContext ctx;
  private boolean flushQueued;
  private final Runnable flushTask = this::flushQueued;

  StreamTable(Http2Pipeline.Host host, Http2FrameCodec codec) {
    this.host = host;
    this.codec = codec;
  }

  @Override
  public void handlerAdded(ChannelHandlerContext ctx) {
    this.ctx = ctx;
    this.codecCtx = ctx.pipeline().context(codec);
  }

  // ------------------------------------------------------------------ inbound

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    if (msg instanceof Http2HeadersFrame) {
      headers((Http2HeadersFrame) msg);
    } else if (msg instanceof Http2DataFrame) {
      data((Http2DataFrame) msg);
    } else if (msg instanceof Http2ResetFrame) {
      Http2ResetFrame r = (Http2ResetFrame) msg;
      ServerStream s = streams.remove(r.stream().id());
      if (s != null) {
        s.ended("reset by the client (" + Http2Error.valueOf(r.errorCode()) + ")");
      }
    } else if (msg instanceof Http2StreamFrame) {
      ReferenceCountUtil.release(msg); // WINDOW_UPDATE, PRIORITY, unknown: the codec acted on them
    } else {
      ctx.fireChannelRead(msg);
    }
  }

  private void headers(Http2HeadersFrame frame) {
    Http2FrameStream fs = frame.stream();
    ServerStream s = streams.get(fs.id());
    if (s != null) {
      LastHttpContent trailers = frame.isEndStream() ? StreamCodec.trailers(frame.headers()) : null;
      if (trailers == null) {
        reset(fs, Http2Error.PROTOCOL_ERROR); // neither trailers nor a request: a stream carries one request
        return;
      }
      s.remoteEnded = true;
      s.receive(trailers);
      return;
    }
    HttpRequest head = StreamCodec.request(frame.headers(), frame.isEndStream());
    if (head == null) {
      reset(fs, Http2Error.PROTOCOL_ERROR); // malformed (RFC 9113 8.2.1), no method, or no :path (8.3.1)
      return;
    }
    Http2Stream stream = codec.connection().stream(fs.id());
    if (stream == null) {
      return; // closed in the same read (a reset): nothing to serve
    }
    s = new ServerStream(this, fs, stream);
    streams.put(fs.id(), s);
    s.handler = host.stream(s);
    s.handler.receive(head);
    if (frame.isEndStream()) {
      s.remoteEnded = true;
      if (StreamCodec.announcesBody(head)) {
        s.handler.receive(LastHttpContent.EMPTY_LAST_CONTENT); // a body the head announced ends here
      }
    }
    s.handler.start();
  }

  private void data(Http2DataFrame frame) {
    ServerStream s = streams.get(frame.stream().id());
    if (s == null) {
      int n = frame.initialFlowControlledBytes();
      frame.release();
      consume(frame.stream(), n); // nobody reads it: the window goes back at once
      return;
    }
    s.unconsumed += frame.initialFlowControlledBytes();
    if (frame.isEndStream()) {
      s.remoteEnded = true;
    }
    s.receive(StreamCodec.content(frame.content(), frame.isEndStream()));
  }

  /* A stream got a message in this read; its strand is woken at the read's end. */
  void received(ServerStream s) {
    if (!s.inReceived) {
      s.inReceived = true;
      received.add(s);
    }
  }

  @Override
  public void channelReadComplete(ChannelHandlerContext ctx) {
    List<ServerStream> r = received;
    for (int i = 0; i < r.size(); i++) {
      ServerStream s = r.get(i);
      s.inReceived = false;
      s.handler.receiveComplete();
    }
    r.clear();
    ctx.fireChannelReadComplete();
  }

  @Override
  public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
    if (evt instanceof Http2FrameStreamEvent) {
      Http2FrameStreamEvent e = (Http2FrameStreamEvent) evt;
      int id = e.stream().id();
      ServerStream s = streams.get(id);
      if (s != null) {
        if (e.type() == Http2FrameStreamEvent.Type.Writability) {
          s.writabilityChanged();
        } else if (e.stream().state() == Http2Stream.State.CLOSED) {
          streams.remove(id);
          if (s.remoteEnded && !s.resetSent()) {
            s.completed(); // both sides ended
          } else {
            s.ended("closed before both sides ended"); // the codec reset it, or a GOAWAY cut it off
          }
        }
      }
      return;
    }
    ctx.fireUserEventTriggered(evt);
  }

  /* A stream error the codec found on a stream we serve: end it and tell the client why. */
  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    if (cause instanceof Http2FrameStreamException) {
      Http2FrameStreamException e = (Http2FrameStreamException) cause;
      ServerStream s = streams.remove(e.stream().id());
      if (s != null) {
        s.ended("failed: " + e.getCause());
      }
      reset(e.stream(), e.error());
      return;
    }
    ctx.fireExceptionCaught(cause);
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) {
    endAll();
    ctx.fireChannelInactive();
  }

  @Override
  public void handlerRemoved(ChannelHandlerContext ctx) {
    endAll();
  }

  private void endAll() {
    if (streams.isEmpty()) {
      return;
    }
    List<ServerStream> all = new ArrayList<>(streams.values());
    streams.clear();
    for (ServerStream s : all) {
      s.ended("the connection closed");
    }
  }

  /* The sweeper's pass over this connection's streams, on the loop. */
  void sweep(long now) {
    for (ServerStream s : streams.values()) {
      s.handler.sweep(now);
    }
  }

  // ------------------------------------------------------------------ outbound, on the loop

  void reset(Http2FrameStream fs, Http2Error error) {
    ctx.write(new DefaultHttp2ResetFrame(error).stream(fs), ctx.voidPromise());
    flushSoon();
  }

  /*
   * Returns n read bytes of a stream to the client's windows, through the codec (which knows that
   * an upgraded stream 1 is not flow controlled). Not flushed.
   */
  void consume(Http2FrameStream fs, int n) {
    if (n <= 0 || codec.connection().stream(fs.id()) == null) {
      return; // closed: the codec returned its bytes to the connection window then
    }
    ctx.write(new DefaultHttp2WindowUpdateFrame(n).stream(fs), ctx.voidPromise());
  }

  /** Flushes the connection once the strands running now are through. */
  void flushSoon() {
    if (!flushQueued) {
      flushQueued = true;
      ctx.executor().execute(flushTask);
    }
  }

  /* A flush is queued: run it now (a reset is about to drop what flow control holds). */
  void flushIfQueued() {
    if (flushQueued) {
      flushQueued();
    }
  }

  private void flushQueued() {
    flushQueued = false;
    ctx.flush(); // into the codec's flush: the flow controller writes what the windows allow
  }

  /* Forgets a stream its strand is done with (its close() reset it). */
  void forget(ServerStream s) {
    if (streams.get(s.id) == s) {
      streams.remove(s.id);
    }
  }
}
