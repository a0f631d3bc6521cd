/**
 * Hooks for protocol libraries built on netio (such as httpd), not for application code: the
 * {@link io.krill.netio.spi.ByteSource} and {@link io.krill.netio.spi.ByteSink} that
 * {@link io.krill.netio.FiberInput} and {@link io.krill.netio.FiberOutput} read from and write
 * to. Implementations are called from one strand at a time; {@code take} and
 * {@code awaitWritable} may suspend that fiber, never its carrier.
 */
package io.krill.netio.spi;
