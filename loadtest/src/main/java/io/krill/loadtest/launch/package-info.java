/**
 * How the child-JVM mains read their command lines: picocli parsing, {@code --help} answered and
 * a bad line reported as one {@code failed: ...} line with status 2
 * ({@link io.krill.loadtest.launch.Mains}).
 *
 * <p>Depends on nothing else in loadtest. Stateless; thread-safe.
 */
package io.krill.loadtest.launch;
