package io.krill.fibers;

/**
 * A computation that returns a value and may suspend: the suspendable counterpart of
 * {@link java.util.concurrent.Callable}.
 *
 * @param <T> the result type
 */
@FunctionalInterface
public interface SuspendableCallable<T> {
  /**
   * Computes the result.
   *
   * @return the result
   * @throws Exception if the computation fails
   * @throws Suspendable never; marks that this method may suspend the calling continuation
   */
  T call() throws Exception, Suspendable;
}
