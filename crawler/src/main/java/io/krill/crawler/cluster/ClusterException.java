package io.krill.crawler.cluster;

/**
 * A crawl across machines cannot start or go on: the broker is unreachable, a topic is missing,
 * or the crawl id was started with other settings. The message is one line for the console.
 */
public final class ClusterException extends Exception {
  private static final long serialVersionUID = 1L;

  /** What went wrong, for the exit status. */
  public enum Kind {
    /** The broker could not be reached in time, or stopped answering: exit 1. */
    UNREACHABLE,
    /** The flags disagree with the crawl id's topics or saved settings: a usage error, exit 2. */
    MISMATCH
  }

  private final Kind kind;

  ClusterException(Kind kind, String message, Throwable cause) {
    super(message, cause);
    this.kind = kind;
  }

  /** @return what went wrong */
  public Kind kind() {
    return kind;
  }
}
