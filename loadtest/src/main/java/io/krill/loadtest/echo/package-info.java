/**
 * The echo load test of issue #4: round trips per second and latency of four echo servers
 * (fibers on netio, raw Netty, a virtual thread per connection, a platform thread per
 * connection) under a closed-loop load generator, each side in its own JVM.
 *
 * <p>Entry point: {@link io.krill.loadtest.echo.EchoComparison}, run by
 * {@code loadtest/bench/issue4.sh}. It spawns {@link io.krill.loadtest.echo.EchoServerMain} once
 * per server and {@link io.krill.loadtest.echo.EchoClientMain} once per measured cell, and
 * every child exits when its standard input closes. Loopback only: servers listen on
 * 127.0.0.1 and clients bind 127.0.0.2, 127.0.0.3, ... as source addresses.
 */
package io.krill.loadtest.echo;
