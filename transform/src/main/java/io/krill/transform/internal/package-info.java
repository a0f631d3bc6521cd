/**
 * The weaver's implementation: class-header lookup, analysis and rewriting. Not API.
 *
 * <p>{@link io.krill.transform.internal.ClassWeaver} checks and weaves a class;
 * {@link io.krill.transform.internal.MethodWeaver} holds the state-machine layout;
 * {@code StackEntries} gives statically bound woven methods a second entry that takes the
 * caller's stack.
 */
package io.krill.transform.internal;
