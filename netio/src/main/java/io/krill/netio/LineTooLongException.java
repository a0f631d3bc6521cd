package io.krill.netio;

import java.io.IOException;

/** A line read with {@link FiberInput#readLine(int)} is longer than its limit. */
public final class LineTooLongException extends IOException {
  private static final long serialVersionUID = 1L;

  private final String peer;
  private final int maxLength;

  /**
   * @param peer the peer, {@code host:port}
   * @param maxLength the limit that was exceeded
   */
  public LineTooLongException(String peer, int maxLength) {
    super("Line from " + peer + " is longer than " + maxLength + " bytes (maxLength)");
    this.peer = peer;
    this.maxLength = maxLength;
  }

  /** @return the peer, {@code host:port} */
  public String peer() {
    return peer;
  }

  /** @return the limit that was exceeded */
  public int maxLength() {
    return maxLength;
  }
}
