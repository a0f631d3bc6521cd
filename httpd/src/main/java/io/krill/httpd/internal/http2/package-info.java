/**
 * The HTTP/2 machinery behind {@link io.krill.httpd.http2.Http2Options}: choosing the protocol
 * of a new connection (ALPN, the h2c preface, {@code Upgrade: h2c}), Netty's frame codec with
 * the options' limits, the CONTINUATION flood guard, and the per-connection stream table whose
 * stream objects carry the server's HTTP/1-shaped exchange without a channel per stream. Not
 * API. The entry class is {@link io.krill.httpd.internal.http2.Http2Pipeline}.
 *
 * <p>Threading: everything here runs on the connection's event loop, but for a stream's
 * strand-side methods (any thread; off the loop their writes hop onto it); streams share
 * their connection's loop.
 */
package io.krill.httpd.internal.http2;
