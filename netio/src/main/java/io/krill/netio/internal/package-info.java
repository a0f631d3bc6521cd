/**
 * Netty plumbing of netio: the pipeline handler that hands messages to one reading strand,
 * exception mapping and waiting on futures. Not API.
 *
 * <p>Threading rule: channel events run on the channel's event loop; waiting strands park
 * outside any lock and are woken by the loop.
 */
package io.krill.netio.internal;
