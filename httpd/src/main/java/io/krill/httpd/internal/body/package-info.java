/**
 * What the static-file handler asks of a response beyond the {@link io.krill.httpd.Response}
 * API: whether a file body would be copied through the JVM (TLS, HTTP/2) and, then, sending
 * bytes the file cache holds in memory instead of reading the file again. Not API.
 *
 * <p>Threading: as {@link io.krill.httpd.Response}, the connection's strand only.
 */
package io.krill.httpd.internal.body;
