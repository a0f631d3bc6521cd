/**
 * The runtime behind continuations: the frame store that woven code calls, carrier threads
 * and runtime verification. For generated code and the runtime itself, not API.
 */
package io.krill.fibers.internal;
