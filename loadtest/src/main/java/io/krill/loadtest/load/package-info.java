/**
 * The load generator: HTTP/1.1 keep-alive (optionally pipelined) or raw TCP echo, in a closed
 * loop, an open loop at a constant rate with coordinated-omission-corrected latency (as wrk2),
 * or holding idle connections; latencies in HdrHistogram, every error counted by kind.
 *
 * <p>Entry points: {@link io.krill.loadtest.load.LoadGenerator} (in-process) and
 * {@link io.krill.loadtest.load.LoadMain} (its own JVM, as the harness runs it), configured by
 * {@link io.krill.loadtest.load.LoadSpec}, which refuses any target outside loopback.
 * Threading: one fiber per connection on the run's own event-loop scheduler, all I/O through
 * netio; the public methods block their caller and never suspend.
 */
package io.krill.loadtest.load;
