/**
 * The continuation benchmarks of issue 2: suspend+resume against virtual threads and a
 * hand-written state machine, the cost of a woven call that does not suspend, and heap per
 * suspended continuation.
 *
 * <p>JMH runs {@link io.krill.loadtest.continuations.SuspendResumeBenchmark} and
 * {@link io.krill.loadtest.continuations.NonSuspendingCallBenchmark};
 * {@link io.krill.loadtest.continuations.SuspendedHeap} is a plain main that measures heap;
 * {@link io.krill.loadtest.continuations.ContinuationsReport} runs all of them and writes the
 * report. Measured loops run on a worker thread (a krill carrier thread unless stated), which
 * the JMH thread hands one batch at a time.
 */
package io.krill.loadtest.continuations;
