package io.krill.httpd.internal.http2;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http2.Http2CodecUtil;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2FrameTypes;
import io.netty.util.ReferenceCountUtil;

/**
 * Counts the CONTINUATION frames of each header block on the bytes before they reach the frame
 * codec, and ends the connection with GOAWAY ENHANCE_YOUR_CALM when a block spans more than
 * the limit. Netty bounds a header block's bytes (the header list size) but not its frame
 * count, so a flood of empty CONTINUATION frames would otherwise cost CPU without end. The
 * bytes pass through untouched. Runs on the connection's event loop.
 */
final class ContinuationGuard extends ChannelInboundHandlerAdapter {
  /*
   * Implementation notes.
   *
   * A scanner over frame boundaries: skip the 24-byte client preface, then read each 9-byte frame
   * header (length: 3 bytes, type, flags, stream id) and skip its payload, across buffer
   * boundaries (a header may be split; its bytes are gathered in `header`). A HEADERS or
   * PUSH_PROMISE frame without END_HEADERS opens a block; each CONTINUATION counts against it;
   * END_HEADERS closes it. Malformed sequences are the codec's to reject.
   */
  private static final int FRAME_HEADER = 9;
  private static final int END_HEADERS = 0x4;

  private final int maxContinuationFrames;
  private int prefaceLeft = Http2CodecUtil.connectionPrefaceBuf().readableBytes();
  private final byte[] header = new byte[FRAME_HEADER];
  private int headerBytes;
  private long payloadLeft;
  private boolean inBlock;
  private int continuations;
  private boolean tripped;

  ContinuationGuard(int maxContinuationFrames) {
    this.maxContinuationFrames = maxContinuationFrames;
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
    if (tripped) {
      ReferenceCountUtil.release(msg);
      return;
    }
    if (msg instanceof ByteBuf && !scan((ByteBuf) msg)) {
      tripped = true;
      ReferenceCountUtil.release(msg);
      ctx.fireExceptionCaught(Http2Exception.connectionError(Http2Error.ENHANCE_YOUR_CALM,
          "A header block spans more than %d CONTINUATION frames (maxContinuationFrames)", maxContinuationFrames));
      return;
    }
    ctx.fireChannelRead(msg);
  }

  /* @return false once a block has too many CONTINUATION frames */
  private boolean scan(ByteBuf buf) {
    int pos = buf.readerIndex();
    int end = buf.writerIndex();
    if (prefaceLeft > 0) {
      int n = Math.min(prefaceLeft, end - pos);
      prefaceLeft -= n;
      pos += n;
    }
    while (pos < end) {
      if (payloadLeft > 0) {
        int n = (int) Math.min(payloadLeft, end - pos);
        payloadLeft -= n;
        pos += n;
        continue;
      }
      header[headerBytes++] = buf.getByte(pos++);
      if (headerBytes == FRAME_HEADER) {
        headerBytes = 0;
        payloadLeft = (header[0] & 0xffL) << 16 | (header[1] & 0xffL) << 8 | header[2] & 0xffL;
        if (!frame(header[3], header[4])) {
          return false;
        }
      }
    }
    return true;
  }

  private boolean frame(byte type, byte flags) {
    boolean endHeaders = (flags & END_HEADERS) != 0;
    if (type == Http2FrameTypes.HEADERS || type == Http2FrameTypes.PUSH_PROMISE) {
      inBlock = !endHeaders;
      continuations = 0;
    } else if (type == Http2FrameTypes.CONTINUATION && inBlock) {
      if (++continuations > maxContinuationFrames) {
        return false;
      }
      inBlock = !endHeaders;
    }
    return true;
  }
}
