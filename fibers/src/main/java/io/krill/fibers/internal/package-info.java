/**
 * What the fibers runtime needs below its own packages: {@link io.krill.fibers.internal.CarrierIo}
 * (which Netty I/O handler the carriers run) and {@link io.krill.fibers.internal.CarrierAccess}
 * (how {@code io.krill.fibers.spi} reaches the package-private carriers). Depends on no other
 * fibers package. Not API; other modules never import it.
 */
package io.krill.fibers.internal;
