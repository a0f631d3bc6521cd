/**
 * Compiles, weaves and loads Java sources at test time, for the tests whose subjects are
 * generated rather than written: the fuzz programs, the serialization workloads and the large
 * corpus frames.
 */
package io.krill.fibers.testing;
