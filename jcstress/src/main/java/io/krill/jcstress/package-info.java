/**
 * jcstress tests of krill's lock-free hand-overs: a value sent on a {@link io.krill.fibers.Channel}
 * is received exactly once, a send racing a close either delivers or fails (never both, never
 * neither), a spin lock excludes and publishes what its holder wrote, a remote unpark racing a
 * fiber's park on its carrier is never lost, a fiber's reused channel waiter delivers each
 * value once, and the rendezvous slot's lock-free hand-off delivers exactly once against a
 * close or a cancellation of the waiting side.
 *
 * <p>Each class is one jcstress test; actors run on plain threads, where krill's primitives
 * behave as ordinary blocking code, and fiber bodies run on an event-loop scheduler (this
 * module's classes are woven like fibers'). Run by the build's {@code jcstress} execution.
 */
package io.krill.jcstress;
