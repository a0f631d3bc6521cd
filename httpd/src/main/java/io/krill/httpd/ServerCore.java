package io.krill.httpd;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;

/** The running server: listening channel, open connections, shutdown. */
final class ServerCore {
  static ServerCore start(HttpServer.Builder config, HttpServerStats stats) throws IOException {
    throw new UnsupportedOperationException("httpd: not implemented yet");
  }

  InetSocketAddress localAddress() {
    throw new UnsupportedOperationException("httpd: not implemented yet");
  }

  void shutdown(Duration grace) {
    throw new UnsupportedOperationException("httpd: not implemented yet");
  }
}
