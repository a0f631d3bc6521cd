/**
 * Plumbing of the benchmarks: a worker thread that runs batches handed to it by the JMH thread,
 * and the heap and resident-set readings of the heap-counting mains ({@link io.krill.benchmarks.internal.Heap}).
 *
 * <p>Not API. {@link io.krill.benchmarks.internal.BatchWorker} hands one batch at a time to its
 * thread and blocks the caller until the batch is done.
 */
package io.krill.benchmarks.internal;
