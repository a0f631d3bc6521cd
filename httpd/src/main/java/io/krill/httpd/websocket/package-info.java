/**
 * WebSocket (RFC 6455) endpoints of an {@link io.krill.httpd.HttpServer}, written blocking-style.
 * The entry point is {@link io.krill.httpd.websocket.WebSocketRoute}: routed like any handler
 * ({@code .get("/chat", WebSocketRoute.of(socket -> ...))}), it runs its
 * {@link io.krill.httpd.websocket.WebSocketHandler} once per socket, on the connection's own strand,
 * with a {@link io.krill.httpd.websocket.WebSocket} to {@code receive()} from and {@code send()} to.
 * Limits and options are {@link io.krill.httpd.websocket.WebSocketSettings}. The implementation
 * (Netty's WebSocket codec under netio's connection core) is package-private.
 *
 * <p>Threading: the handler runs on the connection's strand (a fiber on the channel's event loop
 * by default, or a virtual or platform thread, as the server's {@link io.krill.fibers.ExecutionMode}
 * says). {@code receive()} is for that strand; {@code send()}, {@code trySend()} and
 * {@code close()} may be called from any strand. Methods that wait suspend the calling fiber,
 * never its carrier, and block the thread off-fiber.
 */
package io.krill.httpd.websocket;
