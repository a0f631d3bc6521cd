/**
 * Makes blocking-style methods resumable: an ASM weaver for methods declared
 * {@code throws Suspendable}.
 *
 * <p>The entry class is {@link io.krill.transform.Weaver} ({@code bytes -> bytes}); the build
 * uses {@link io.krill.transform.WeaverMain} on {@code target/classes}, and
 * {@link io.krill.transform.WeavingAgent} weaves at load time. The weaver only reads class
 * files and never loads user classes; a weaver instance is thread-safe.
 */
package io.krill.transform;
