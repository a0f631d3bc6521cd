/**
 * The console's implementation: the snapshot's JSON form, the pusher and the assets; not API.
 *
 * <p>Threading: {@link io.krill.console.internal.Pusher} owns one platform thread; the rest is
 * stateless or thread-safe.
 */
package io.krill.console.internal;
