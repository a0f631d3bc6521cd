package io.krill.httpd.websocket;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.websocketx.CloseWebSocketFrame;
import io.netty.handler.codec.http.websocketx.ContinuationWebSocketFrame;
import io.netty.handler.codec.http.websocketx.CorruptedWebSocketFrameException;
import io.netty.handler.codec.http.websocketx.PingWebSocketFrame;
import io.netty.handler.codec.http.websocketx.PongWebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketCloseStatus;
import io.netty.handler.codec.http.websocketx.WebSocketFrame;
import io.netty.util.ReferenceCountUtil;

/**
 * Loop side, right after Netty's frame decoder: the RFC 6455 rules that decoder leaves to its
 * caller. A frame that breaks one fails the connection with 1002, as the decoder's own checks do
 * (the connection sends the Close), and every frame after it is dropped.
 *
 * <ul>
 *   <li>Reserved bits (section 5.2): a frame may set only the bits of an extension the handshake
 *       agreed on. With permessage-deflate that is RSV1, on the first frame of a data message only
 *       (RFC 7692 section 6); without it, none. Netty's decoder, once told that extensions may
 *       exist, lets every bit through on every frame.
 *   <li>Close codes (section 7.4): a code of 5000 or more is in no range the RFC defines. Netty
 *       refuses 0–999 and the reserved ones in 1000–2999, but accepts everything from 3000 up.
 * </ul>
 */
final class FrameRules extends ChannelInboundHandlerAdapter {
  private static final int RSV1 = 4;
  private static final int FIRST_UNDEFINED_CLOSE_CODE = 5000;

  private final int dataRsv;
  private boolean failed;

  /** @param deflate whether the handshake agreed on permessage-deflate */
  FrameRules(boolean deflate) {
    this.dataRsv = deflate ? RSV1 : 0;
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    if (failed) {
      ReferenceCountUtil.release(msg);
      return;
    }
    if (msg instanceof WebSocketFrame) {
      String broken = broken((WebSocketFrame) msg);
      if (broken != null) {
        failed = true;
        ReferenceCountUtil.release(msg);
        ctx.fireExceptionCaught(new CorruptedWebSocketFrameException(WebSocketCloseStatus.PROTOCOL_ERROR, broken));
        return;
      }
    }
    ctx.fireChannelRead(msg);
  }

  /* @return what rule the frame breaks, or null */
  private String broken(WebSocketFrame frame) {
    int rsv = frame.rsv();
    if (frame instanceof CloseWebSocketFrame) {
      int code = ((CloseWebSocketFrame) frame).statusCode();
      if (code >= FIRST_UNDEFINED_CLOSE_CODE) {
        return "close code " + code + " is undefined";
      }
    }
    if (rsv == 0) {
      return null;
    }
    if (isControl(frame) || frame instanceof ContinuationWebSocketFrame || (rsv & ~dataRsv) != 0) {
      return "reserved bits " + rsv + " set without an extension that defines them";
    }
    return null;
  }

  private static boolean isControl(WebSocketFrame frame) {
    return frame instanceof CloseWebSocketFrame
        || frame instanceof PingWebSocketFrame || frame instanceof PongWebSocketFrame;
  }
}
