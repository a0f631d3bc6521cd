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
 *
 * <p>It also holds the kernel every krill module shares: {@link io.krill.fibers.Strand} (whoever
 * waits: a fiber or a thread), {@link io.krill.fibers.ExecutionMode},
 * {@link io.krill.fibers.VirtualThreads} (JDK 21+ by reflection), {@link io.krill.fibers.Checks}
 * (argument checks in one format) and {@link io.krill.fibers.SpinLocks}; the last and
 * {@code Strand} are for libraries that build blocking primitives, not for application code.
 *
 * <p>{@link io.krill.fibers.Stack} and {@link io.krill.fibers.Primitive} are the continuation
 * ABI: public because every woven class in every module calls {@code Stack} by name, but for
 * generated code, not API. The runtime behind them (carrier threads, the event-loop and
 * work-stealing schedulers, the carriers' loops, a fiber's home, the runtime verifier) is
 * package-private here rather than in {@code internal}, as Caffeine keeps its cache
 * implementations beside {@code Cache}: it extends and calls {@code FiberScheduler},
 * {@code Fiber} and {@code Stack}, and {@code Stack.current()} reads the carrier thread's stack
 * field directly, so any split into two packages would make them depend on each other or add a
 * cast or a call on every woven method entry. {@code io.krill.fibers.internal} holds only what
 * depends on no other fibers package, and {@code io.krill.fibers.spi} depends on this package,
 * never the reverse.
 */
package io.krill.fibers;
