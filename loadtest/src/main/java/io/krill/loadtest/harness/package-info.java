/**
 * The load-test harness: runs the scenarios (hello, pipelined, slow-handler, idle,
 * echo, h2-hello, websocket-echo, static, crawl) with every server and every load generator in its own JVM, interleaves the
 * variants with fresh JVMs per cell, and writes {@code report.md}, {@code results.json} and
 * XChart PNG charts per scenario under {@code docs/results/}.
 *
 * <p>Entry point: {@link io.krill.loadtest.harness.LoadtestCommand} ({@code krill loadtest}),
 * whose settings are one schema ({@code LoadtestSettings}). {@link
 * io.krill.loadtest.harness.RunEnvironment} and {@link io.krill.loadtest.harness.Json} are shared
 * with {@code krill bench}. Threading: the harness is single-threaded plain Java; it never
 * suspends and never runs load in its own JVM.
 */
package io.krill.loadtest.harness;
