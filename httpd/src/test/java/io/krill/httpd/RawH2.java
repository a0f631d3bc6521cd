package io.krill.httpd;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http2.DefaultHttp2FrameReader;
import io.netty.handler.codec.http2.DefaultHttp2FrameWriter;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.DefaultHttp2HeadersEncoder;
import io.netty.handler.codec.http2.Http2CodecUtil;
import io.netty.handler.codec.http2.Http2FrameAdapter;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2Settings;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A raw HTTP/2 peer for error paths: writes frames a well-behaved client never would (too many
 * streams, floods, bad prefaces) with Netty's frame writer over a plain socket, and records the
 * server's frames as {@link Frame}s decoded by Netty's frame reader.
 */
final class RawH2 implements AutoCloseable {
  /** One frame from the server. */
  record Frame(String type, int streamId, long errorCode, Http2Headers headers) {
    int status() {
      return Integer.parseInt(headers.status().toString());
    }
  }

  /** The end of the connection, as a frame. */
  static final String CLOSED = "CLOSED";

  private final Socket socket;
  private final OutputStream out;
  private final EmbeddedChannel embedded = new EmbeddedChannel(new ChannelInboundHandlerAdapter());
  private final ChannelHandlerContext ctx = embedded.pipeline().firstContext();
  private final DefaultHttp2FrameWriter writer = new DefaultHttp2FrameWriter();
  final LinkedBlockingQueue<Frame> frames = new LinkedBlockingQueue<>();
  private final Thread readerThread;
  /** Whether the server's SETTINGS are acknowledged, as a well-behaved client does. */
  volatile boolean ackSettings = true;
  /** How the reader saw the connection end: the end of the stream, or its exception. */
  private volatile String closedBy = "end of stream";

  RawH2(int port) throws IOException {
    socket = new Socket("127.0.0.1", port);
    socket.setTcpNoDelay(true);
    out = socket.getOutputStream();
    readerThread = new Thread(this::readLoop, "raw-h2-reader");
    readerThread.setDaemon(true);
    readerThread.start();
  }

  /** Sends the client preface and an empty SETTINGS frame. */
  synchronized RawH2 preface() throws IOException {
    ByteBuf p = Http2CodecUtil.connectionPrefaceBuf();
    byte[] b = new byte[p.readableBytes()];
    p.readBytes(b);
    p.release();
    out.write(b);
    writer.writeSettings(ctx, new Http2Settings(), ctx.newPromise());
    return flush();
  }

  synchronized void raw(byte[] bytes) throws IOException {
    out.write(bytes);
    out.flush();
  }

  synchronized RawH2 headers(int streamId, boolean endStream, Http2Headers headers) throws IOException {
    writer.writeHeaders(ctx, streamId, headers, 0, endStream, ctx.newPromise());
    return flush();
  }

  static Http2Headers get(String path) {
    return new DefaultHttp2Headers().method("GET").path(path).scheme("http").authority("localhost");
  }

  synchronized RawH2 rst(int streamId, long errorCode) throws IOException {
    writer.writeRstStream(ctx, streamId, errorCode, ctx.newPromise());
    return flush();
  }

  synchronized RawH2 data(int streamId, byte[] bytes, boolean endStream) throws IOException {
    writer.writeData(ctx, streamId, Unpooled.wrappedBuffer(bytes), 0, endStream, ctx.newPromise());
    return flush();
  }

  /** A HEADERS frame without END_HEADERS followed by {@code n} empty CONTINUATION frames. */
  synchronized RawH2 continuationFlood(int streamId, Http2Headers headers, int n) throws Exception {
    ByteBuf block = Unpooled.buffer();
    new DefaultHttp2HeadersEncoder().encodeHeaders(streamId, headers, block);
    writer.writeFrame(ctx, (byte) 0x1, streamId, new io.netty.handler.codec.http2.Http2Flags().endOfStream(true),
        block, ctx.newPromise());
    for (int i = 0; i < n; i++) {
      writer.writeFrame(ctx, (byte) 0x9, streamId, new io.netty.handler.codec.http2.Http2Flags(), Unpooled.EMPTY_BUFFER,
          ctx.newPromise());
    }
    return flush();
  }

  private synchronized RawH2 flush() throws IOException {
    embedded.flushOutbound();
    for (Object o; (o = embedded.readOutbound()) != null; ) {
      ByteBuf b = (ByteBuf) o;
      byte[] bytes = new byte[b.readableBytes()];
      b.readBytes(bytes);
      b.release();
      out.write(bytes);
    }
    out.flush();
    return this;
  }

  private synchronized void settingsAck() {
    try {
      writer.writeSettingsAck(ctx, ctx.newPromise());
      flush();
    } catch (IOException e) {
      // the connection is gone; the reader sees its end
    }
  }

  /** Waits for the first frame that matches; frames before it are dropped. */
  Frame await(Predicate<Frame> p) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(H2Client.TIMEOUT_SECONDS);
    for (;;) {
      Frame f = frames.poll(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
      if (f == null) {
        throw new AssertionError("no such frame within " + H2Client.TIMEOUT_SECONDS + " s");
      }
      if (p.test(f)) {
        return f;
      }
    }
  }

  Frame await(String type) throws InterruptedException {
    return await(f -> f.type().equals(type) || f.type().equals(CLOSED) && !type.equals(CLOSED) && fail(type));
  }

  private boolean fail(String type) {
    throw new AssertionError("the connection closed before a " + type + " frame (" + closedBy + ")");
  }

  /** Drains the frames seen so far. */
  List<Frame> seen() {
    List<Frame> l = new ArrayList<>();
    frames.drainTo(l);
    return l;
  }

  private void readLoop() {
    DefaultHttp2FrameReader reader = new DefaultHttp2FrameReader();
    Http2FrameAdapter listener = new Http2FrameAdapter() {
      @Override
      public void onHeadersRead(ChannelHandlerContext c, int streamId, Http2Headers headers, int padding,
          boolean endOfStream) {
        frames.add(new Frame("HEADERS", streamId, 0, headers));
      }

      @Override
      public void onHeadersRead(ChannelHandlerContext c, int streamId, Http2Headers headers, int dependency,
          short weight, boolean exclusive, int padding, boolean endOfStream) {
        onHeadersRead(c, streamId, headers, padding, endOfStream);
      }

      @Override
      public int onDataRead(ChannelHandlerContext c, int streamId, ByteBuf data, int padding, boolean endOfStream) {
        frames.add(new Frame("DATA", streamId, data.readableBytes(), null));
        return data.readableBytes() + padding;
      }

      @Override
      public void onWindowUpdateRead(ChannelHandlerContext c, int streamId, int increment) {
        frames.add(new Frame("WINDOW_UPDATE", streamId, increment, null));
      }

      @Override
      public void onRstStreamRead(ChannelHandlerContext c, int streamId, long errorCode) {
        frames.add(new Frame("RST_STREAM", streamId, errorCode, null));
      }

      @Override
      public void onGoAwayRead(ChannelHandlerContext c, int lastStreamId, long errorCode, ByteBuf debugData) {
        frames.add(new Frame("GOAWAY", lastStreamId, errorCode, null));
        closedBy = "GOAWAY " + errorCode + " " + debugData.toString(java.nio.charset.StandardCharsets.UTF_8);
      }

      @Override
      public void onSettingsRead(ChannelHandlerContext c, Http2Settings settings) {
        // acknowledged before it is seen: a test that awaits SETTINGS knows no ACK can come later
        // (say between a HEADERS frame and its CONTINUATION, where RFC 9113 allows no other frame)
        if (ackSettings) {
          settingsAck();
        }
        frames.add(new Frame("SETTINGS", 0, 0, null));
      }
    };
    ByteBuf acc = Unpooled.buffer();
    try (InputStream in = socket.getInputStream()) {
      byte[] buf = new byte[16384];
      for (int n; (n = in.read(buf)) > 0; ) {
        acc.writeBytes(buf, 0, n);
        reader.readFrame(ctx, acc, listener);
        acc.discardReadBytes();
      }
    } catch (Exception e) {
      // the server closed or reset the connection, or its bytes were not HTTP/2: say which
      closedBy = e.toString();
    } finally {
      acc.release();
      reader.close();
      frames.add(new Frame(CLOSED, 0, 0, null));
    }
  }

  @Override
  public void close() throws IOException {
    socket.close();
    embedded.finishAndReleaseAll();
  }
}
