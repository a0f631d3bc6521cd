package io.krill.fibers;

/** Every fiber is parked and nothing can wake any of them; the message lists who waits on what. */
public final class DeadlockException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** @param report the deadlock report */
  public DeadlockException(String report) {
    super(report);
  }
}
