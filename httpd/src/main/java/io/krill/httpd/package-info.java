/**
 * An HTTP/1.1 server that runs every connection as a fiber executing blocking-style
 * {@link io.krill.httpd.Handler} code. The entry class is {@link io.krill.httpd.HttpServer}
 * ({@code HttpServer.builder()}); users implement {@link io.krill.httpd.Handler} and use
 * {@link io.krill.httpd.Request} and {@link io.krill.httpd.Response}.
 *
 * <p>Threading: a connection's requests are served one after another by one strand (a fiber
 * on the channel's event loop by default, or a virtual or platform thread by
 * {@link io.krill.fibers.ExecutionMode}); request and response methods that read or write the
 * network may suspend that fiber, never its carrier, and block the thread off-fiber.
 *
 * <p>Counters: {@link io.krill.httpd.HttpServer#stats()} reads them directly and binds them to
 * any Micrometer registry ({@link io.krill.httpd.HttpServerStats#bindTo}).
 */
package io.krill.httpd;

