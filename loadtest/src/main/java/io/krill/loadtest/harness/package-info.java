/**
 * The load-test harness: runs the scenarios (hello, pipelined, slow-handler, idle,
 * echo, crawl) with every server and every load generator in its own JVM, interleaves the
 * variants with fresh JVMs per cell, and writes {@code report.md}, {@code results.json} and
 * XChart PNG charts per scenario; also the 2-core JMH runner behind {@code krill bench}.
 *
 * <p>Entry points: {@link io.krill.loadtest.harness.LoadtestCommand} ({@code krill loadtest})
 * and {@link io.krill.loadtest.harness.JmhSuite} ({@code krill bench [pattern]}). Threading:
 * the harness is single-threaded plain Java; it never suspends and never runs load in its own
 * JVM.
 */
package io.krill.loadtest.harness;
