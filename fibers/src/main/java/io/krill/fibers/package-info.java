/**
 * Continuations, generators and fibers: suspendable code and the runtime that resumes it.
 *
 * <p>The entry classes are {@link io.krill.fibers.Continuation},
 * {@link io.krill.fibers.Generator}, {@link io.krill.fibers.Fiber} with
 * {@link io.krill.fibers.FiberScheduler}, and the CSP primitives
 * ({@link io.krill.fibers.Channel}, {@link io.krill.fibers.Select},
 * {@link io.krill.fibers.Barrier}, {@link io.krill.fibers.Par}, fiber-aware locks); users mark
 * suspendable methods with
 * {@code throws }{@link io.krill.fibers.Suspendable}. Suspension suspends the calling
 * continuation, never the carrier thread; on a thread that runs no continuation, woven code
 * behaves exactly as unwoven code.
 */
package io.krill.fibers;
