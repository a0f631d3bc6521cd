package io.krill.httpd.websocket;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;

/**
 * One message received on a {@link WebSocket}: text, binary data, or a pong. With
 * {@link WebSocketSettings.Builder#wholeMessages(boolean) wholeMessages} off it is one frame of a
 * message instead, and {@link #last()} says whether the message ends with it. Immutable.
 */
public final class WebSocketMessage {
  /** What a message carries. */
  public enum Kind {
    /** UTF-8 text ({@link #text()}). */
    TEXT,
    /** Binary data ({@link #bytes()}). */
    BINARY,
    /** The answer to a {@link WebSocket#ping(byte[])}, or the peer's unsolicited heartbeat. */
    PONG
  }

  private final Kind kind;
  private final byte[] data;
  private final boolean last;
  private String text;

  /**
   * @param kind what the payload is
   * @param data the payload; kept, not copied, so the caller must not change it afterwards
   * @param last false for a frame that a continuation follows
   */
  public WebSocketMessage(Kind kind, byte[] data, boolean last) {
    this.kind = Objects.requireNonNull(kind, "kind");
    this.data = Objects.requireNonNull(data, "data");
    this.last = last;
  }

  /** @return what the message carries */
  public Kind kind() {
    return kind;
  }

  /** @return true for a text message */
  public boolean isText() {
    return kind == Kind.TEXT;
  }

  /** @return the payload decoded as UTF-8 (the codec has validated text messages) */
  public String text() {
    String t = text;
    if (t == null) {
      t = new String(data, StandardCharsets.UTF_8);
      text = t;
    }
    return t;
  }

  /** @return a copy of the payload */
  public byte[] bytes() {
    return data.clone();
  }

  /** @return the payload's length in bytes */
  public int length() {
    return data.length;
  }

  /** @return false if this is a frame of a message that continues (only with whole messages off) */
  public boolean last() {
    return last;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof WebSocketMessage && ((WebSocketMessage) o).kind == kind && ((WebSocketMessage) o).last == last
        && Arrays.equals(((WebSocketMessage) o).data, data);
  }

  @Override
  public int hashCode() {
    return kind.hashCode() * 31 + Arrays.hashCode(data);
  }

  @Override
  public String toString() {
    return kind + (last ? "" : " (continues)") + " " + data.length + " bytes";
  }
}
