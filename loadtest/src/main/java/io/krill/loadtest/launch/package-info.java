/**
 * How krill's commands read their command lines: picocli options derived from a config schema
 * ({@link io.krill.loadtest.launch.SchemaOptions}, for {@code krill loadtest} and
 * {@code krill serve}), and the child-JVM mains' picocli parsing, {@code --help} answered and a
 * bad line reported as one {@code failed: ...} line with status 2
 * ({@link io.krill.loadtest.launch.Mains}).
 *
 * <p>Depends on nothing else in loadtest. Stateless; thread-safe.
 */
package io.krill.loadtest.launch;
