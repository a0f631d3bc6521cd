/**
 * How the harness's child-JVM mains read their command lines: picocli into an annotated object,
 * {@code --help} answered, a bad line reported as one {@code failed: ...} line with status 2.
 *
 * <p>Entry point: {@link io.krill.loadtest.launch.Mains}. Used by the servers, the generators
 * and the benchmarks' harness mains; depends on nothing else in loadtest.
 */
package io.krill.loadtest.launch;
