/**
 * Benchmarks of the fiber runtime (issue 3): the seed systems' workloads run as krill fibers,
 * as JDK virtual threads and as platform threads, in one run.
 *
 * <p>Each workload is written once, as suspendable code against {@link
 * io.krill.loadtest.fibers.Pipe}; a {@link io.krill.loadtest.fibers.Model} runs it as fibers
 * (where a blocking call suspends the fiber) or on threads (where the same call blocks the
 * thread). JMH classes are named {@code *Benchmark}; {@link io.krill.loadtest.fibers.MaxProcesses}
 * and {@link io.krill.loadtest.fibers.Mandelbrot} are main-class harnesses for the runs too big
 * for JMH, and {@link io.krill.loadtest.fibers.FibersReport} runs everything and writes the report.
 */
package io.krill.loadtest.fibers;
