/**
 * Continuations, generators and fibers: suspendable code and the runtime that resumes it.
 *
 * <p>The entry classes are {@link io.krill.fibers.Continuation} and
 * {@link io.krill.fibers.Generator}; users mark suspendable methods with
 * {@code throws }{@link io.krill.fibers.Suspendable}. Suspension suspends the calling
 * continuation, never the carrier thread; on a thread that runs no continuation, woven code
 * behaves exactly as unwoven code.
 */
package io.krill.fibers;
