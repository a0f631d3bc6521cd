/**
 * {@code krill bench}: runs the JMH suites ({@code continuations}, {@code fibers}) through JMH's
 * Java API, every competitor in the same run, and writes {@code docs/results/<date>-<suite>.json}
 * and {@code .md}.
 *
 * <p>Entry point: {@link io.krill.benchmarks.BenchCommand}. The benchmarks themselves live in
 * {@code io.krill.benchmarks.continuations} and {@code io.krill.benchmarks.fibers}; they never
 * run in {@code mvn test}.
 */
package io.krill.benchmarks;
