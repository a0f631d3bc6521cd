package io.krill.fibers;

/**
 * The marker of a method that may suspend: declare {@code throws Suspendable} on it.
 *
 * <p>It is a checked exception so that javac propagates the marking: every caller must either
 * declare it too or fail to compile. It is never thrown. krill's weaver rewrites each marked
 * method into a resumable state machine and rejects the shapes javac lets through (a caller
 * that hides the marking behind {@code throws Exception}, a suspendable lambda for an interface
 * whose method is not marked, suspension under {@code synchronized}, in a constructor or in a
 * static initializer, and overrides whose marking disagrees).
 */
public final class Suspendable extends Exception {
  private static final long serialVersionUID = 1L;

  private Suspendable() {
    super("never thrown", null, false, false);
  }
}
