package io.krill.loadtest.servers;

/**
 * httpd (issue 5) in its fiber, virtual and platform modes, serving the same two handlers as
 * the other servers. httpd is not in this build yet, so every httpd kind reports itself
 * unavailable; the harness prints that as the rows' reason.
 */
final class HttpdServers {
  private HttpdServers() {}

  /** A started httpd. */
  interface Started extends AutoCloseable {
    int port();

    @Override
    void close();
  }

  /** @return why {@code kind} cannot run in this JVM, or null when it can */
  static String unavailable(String kind) {
    return "httpd is not in this build yet (issue 5; " + kind + " not measured)";
  }

  static Started start(String kind, int threads, int backlog) {
    throw new UnsupportedOperationException(unavailable(kind));
  }
}
