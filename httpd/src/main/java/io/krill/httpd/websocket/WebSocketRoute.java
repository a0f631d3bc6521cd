package io.krill.httpd.websocket;

import io.krill.fibers.FiberCancelledException;
import io.krill.fibers.Strand;
import io.krill.fibers.Suspendable;
import io.krill.httpd.Request;
import io.krill.httpd.Response;
import io.krill.httpd.UpgradeHandler;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.DefaultHttpHeadersFactory;
import io.netty.handler.codec.http.EmptyHttpHeaders;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.websocketx.Utf8FrameValidator;
import io.netty.handler.codec.http.websocketx.WebSocketDecoderConfig;
import io.netty.handler.codec.http.websocketx.WebSocketFrameAggregator;
import io.netty.handler.codec.http.websocketx.WebSocketServerHandshaker;
import io.netty.handler.codec.http.websocketx.WebSocketServerHandshakerFactory;
import io.netty.handler.codec.http.websocketx.extensions.WebSocketExtensionData;
import io.netty.handler.codec.http.websocketx.extensions.WebSocketExtensionUtil;
import io.netty.handler.codec.http.websocketx.extensions.WebSocketServerExtension;
import io.netty.handler.codec.http.websocketx.extensions.compression.PerMessageDeflateServerExtensionHandshaker;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A WebSocket endpoint as an httpd route: the entry point of this package. Route it like any
 * handler, with {@code GET} and a path pattern:
 *
 * <pre>{@code
 * HttpServer.builder().port(8080)
 *     .get("/echo", WebSocketRoute.of(socket -> {
 *       for (WebSocketMessage m; (m = socket.receive()) != null; ) {
 *         socket.send(m.text());
 *       }
 *     }))
 *     .build().start();
 * }</pre>
 *
 * <p>A request to the route that is a valid opening handshake (RFC 6455 section 4.2.1) becomes a
 * WebSocket on Netty's codec, served by the {@link WebSocketHandler} on the connection's strand
 * (in the server's execution mode); anything else gets 400, a WebSocket version other than 13
 * gets 426, an origin not allowed 403. Immutable; thread-safe.
 */
public final class WebSocketRoute implements UpgradeHandler {
  /*
   * Implementation notes.
   *
   * The handshake runs on the strand that served the upgrade request, inside that request's
   * exchange, so the handler runs in the server's execution mode with no new strand, and the
   * request (path parameters, headers) stays readable. Netty's handshaker swaps the HTTP decoder
   * for the frame decoder before it writes the 101, so no byte after the request is read as HTTP;
   * the HTTP connection handler is swapped for a WebSocketConnection at the end of the pipeline
   * at the same time. The HTTP connection object stays registered with the server: its close
   * listener still counts the connection closed, and shutdown still closes the channel.
   *
   * permessage-deflate is negotiated here with Netty's extension handshaker (what its
   * WebSocketServerCompressionHandler does, without a handler in every HTTP connection's
   * pipeline); the inflater's allowance is maxMessageBytes, so a compression bomb ends in 1009.
   *
   * Netty's decoders only report protocol violations (closeOnProtocolViolation off): the
   * connection answers every one the same way, a Close with the violation's code, then closes.
   *
   * Inbound after the upgrade: frame decoder (frame size) -> deflate decoder -> UTF-8 validator
   * -> aggregator (message size; absent with whole messages off) -> idle timer -> connection.
   */
  private static final Logger LOG = LoggerFactory.getLogger(WebSocketRoute.class);
  /** deflate level: zlib's default trades speed for size where chat-sized messages gain most. */
  private static final int DEFLATE_LEVEL = 6;

  private final WebSocketSettings settings;
  private final WebSocketHandler handler;
  private final WebSocketDecoderConfig decoderConfig;
  private final String subprotocols;

  private WebSocketRoute(WebSocketSettings settings, WebSocketHandler handler) {
    this.settings = Objects.requireNonNull(settings, "settings");
    this.handler = Objects.requireNonNull(handler, "handler");
    this.decoderConfig = WebSocketDecoderConfig.newBuilder()
        .maxFramePayloadLength(settings.maxFrameBytes())
        .allowExtensions(settings.compression())
        .expectMaskedFrames(true)
        .closeOnProtocolViolation(false) // the connection sends the Close (1002, 1009) itself
        .build();
    this.subprotocols = settings.subprotocols().isEmpty() ? null : String.join(",", settings.subprotocols());
  }

  /**
   * @param handler serves each socket
   * @return a route with {@link WebSocketSettings#defaults()}
   */
  public static WebSocketRoute of(WebSocketHandler handler) {
    return new WebSocketRoute(WebSocketSettings.defaults(), handler);
  }

  /**
   * @param settings the sockets' limits and options
   * @param handler serves each socket
   * @return the route
   */
  public static WebSocketRoute of(WebSocketSettings settings, WebSocketHandler handler) {
    return new WebSocketRoute(settings, handler);
  }

  /** @return the sockets' limits and options */
  public WebSocketSettings settings() {
    return settings;
  }

  /** Reached only by a server that does not upgrade connections: answers 426. */
  @Override
  public void handle(Request request, Response response) throws Exception, Suspendable {
    response.status(426).header("Upgrade", "websocket").send("426 Upgrade Required\n");
  }

  /**
   * Answers a bad handshake through {@code response}, or upgrades the connection and runs the
   * handler until the socket closes. Called by the server, not by applications. May suspend.
   */
  @Override
  public boolean upgrade(Request request, Response response, Channel channel, HttpRequest head,
      String connectionHandler) throws Exception, Suspendable {
    String refusal = refusal(request);
    if (refusal != null) {
      response.status(400).send("400 Bad Request: " + refusal + "\n");
      return false;
    }
    if (!"13".equals(request.header("Sec-WebSocket-Version"))) {
      response.status(426).header("Sec-WebSocket-Version", "13").header("Upgrade", "websocket")
          .send("426 Upgrade Required: Sec-WebSocket-Version 13\n");
      return false;
    }
    String origin = request.header("Origin");
    if (origin != null && !settings.allowedOrigins().isEmpty()
        && !settings.allowedOrigins().contains(origin.toLowerCase(Locale.ROOT))) {
      response.status(403).send("403 Forbidden: origin " + origin + " may not open this WebSocket\n");
      return false;
    }
    WebSocketServerHandshaker handshaker =
        new WebSocketServerHandshakerFactory(request.uri(), subprotocols, decoderConfig).newHandshaker(head);
    WebSocketConnection socket = new WebSocketConnection(channel, request, settings);
    WebSocketServerExtension deflate = settings.compression() ? deflate(request) : null;
    HttpHeaders extra = null;
    if (deflate != null) {
      extra = DefaultHttpHeadersFactory.headersFactory().newHeaders();
      extra.set(HttpHeaderNames.SEC_WEBSOCKET_EXTENSIONS, format(deflate.newReponseData()));
    }
    ChannelPipeline p = channel.pipeline();
    channel.config().setWriteBufferWaterMark(
        new WriteBufferWaterMark(settings.sendQueueBytes() / 2, settings.sendQueueBytes()));
    p.replace(connectionHandler, "websocket", socket);
    p.addBefore("websocket", "ws-rules", new FrameRules(deflate != null));
    if (deflate != null) {
      p.addBefore("websocket", "ws-deflate-decoder", deflate.newExtensionDecoder());
      p.addBefore("websocket", "ws-deflate-encoder", deflate.newExtensionEncoder());
    }
    p.addBefore("websocket", "ws-utf8", new Utf8FrameValidator(false));
    if (settings.wholeMessages()) {
      p.addBefore("websocket", "ws-aggregator", new WebSocketFrameAggregator(settings.maxMessageBytes()));
    }
    socket.watchIdle();
    DefaultFullHttpRequest full = new DefaultFullHttpRequest(head.protocolVersion(), head.method(), head.uri(),
        Unpooled.EMPTY_BUFFER, head.headers(), EmptyHttpHeaders.INSTANCE);
    ChannelFuture done = handshaker.handshake(channel, full, extra, channel.newPromise());
    await(done);
    if (!done.isSuccess()) {
      LOG.debug("websocket handshake with {} failed: {}", channel.remoteAddress(), String.valueOf(done.cause()));
      channel.close();
      return true;
    }
    socket.agreed(handshaker.selectedSubprotocol(), deflate != null);
    serve(socket);
    return true;
  }

  private void serve(WebSocketConnection socket) throws Suspendable {
    Throwable failure = null;
    try {
      handler.handle(socket);
    } catch (FiberCancelledException e) {
      failure = e;
      throw e;
    } catch (Throwable t) {
      failure = t;
      if (socket.isOpen()) {
        LOG.error("websocket handler failed: {} {}", socket.request().uri(), socket.peer(), t);
      } else {
        LOG.debug("websocket handler ended on a closed socket: {} {}: {}", socket.request().uri(), socket.peer(),
            t.toString());
      }
    } finally {
      if (failure instanceof FiberCancelledException) {
        socket.channel().close();
      } else {
        socket.finish(failure);
      }
    }
  }

  /* @return why the request is no WebSocket opening handshake (RFC 6455 section 4.2.1), or null */
  private static String refusal(Request request) {
    if (!"GET".equals(request.method())) {
      return "a WebSocket handshake is a GET, not " + request.method();
    }
    if (!"HTTP/1.1".equals(request.protocol())) {
      return "a WebSocket handshake needs HTTP/1.1";
    }
    if (!hasToken(request.headers("Upgrade"), "websocket")) {
      return "expected Upgrade: websocket";
    }
    if (!hasToken(request.headers("Connection"), "upgrade")) {
      return "expected Connection: Upgrade";
    }
    String key = request.header("Sec-WebSocket-Key");
    if (key == null) {
      return "expected Sec-WebSocket-Key";
    }
    try {
      if (Base64.getDecoder().decode(key.trim()).length != 16) {
        return "Sec-WebSocket-Key is not 16 bytes in base64";
      }
    } catch (IllegalArgumentException e) {
      return "Sec-WebSocket-Key is not base64";
    }
    return null;
  }

  private static boolean hasToken(List<String> values, String token) {
    for (String v : values) {
      for (String t : v.split(",")) {
        if (t.trim().equalsIgnoreCase(token)) {
          return true;
        }
      }
    }
    return false;
  }

  /* The first permessage-deflate offer Netty's handshaker accepts, or null. */
  private WebSocketServerExtension deflate(Request request) {
    String offers = request.header("Sec-WebSocket-Extensions");
    if (offers == null) {
      return null;
    }
    PerMessageDeflateServerExtensionHandshaker hs = new PerMessageDeflateServerExtensionHandshaker(
        DEFLATE_LEVEL, false, PerMessageDeflateServerExtensionHandshaker.MAX_WINDOW_SIZE, false, false,
        settings.maxMessageBytes());
    try {
      for (WebSocketExtensionData offer : WebSocketExtensionUtil.extractExtensions(offers)) {
        WebSocketServerExtension agreed = hs.handshakeExtension(offer);
        if (agreed != null) {
          return agreed;
        }
      }
    } catch (RuntimeException e) {
      LOG.debug("ignoring malformed Sec-WebSocket-Extensions {}: {}", offers, e.toString());
    }
    return null;
  }

  /* The extension's response parameters as a Sec-WebSocket-Extensions value (RFC 6455 section 9.1). */
  private static String format(WebSocketExtensionData data) {
    StringBuilder b = new StringBuilder(data.name());
    for (Map.Entry<String, String> e : data.parameters().entrySet()) {
      b.append("; ").append(e.getKey());
      if (e.getValue() != null) {
        b.append('=').append(e.getValue());
      }
    }
    return b.toString();
  }

  /* Parks until the future completes; it does once the 101 is written or the connection is gone. */
  private static void await(ChannelFuture f) throws Suspendable {
    if (f.isDone()) {
      return;
    }
    Object me = Strand.current();
    f.addListener(x -> Strand.wake(me));
    while (!f.isDone()) {
      Strand.park(f);
    }
  }
}
