package io.krill.httpd.websocket;

import io.krill.fibers.Suspendable;

/**
 * Serves one WebSocket from its opening handshake to its close, blocking-style.
 *
 * <pre>{@code
 * WebSocketHandler echo = socket -> {
 *   for (WebSocketMessage m; (m = socket.receive()) != null; ) {
 *     socket.send(m.text());
 *   }
 * };
 * }</pre>
 *
 * <p>Threading: runs on the connection's strand; handlers are shared by all sockets of a route
 * and must be thread-safe.
 */
@FunctionalInterface
public interface WebSocketHandler {
  /**
   * Serves {@code socket}. May suspend. When this returns the socket is closed with 1000 (normal
   * closure) unless it was closed already; an exception closes it with 1011 (internal error) and
   * is logged once.
   *
   * @param socket the open socket
   * @throws Exception anything; the socket closes with 1011
   * @throws Suspendable never; marks that this method suspends
   */
  void handle(WebSocket socket) throws Exception, Suspendable;
}
