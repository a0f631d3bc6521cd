/**
 * HTTP/2 for {@link io.krill.httpd.HttpServer}: h2 over TLS (chosen by ALPN), h2c with prior
 * knowledge and h2c by {@code Upgrade: h2c}, on Netty's HTTP/2 frame codec. The entry class is {@link io.krill.httpd.http2.Http2Options}
 * ({@code Http2Options.builder()}), given to {@code HttpServer.builder().http2(...)}.
 *
 * <p>Threading: every stream runs the server's {@link io.krill.httpd.Handler} on its own strand
 * (a fiber on the connection's event loop by default, or a virtual or platform thread, as the
 * server's execution mode says); a handler writing faster than the peer's flow-control window
 * parks that strand, never the carrier.
 */
package io.krill.httpd.http2;
