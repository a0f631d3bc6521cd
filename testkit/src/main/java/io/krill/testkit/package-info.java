/**
 * Test support shared by every krill module: the one invariants extension and its
 * {@link io.krill.testkit.Invariant} SPI, Netty's leak detector for tests, a test HTTP server, a
 * raw HTTP/1.1 client, a test DNS server and {@link io.krill.testkit.TestTools}, which installs the
 * Debian tools tests drive (nginx, wrk, nghttp, Chromium) through {@code bin/install-test-tools.sh},
 * and {@link io.krill.testkit.Browser}, a headless Chromium session on them.
 *
 * <p>Used at test scope only, and depends on no krill module (the fibers module's tests use it
 * too). {@link io.krill.testkit.InvariantsExtension} is registered through
 * {@code META-INF/services} and JUnit's extension autodetection, which the parent build turns
 * on; a module adds its own checks by listing {@link io.krill.testkit.Invariant} implementations
 * in its test resources' {@code META-INF/services/io.krill.testkit.Invariant}. The servers serve
 * from their own threads and bind loopback addresses only.
 */
package io.krill.testkit;
