package io.krill.fibers;

import java.util.concurrent.CancellationException;

/**
 * Thrown from a parking call (park, sleep, join, channel operations, ...) of a fiber that was
 * cancelled; its {@code finally} blocks run as the exception unwinds.
 */
public final class FiberCancelledException extends CancellationException {
  private static final long serialVersionUID = 1L;

  /** @param fiber the cancelled fiber's name */
  public FiberCancelledException(String fiber) {
    super("fiber cancelled: " + fiber);
  }
}
