package io.krill.httpd.websocket;

import io.krill.fibers.FiberLock;
import io.krill.fibers.Strand;
import io.krill.fibers.Suspendable;
import io.krill.fibers.VarHandles;
import io.krill.httpd.Request;
import io.krill.httpd.UpgradeHandler;
import io.krill.netio.spi.ConnectionHandler;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.handler.codec.CodecException;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.netty.handler.codec.http.websocketx.CloseWebSocketFrame;
import io.netty.handler.codec.http.websocketx.ContinuationWebSocketFrame;
import io.netty.handler.codec.http.websocketx.CorruptedWebSocketFrameException;
import io.netty.handler.codec.http.websocketx.PingWebSocketFrame;
import io.netty.handler.codec.http.websocketx.PongWebSocketFrame;
import io.netty.handler.codec.http.websocketx.TextWebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketFrame;
import io.netty.util.concurrent.ScheduledFuture;
import io.netty.util.ReferenceCountUtil;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/**
 * One upgraded connection: netio's connection core as the last handler of the WebSocket
 * pipeline, and the {@link WebSocket} its handler uses.
 */
final class WebSocketConnection extends ConnectionHandler implements WebSocket {
  /*
   * Implementation notes.
   *
   * The loop turns each data frame into a WebSocketMessage (a heap copy) before it joins the
   * queue, so the queue holds no reference-counted buffers and a handler never sees Netty types.
   * Pings are answered here on the loop; a Close from the peer is answered here too and enqueues
   * CLOSED after the messages that came before it, so receive() delivers those first.
   *
   * State: OPEN until a Close is sent or received; CLOSING once this side sent its Close and waits
   * for the peer's (frames that still arrive are dropped, reads go on so the Close is seen);
   * CLOSED once both Closes were exchanged or the connection is gone. closeCode/closeReason are
   * written once, by whoever left OPEN first (a CAS on state).
   *
   * Concurrent senders: Netty writes whole frames in order from any thread; only the wait for
   * writability is serialized (the core has one writer slot), by a FiberLock made on first need.
   *
   * Idle timeout: every frame read and every send stamps lastActive (an opaque write, no fence);
   * one timer per socket checks the stamp when the timeout could have passed and re-arms for the
   * rest. Netty's IdleStateHandler would do the same job but un-voids every write's promise to
   * see it complete: a promise and a listener per message sent.
   */
  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(WebSocketConnection.class);
  private static final Object CLOSED_MARK = new Object();
  private static final int OPEN = 0;
  private static final int CLOSING = 1;
  private static final int CLOSED = 2;
  /** Close code sent when the peer's Close had none. */
  private static final int NO_STATUS = 1005;
  private static final int MAX_CONTROL_PAYLOAD = 125;
  private static final String SHUTDOWN_REASON = "server shutting down";

  private static final VarHandle STATE = VarHandles.field(MethodHandles.lookup(), WebSocketConnection.class, "state", int.class);
  private static final VarHandle LAST_ACTIVE =
      VarHandles.field(MethodHandles.lookup(), WebSocketConnection.class, "lastActive", long.class);
  private static final VarHandle SEND_LOCK =
      VarHandles.field(MethodHandles.lookup(), WebSocketConnection.class, "sendLock", FiberLock.class);

  private final Request request;
  private final WebSocketSettings settings;
  private final long sendTimeoutNanos;
  private final long idleTimeoutNanos;
  /** System.nanoTime() of the last frame read or message sent; written opaque from any thread. */
  @SuppressWarnings("unused") // through LAST_ACTIVE
  private long lastActive;
  /** Loop side: the pending idle check, cancelled when the connection ends. */
  private ScheduledFuture<?> idleCheck;
  /** The peer's address as text, made on first need: JFR's park event formats a parked socket per message. */
  private String peer;
  /** {@link #toString()} while open, made on first need, for the same reason. */
  private String openText;
  private volatile int state;
  private volatile int closeCode;
  private volatile String closeReason;
  private volatile FiberLock sendLock;
  /** Set by the reader once it took {@link #CLOSED_MARK}: receive() answers null from then on. */
  private boolean receivedEnd;
  private volatile String subprotocol;
  private volatile boolean compressed;
  /** Loop side: the kind of the message whose frames are arriving, null between messages. */
  private WebSocketMessage.Kind continuedKind;

  WebSocketConnection(Channel channel, Request request, WebSocketSettings settings) {
    super(channel);
    this.request = request;
    this.settings = settings;
    this.sendTimeoutNanos = settings.sendTimeout().toNanos();
    this.idleTimeoutNanos = settings.idleTimeout().toNanos();
  }

  /** Starts the idle timeout: the socket is closed with 1001 once nothing was read or sent for that long. Any thread. */
  void watchIdle() {
    active();
    channel.eventLoop().execute(() -> {
      if (channel.isActive()) {
        idleCheck = channel.eventLoop().schedule(this::checkIdle, idleTimeoutNanos, TimeUnit.NANOSECONDS);
      }
    });
  }

  private void active() {
    LAST_ACTIVE.setOpaque(this, System.nanoTime());
  }

  /* Loop side: closes the socket if it was idle for the timeout, else checks again when it could be. */
  private void checkIdle() {
    idleCheck = null;
    if (!channel.isActive()) {
      return;
    }
    long left = idleTimeoutNanos - (System.nanoTime() - (long) LAST_ACTIVE.getOpaque(this));
    if (left <= 0) {
      abort(GOING_AWAY, "idle timeout");
    } else {
      idleCheck = channel.eventLoop().schedule(this::checkIdle, left, TimeUnit.NANOSECONDS);
    }
  }

  void agreed(String subprotocol, boolean compressed) {
    this.subprotocol = subprotocol;
    this.compressed = compressed;
  }

  @Override
  public String peer() {
    String p = peer;
    if (p == null) {
      p = String.valueOf(channel.remoteAddress());
      if (channel.remoteAddress() != null) {
        peer = p; // a benign race: every thread computes the same text
      }
    }
    return p;
  }

  // ------------------------------------------------------------------ loop side

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    if (!(msg instanceof WebSocketFrame)) {
      ReferenceCountUtil.release(msg); // nothing else comes out of the WebSocket decoder
      return;
    }
    WebSocketFrame frame = (WebSocketFrame) msg;
    active();
    try {
      if (frame instanceof PingWebSocketFrame) {
        if (state == OPEN) {
          ctx.writeAndFlush(new PongWebSocketFrame(frame.content().retain()), ctx.voidPromise());
        }
      } else if (frame instanceof CloseWebSocketFrame) {
        peerClosed(ctx, (CloseWebSocketFrame) frame);
      } else if (state == OPEN) {
        super.channelRead(ctx, message(frame));
      }
    } finally {
      frame.release();
    }
  }

  /* Loop side. A continuation frame (only with whole messages off) has its message's first frame's kind. */
  private WebSocketMessage message(WebSocketFrame frame) {
    WebSocketMessage.Kind kind;
    if (frame instanceof TextWebSocketFrame) {
      kind = WebSocketMessage.Kind.TEXT;
    } else if (frame instanceof BinaryWebSocketFrame) {
      kind = WebSocketMessage.Kind.BINARY;
    } else if (frame instanceof PongWebSocketFrame) {
      return new WebSocketMessage(WebSocketMessage.Kind.PONG, ByteBufUtil.getBytes(frame.content()), true);
    } else if (frame instanceof ContinuationWebSocketFrame) {
      kind = continuedKind;
    } else {
      throw new IllegalStateException("unexpected frame " + frame);
    }
    continuedKind = frame.isFinalFragment() ? null : kind;
    return new WebSocketMessage(kind, ByteBufUtil.getBytes(frame.content()), frame.isFinalFragment());
  }

  /* The peer's Close: answer it (echoing its code) unless this side closed first, then close the connection. */
  private void peerClosed(ChannelHandlerContext ctx, CloseWebSocketFrame frame) {
    int code = frame.statusCode();
    if (STATE.compareAndSet(this, OPEN, CLOSED)) {
      closeReason = frame.reasonText() == null ? "" : frame.reasonText();
      closeCode = code < 0 ? NO_STATUS : code;
      CloseWebSocketFrame answer = code < 0 ? new CloseWebSocketFrame() : new CloseWebSocketFrame(code, "");
      ctx.writeAndFlush(answer).addListener(ChannelFutureListener.CLOSE);
      super.channelRead(ctx, CLOSED_MARK);
    } else {
      state = CLOSED; // our Close's answer: the handshake is complete
      ctx.close();
    }
  }

  @Override
  public void channelReadComplete(ChannelHandlerContext ctx) {
    if (state == CLOSING) {
      ctx.read(); // waiting for the peer's Close: read on, dropping what comes before it
      return;
    }
    super.channelReadComplete(ctx);
  }

  @Override
  public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
    if (evt == UpgradeHandler.SHUTDOWN_EVENT) {
      goingAway(ctx);
      return;
    }
    if (evt instanceof ChannelInputShutdownEvent) {
      // The peer ended its output without (or after) a Close: nothing more can arrive, and no
      // answer to a Close of ours will either.
      if (STATE.compareAndSet(this, OPEN, CLOSED)) {
        closeCode = ABNORMAL_CLOSURE;
        closeReason = "";
      } else {
        state = CLOSED;
      }
      ctx.close();
    }
    super.userEventTriggered(ctx, evt);
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    if (cause instanceof CorruptedWebSocketFrameException) {
      // The frame decoder (1002, 1009) or the UTF-8 validator (1007); it discards what follows.
      int code = ((CorruptedWebSocketFrameException) cause).closeStatus().code();
      LOG.debug("websocket {}: {} ({})", peer(), cause.getMessage(), code);
      abort(code, reasonOf(cause));
    } else if (cause instanceof TooLongFrameException || cause instanceof CodecException && isTooLarge(cause)) {
      LOG.debug("websocket {}: {}", peer(), cause.getMessage());
      abort(MESSAGE_TOO_BIG, "message too big");
    } else {
      super.exceptionCaught(ctx, cause);
      ctx.close();
    }
  }

  /* A decompressed message past its allowance (the deflate decoder's maxAllocation). */
  private static boolean isTooLarge(Throwable cause) {
    for (Throwable t = cause; t != null; t = t.getCause()) {
      String m = t.getMessage();
      if (t instanceof TooLongFrameException || m != null && m.contains("maximum")) {
        return true;
      }
    }
    return false;
  }

  private static String reasonOf(Throwable cause) {
    String m = cause.getMessage() == null ? "" : cause.getMessage();
    return m.length() > 100 ? m.substring(0, 100) : m;
  }

  /*
   * The server shuts down: Close 1001 now, receive() ends, and the peer's answering Close (read
   * on until it comes, see channelReadComplete) ends the connection; a peer that does not answer
   * within closeTimeout is cut off (the server's grace may cut it off sooner).
   */
  private void goingAway(ChannelHandlerContext ctx) {
    if (!STATE.compareAndSet(this, OPEN, CLOSING)) {
      return;
    }
    closeCode = GOING_AWAY;
    closeReason = SHUTDOWN_REASON;
    ctx.writeAndFlush(new CloseWebSocketFrame(GOING_AWAY, SHUTDOWN_REASON), ctx.voidPromise());
    io.netty.util.concurrent.ScheduledFuture<?> cutOff = ctx.executor().schedule(() -> {
      channel.close();
    }, settings.closeTimeout().toNanos(), TimeUnit.NANOSECONDS);
    channel.closeFuture().addListener(f -> cutOff.cancel(false));
    super.channelRead(ctx, CLOSED_MARK);
    ctx.read();
  }

  /* Closes from this side without waiting for the answer: a Close frame if still open, then the connection. Any thread. */
  private void abort(int code, String reason) {
    if (STATE.compareAndSet(this, OPEN, CLOSED)) {
      closeCode = code;
      closeReason = reason;
      channel.writeAndFlush(new CloseWebSocketFrame(code, reason)).addListener(ChannelFutureListener.CLOSE);
    } else {
      state = CLOSED;
      channel.close();
    }
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) {
    ScheduledFuture<?> check = idleCheck;
    if (check != null) {
      idleCheck = null;
      check.cancel(false);
    }
    if (STATE.compareAndSet(this, OPEN, CLOSED)) {
      closeCode = ABNORMAL_CLOSURE;
      closeReason = "";
    } else {
      state = CLOSED;
    }
    super.channelInactive(ctx);
  }

  // ------------------------------------------------------------------ WebSocket

  @Override
  public WebSocketMessage receive() throws Suspendable {
    if (receivedEnd) {
      return null;
    }
    Object m = poll();
    if (m == null) {
      m = receiveSlow();
    }
    if (m == CLOSED_MARK || m == null) {
      receivedEnd = true;
      return null;
    }
    return (WebSocketMessage) m;
  }

  private Object receiveSlow() throws Suspendable {
    Object me = Strand.current();
    try {
      for (;;) {
        Object m = pollOrPublish(me);
        if (m == END) {
          return null;
        }
        if (m != null) {
          return m;
        }
        channel.read();
        Strand.park(this);
      }
    } finally {
      publishReader(null);
    }
  }

  @Override
  public void send(String text) throws IOException, Suspendable {
    checkOpen();
    write(new TextWebSocketFrame(ByteBufUtil.writeUtf8(channel.alloc(), text)));
  }

  @Override
  public void send(byte[] data) throws IOException, Suspendable {
    checkOpen();
    write(new BinaryWebSocketFrame(payload(data)));
  }

  /*
   * The payload copied into a buffer of the channel's allocator (the caller may reuse its array
   * once send returns, and a TLS handler holds what is written until it encrypts). A wrapped
   * heap array would save this copy but cost more: the frame encoder copies a small payload next
   * to its header, and from a heap buffer into the allocator's direct memory that goes through
   * two NIO buffer views per message, besides the wrapper itself; from a pooled direct buffer it
   * is one memory copy and no garbage.
   */
  private ByteBuf payload(byte[] data) {
    return channel.alloc().buffer(data.length).writeBytes(data);
  }

  @Override
  public boolean trySend(String text) {
    if (state != OPEN || !channel.isWritable()) {
      return false;
    }
    active();
    channel.writeAndFlush(new TextWebSocketFrame(ByteBufUtil.writeUtf8(channel.alloc(), text)), channel.voidPromise());
    return true;
  }

  @Override
  public boolean trySend(byte[] data) {
    if (state != OPEN || !channel.isWritable()) {
      return false;
    }
    active();
    channel.writeAndFlush(new BinaryWebSocketFrame(payload(data)), channel.voidPromise());
    return true;
  }

  @Override
  public void ping(byte[] payload) throws IOException, Suspendable {
    if (payload.length > MAX_CONTROL_PAYLOAD) {
      throw new IllegalArgumentException("payload: " + payload.length + " bytes (expected: <= 125)");
    }
    checkOpen();
    write(new PingWebSocketFrame(Unpooled.wrappedBuffer(payload.clone())));
  }

  private void checkOpen() throws IOException {
    if (state != OPEN || !channel.isActive()) {
      throw new SocketException("WebSocket closed (" + (closeCode == 0 ? ABNORMAL_CLOSURE : closeCode) + "): " + peer());
    }
  }

  /* Writes and flushes a frame (the pipeline owns it), then waits while the send queue is full. */
  private void write(WebSocketFrame frame) throws IOException, Suspendable {
    active();
    channel.writeAndFlush(frame, channel.voidPromise());
    if (!channel.isWritable()) {
      awaitSendQueue();
    }
  }

  private void awaitSendQueue() throws IOException, Suspendable {
    FiberLock lock = sendLock;
    if (lock == null) {
      FiberLock fresh = new FiberLock("websocket send " + peer());
      lock = SEND_LOCK.compareAndSet(this, null, fresh) ? fresh : sendLock;
    }
    lock.lock();
    try {
      awaitWritable(sendTimeoutNanos);
    } catch (SocketTimeoutException e) {
      abort(POLICY_VIOLATION, "not reading");
      throw e;
    } finally {
      lock.unlock();
    }
  }

  @Override
  protected IOException writeRefused(Throwable failure) {
    return new SocketException("WebSocket closed while sending (" + (closeCode == 0 ? ABNORMAL_CLOSURE : closeCode)
        + "): " + peer());
  }

  @Override
  public void close() throws Suspendable {
    close(NORMAL_CLOSURE, "");
  }

  @Override
  public void close(int code, String reason) throws Suspendable {
    checkCode(code);
    byte[] r = reason.getBytes(StandardCharsets.UTF_8);
    if (r.length > MAX_CONTROL_PAYLOAD - 2) {
      throw new IllegalArgumentException("reason: " + r.length + " UTF-8 bytes (expected: <= 123)");
    }
    if (!STATE.compareAndSet(this, OPEN, CLOSING)) {
      return;
    }
    closeCode = code;
    closeReason = reason;
    channel.writeAndFlush(new CloseWebSocketFrame(code, reason), channel.voidPromise());
    channel.read();
    awaitPeerClose();
  }

  /* Waits up to closeTimeout for the peer's answering Close (which closes the connection), then closes. May suspend. */
  private void awaitPeerClose() throws Suspendable {
    Object me = Strand.current();
    ChannelFutureListener wake = f -> Strand.wake(me);
    channel.closeFuture().addListener(wake);
    try {
      long deadline = Strand.deadline(settings.closeTimeout().toNanos());
      while (channel.isActive()) {
        if (!Strand.park(this, deadline)) {
          break;
        }
      }
    } finally {
      channel.closeFuture().removeListener(wake);
      state = CLOSED;
      channel.close();
    }
  }

  static void checkCode(int code) {
    boolean ok = code >= 1000 && code <= 1003 || code >= 1007 && code <= 1011 || code >= 3000 && code <= 4999;
    if (!ok) {
      throw new IllegalArgumentException("code: " + code + " (expected: 1000..1003, 1007..1011 or 3000..4999)");
    }
  }

  /** Ends the socket after its handler returned: a normal close unless it is closed already. May suspend. */
  void finish(Throwable failure) throws Suspendable {
    if (state == OPEN && channel.isActive()) {
      if (failure != null) {
        close(INTERNAL_ERROR, "");
      } else {
        close(NORMAL_CLOSURE, "");
      }
    } else if (state == CLOSING && channel.isActive()) {
      awaitPeerClose(); // the server's going-away Close is out: let the peer answer it
    }
    channel.close();
    closeQueue();
  }

  @Override
  public boolean isOpen() {
    return state == OPEN && channel.isActive();
  }

  @Override
  public int closeCode() {
    return closeCode;
  }

  @Override
  public String closeReason() {
    return closeCode == 0 ? null : closeReason;
  }

  @Override
  public Request request() {
    return request;
  }

  @Override
  public String subprotocol() {
    return subprotocol;
  }

  @Override
  public boolean compressed() {
    return compressed;
  }

  @Override
  public String toString() {
    if (!isOpen()) {
      return "WebSocket[" + peer() + ", closed " + closeCode + "]";
    }
    String t = openText;
    if (t == null) {
      t = "WebSocket[" + peer() + ", open]";
      openText = t;
    }
    return t;
  }
}
