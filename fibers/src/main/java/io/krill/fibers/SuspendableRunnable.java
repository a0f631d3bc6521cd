package io.krill.fibers;

/** A body of code that may suspend: the suspendable counterpart of {@link Runnable}. */
@FunctionalInterface
public interface SuspendableRunnable {
  /**
   * Runs the body.
   *
   * @throws Suspendable never; marks that this method may suspend the calling continuation
   */
  void run() throws Suspendable;
}
