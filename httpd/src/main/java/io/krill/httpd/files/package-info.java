/**
 * Serves a directory tree over HTTP: conditional requests, byte ranges, content types, gzip for
 * text, zero-copy file transfer, and refusal of every path that would leave the root.
 *
 * <p>The entry class is {@link io.krill.httpd.files.StaticFiles}, whose handler is mounted on an
 * {@link io.krill.httpd.HttpServer} (usually as the fallback). Threading: the handler is
 * immutable and shared by all connections; it runs on each connection's strand, and sending a
 * file may suspend that fiber (file metadata is read on the strand's own thread: local file
 * systems answer in microseconds). Compression never runs on a carrier: gzip is read from a
 * {@code .gz} sibling, compressed once into a cache on the blocking pool, or deflated a slice at
 * a time there.
 */
package io.krill.httpd.files;
