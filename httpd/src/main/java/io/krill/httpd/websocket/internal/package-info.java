/**
 * The WebSocket implementation behind {@link io.krill.httpd.websocket}: the route that checks
 * and performs the opening handshake on Netty's codec, and the connection handler that is the
 * {@link io.krill.httpd.websocket.WebSocket}. Not API.
 *
 * <p>Threading: the route runs on the upgrading connection's strand; the connection's
 * {@code channel*} methods run on the channel's event loop.
 */
package io.krill.httpd.websocket.internal;
