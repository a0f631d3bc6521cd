package io.krill.httpd;

import io.krill.netio.Tls;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.channel.socket.DuplexChannel;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import io.netty.util.ReferenceCountUtil;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Answers a connection the server has no room for: {@code 503 Service Unavailable} with
 * {@code Retry-After}, sent as soon as the connection is up (after the TLS handshake with TLS),
 * then the output is closed (after TLS's close_notify) and what the client sends is read and dropped until it closes, for
 * at most {@link #LINGER_MILLIS}, so the client reads the answer instead of a reset. Runs on
 * the channel's loop.
 */
final class Overload extends ChannelInboundHandlerAdapter {
  /*
   * Implementation notes.
   *
   * The answer does not wait for the request: a client at a full server learns it at once, and
   * the server keeps no per-connection state but this handler. Clients read a response that
   * arrives before they finished sending (curl, the JDK's client, browsers), and the request
   * bytes are drained, so the close is a FIN, not an RST. Refusals in progress are bounded
   * (MAX_REFUSING); beyond that a new connection is closed at once, as a flood would otherwise
   * hold file descriptors for the linger time each.
   */

  /** Seconds a refused client is told to wait before retrying. */
  static final int RETRY_AFTER_SECONDS = 1;
  /** The longest a refused connection is kept: handshake, answer and drain. */
  static final long LINGER_MILLIS = 1000;
  /** The most refusals in progress at once; more connections are closed without an answer. */
  static final int MAX_REFUSING = 256;

  private static final byte[] BODY = "503 Service Unavailable\n".getBytes(StandardCharsets.US_ASCII);

  private final boolean tls;
  private final AtomicInteger refusing;
  private boolean answered;

  private Overload(boolean tls, AtomicInteger refusing) {
    this.tls = tls;
    this.refusing = refusing;
  }

  /** Refuses {@code ch} (just accepted, not yet active) with 503, or closes it when too many refusals are under way. */
  static void refuse(Channel ch, Tls tls, AtomicInteger refusing) {
    if (refusing.incrementAndGet() > MAX_REFUSING) {
      refusing.decrementAndGet();
      ch.close();
      return;
    }
    ch.closeFuture().addListener(f -> refusing.decrementAndGet());
    if (tls != null) {
      ch.pipeline().addLast("tls", tls.newHandler(ch.alloc(), null, 0));
    }
    ch.pipeline().addLast("overload", new Overload(tls != null, refusing));
    ch.eventLoop().schedule(() -> {
      ch.close();
    }, LINGER_MILLIS, TimeUnit.MILLISECONDS);
  }

  @Override
  public void channelActive(ChannelHandlerContext ctx) {
    ctx.read(); // autoRead is off: the handshake, and later the drain, need reads
    if (!tls) {
      answer(ctx);
    }
  }

  @Override
  public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
    if (evt instanceof SslHandshakeCompletionEvent) {
      if (((SslHandshakeCompletionEvent) evt).isSuccess()) {
        answer(ctx);
      } else {
        ctx.close();
      }
    } else if (evt instanceof ChannelInputShutdownEvent) {
      ctx.close(); // the client is done sending: the drain is over
    }
  }

  private void answer(ChannelHandlerContext ctx) {
    if (answered) {
      return;
    }
    answered = true;
    String head = "HTTP/1.1 503 Service Unavailable\r\n"
        + "retry-after: " + RETRY_AFTER_SECONDS + "\r\n"
        + "content-type: text/plain; charset=utf-8\r\n"
        + "content-length: " + BODY.length + "\r\n"
        + "connection: close\r\n"
        + "date: " + Dates.now() + "\r\n\r\n";
    ByteBuf buf = ctx.alloc().buffer(head.length() + BODY.length)
        .writeBytes(head.getBytes(StandardCharsets.US_ASCII)).writeBytes(BODY);
    ctx.writeAndFlush(buf).addListener((ChannelFutureListener) f -> {
      if (!f.isSuccess()) {
        ctx.close();
      } else if (tls) {
        // close_notify, then half-close and drain as without TLS: closing the socket here would
        // reset a client whose request is still on its way, and it would never read the 503
        ctx.pipeline().get(SslHandler.class).closeOutbound().addListener(c -> shutdownOutput(ctx));
      } else {
        shutdownOutput(ctx);
      }
    });
  }

  private static void shutdownOutput(ChannelHandlerContext ctx) {
    if (ctx.channel() instanceof DuplexChannel) {
      ((DuplexChannel) ctx.channel()).shutdownOutput();
    } else {
      ctx.close();
    }
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    ReferenceCountUtil.release(msg); // the request of a refused client: drained, never served
  }

  @Override
  public void channelReadComplete(ChannelHandlerContext ctx) {
    ctx.read();
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    ctx.close();
  }
}
