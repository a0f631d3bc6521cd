/**
 * The corpus of suspendable shapes: each case runs on the thread, in a continuation that never
 * suspends and in one forced to suspend at every {@link io.krill.fibers.corpus.Points} call,
 * and must give the same result in each {@link io.krill.fibers.corpus.Mode}. Every woven class
 * is also checked by ASM's verifier. The corpus shares static state and does not run in parallel.
 */
package io.krill.fibers.corpus;
