package io.krill.fibers;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a hand-written suspension primitive: a method declared {@code throws Suspendable}
 * that implements the capture/restore protocol itself and must not be woven.
 *
 * <p><b>For generated code, not API.</b> Part of the continuation ABI: the weaver recognizes it by
 * name and leaves such methods alone. For the runtime's own primitives only; user code never
 * needs it.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface Primitive {}
