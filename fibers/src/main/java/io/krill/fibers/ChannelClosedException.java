package io.krill.fibers;

/**
 * Thrown by a send on a closed {@link Channel}, and by a receive on a closed channel whose
 * buffer is drained. A sender or receiver parked when the channel closes gets it too.
 */
public final class ChannelClosedException extends IllegalStateException {
  private static final long serialVersionUID = 1L;

  private final String channel;
  private final String operation;

  /**
   * @param channel the channel's name
   * @param operation "send" or "receive"
   */
  public ChannelClosedException(String channel, String operation) {
    super(operation + " on closed channel \"" + channel + "\"");
    this.channel = channel;
    this.operation = operation;
  }

  /** @return the name of the closed channel */
  public String channel() {
    return channel;
  }

  /** @return the operation that failed: "send" or "receive" */
  public String operation() {
    return operation;
  }
}
