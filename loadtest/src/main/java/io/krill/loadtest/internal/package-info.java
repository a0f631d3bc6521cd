/**
 * Plumbing shared by krill's benchmarks: a worker thread that runs batches handed to it by the
 * JMH thread, and reflective access to JDK 21+ virtual threads from code compiled for Java 17.
 *
 * <p>Not API. {@link io.krill.loadtest.internal.BatchWorker} hands one batch at a time to its
 * thread and blocks the caller until the batch is done.
 */
package io.krill.loadtest.internal;
