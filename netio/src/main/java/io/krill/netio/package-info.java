/**
 * Split-phase network I/O for fibers on Netty: blocking-style sockets whose reads, writes,
 * connects and accepts park the calling fiber instead of a thread.
 *
 * <p>Entry points: {@link io.krill.netio.FiberSocket#connect} and
 * {@link io.krill.netio.FiberServerSocket#bind}, configured by
 * {@link io.krill.netio.SocketOptions}; bytes through {@link io.krill.netio.FiberInput} and
 * {@link io.krill.netio.FiberOutput}, messages through {@link io.krill.netio.MessageSocket}.
 *
 * <p>Threading rule: every blocking call suspends the calling fiber, never the carrier
 * thread; called from a platform or virtual thread, it blocks that thread instead. Sockets
 * live on the fiber scheduler's event loops, and a connection served with
 * {@link io.krill.netio.FiberServerSocket#serve} runs its fiber on its own channel's loop.
 *
 * <p>Protocol libraries that bootstrap their own channels (httpd) use
 * {@link io.krill.netio.Transport}'s group and channel classes and build their connection
 * handler on the connection core in {@code io.krill.netio.spi}.
 */
package io.krill.netio;
