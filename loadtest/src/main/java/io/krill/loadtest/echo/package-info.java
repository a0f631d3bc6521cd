/**
 * The echo servers and client of the {@code echo} scenario: round trips per second and latency
 * of four echo servers (fibers on netio, raw Netty, a virtual thread per connection, a platform
 * thread per connection) under a closed-loop raw-Netty client, each side in its own JVM.
 *
 * <p>{@code krill loadtest --scenario echo} spawns {@link io.krill.loadtest.echo.EchoServerMain}
 * once per server and {@link io.krill.loadtest.echo.EchoClientMain} once per measured cell, and
 * every child exits when its standard input closes. Loopback only: servers listen on 127.0.0.1
 * and clients bind 127.0.0.2, 127.0.0.3, ... as source addresses.
 *
 * <p>The WebSocket echo of the {@code websocket-echo} scenario lives here too:
 * {@link io.krill.loadtest.echo.WebSocketEchoServerMain} (httpd's route with a fiber or a virtual
 * thread per socket, or raw Netty's WebSocket handler) and
 * {@link io.krill.loadtest.echo.WebSocketEchoClientMain} (raw Netty, a closed loop per socket).
 */
package io.krill.loadtest.echo;
