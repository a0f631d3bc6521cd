/**
 * Hooks for I/O libraries built on fibers, not for application code: {@link
 * io.krill.fibers.spi.Carriers} shows the carriers' Netty event loops, so a library can put a
 * channel on the loop of the fiber that uses it.
 */
package io.krill.fibers.spi;
