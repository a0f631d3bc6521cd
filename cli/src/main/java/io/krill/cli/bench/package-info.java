/**
 * {@code krill bench}: runs the JMH suites of {@code krill-benchmarks} ({@code continuations},
 * {@code fibers}) through JMH's Java API, every competitor in the same run, and writes
 * {@code docs/results/<date>-<suite>.json} and {@code .md} with the ratios and the goals.
 *
 * <p>Entry point: {@link io.krill.cli.bench.BenchCommand}. JMH finds the benchmarks through the
 * list the benchmarks jar carries; they never run in {@code mvn test}. Single-threaded.
 */
package io.krill.cli.bench;
