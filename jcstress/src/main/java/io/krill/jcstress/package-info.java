/**
 * jcstress tests of krill's lock-free hand-overs: a value sent on a {@link io.krill.fibers.Channel}
 * is received exactly once, a send racing a close either delivers or fails (never both, never
 * neither), and a spin lock excludes and publishes what its holder wrote.
 *
 * <p>Each class is one jcstress test; actors run on plain threads, where krill's primitives
 * behave as ordinary blocking code. Run by the build's {@code jcstress} execution.
 */
package io.krill.jcstress;
