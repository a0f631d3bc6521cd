/**
 * The HTTP servers the load harness compares, each a main class run in its own JVM with a
 * fixed heap: raw async Netty, the classic thread-per-connection {@code ServerSocket} server,
 * and httpd in fiber, virtual and platform mode, all serving the same bytes; and for HTTP/2,
 * httpd and raw Netty's HTTP/2 codec on one carrier each, over h2c and TLS with ALPN.
 *
 * <p>Entry point: {@link io.krill.loadtest.servers.ServerMain}. Each server listens on
 * 127.0.0.1 only, answers {@code /hello} at once and {@code /slow} after 100 ms on a timer
 * (a scheduled task, {@code Thread.sleep}, or {@code Fiber.sleep}), and reports its heap and
 * RSS on the {@code mem} command; handler code runs on the connection's event loop, thread or
 * fiber, never elsewhere.
 */
package io.krill.loadtest.servers;
