/**
 * Asynchronous DNS for fibers: hostname resolution on dnsjava's lookup session with a
 * TTL-honouring cache, the hosts file and metrics.
 *
 * <p>Entry point: {@link io.krill.netio.dns.DnsResolver#builder()}. Threading rule:
 * {@code resolve} suspends the calling fiber, never the carrier thread; off-fiber it blocks
 * the thread.
 */
package io.krill.netio.dns;
