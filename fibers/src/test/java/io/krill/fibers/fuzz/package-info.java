/**
 * Differential fuzz testing of the continuation weaver: random programs are generated as Java
 * source, compiled and woven at test time, and run plain and forced to suspend at every point.
 *
 * <p>The entry class is {@link io.krill.fibers.fuzz.ContinuationFuzzTest}. Everything here
 * runs on one test thread at a time.
 */
package io.krill.fibers.fuzz;
