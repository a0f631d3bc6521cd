/**
 * Benchmarks of the fiber runtime: the seed systems' workloads run as krill fibers, as JDK
 * virtual threads and as platform threads, in one run.
 *
 * <p>Each workload is written once, as suspendable code against {@link
 * io.krill.benchmarks.fibers.Pipe}; a {@link io.krill.benchmarks.fibers.Model} runs it as fibers
 * (where a blocking call suspends the fiber) or on threads (where the same call blocks the
 * thread). JMH classes are named {@code *Benchmark} and take the competitor as a {@code @Param};
 * {@code krill bench fibers} runs them. {@link io.krill.benchmarks.fibers.MaxProcesses}
 * and {@link io.krill.benchmarks.fibers.Mandelbrot} are main-class harnesses for the runs too
 * big for JMH.
 */
package io.krill.benchmarks.fibers;
