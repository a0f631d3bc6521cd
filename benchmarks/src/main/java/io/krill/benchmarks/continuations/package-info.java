/**
 * Continuation benchmarks: suspend and resume against virtual threads and a hand-written state
 * machine, the cost of a woven call that does not suspend, and heap per suspended continuation.
 *
 * <p>JMH runs {@link io.krill.benchmarks.continuations.SuspendResumeBenchmark} and
 * {@link io.krill.benchmarks.continuations.NonSuspendingCallBenchmark} (through {@code krill bench
 * continuations}); {@link io.krill.benchmarks.continuations.SuspendedHeap} is a plain main
 * that measures heap. Measured loops run on a worker thread (a krill carrier thread unless
 * stated), which the JMH thread hands one batch at a time.
 */
package io.krill.benchmarks.continuations;
