package io.krill.httpd;

/**
 * What runs each connection's handler code. The same {@link Handler} runs unchanged in every
 * mode; only the strand beneath it differs.
 */
public enum ExecutionMode {
  /** A fiber per connection on the channel's own event loop (default). */
  FIBER,
  /** A JDK virtual thread per connection; needs JDK 21 or newer, reached by reflection. */
  VIRTUAL,
  /** A platform thread per connection. */
  PLATFORM
}
