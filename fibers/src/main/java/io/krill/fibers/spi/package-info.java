/**
 * Building blocks for libraries that implement blocking primitives on fibers (I/O, protocol
 * connections); not for application code. {@link io.krill.fibers.spi.SpinLocks} guards sections
 * that never park.
 */
package io.krill.fibers.spi;

