/**
 * The HTTP/2 machinery behind {@link io.krill.httpd.http2.Http2Options}: choosing the protocol
 * of a new connection (ALPN, the h2c preface, {@code Upgrade: h2c}), Netty's frame codec and
 * multiplex handler with the options' limits, the CONTINUATION flood guard, and the codec
 * that lets a stream channel carry the server's HTTP/1-shaped exchange. Not API. The entry
 * class is {@link io.krill.httpd.internal.http2.Http2Pipeline}.
 *
 * <p>Threading: everything here runs on the connection's event loop; stream channels share
 * their connection's loop.
 */
package io.krill.httpd.internal.http2;
