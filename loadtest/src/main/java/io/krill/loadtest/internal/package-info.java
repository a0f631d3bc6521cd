/**
 * Plumbing of the load harness: child JVMs, their lifetime, report helpers, and reflective
 * access to JDK 21+ virtual threads from code compiled for Java 17.
 *
 * <p>Not API.
 */
package io.krill.loadtest.internal;
