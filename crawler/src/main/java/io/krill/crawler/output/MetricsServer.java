package io.krill.crawler.output;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.function.Supplier;

/**
 * Serves {@code GET /metrics} in the OpenMetrics text format on 127.0.0.1, for
 * {@code --metrics-port}. The JDK's small HTTP server is enough for one scraper; it answers
 * on its own thread.
 */
public final class MetricsServer implements AutoCloseable {
  private final HttpServer server;

  /**
   * Starts serving.
   *
   * @param port the port, 0 for any free one
   * @param body makes the exposition text (ending with {@code # EOF})
   * @throws IOException if the port cannot be bound
   */
  public MetricsServer(int port, Supplier<String> body) throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 16);
    server.createContext("/metrics", ex -> {
      byte[] b;
      int status;
      if (!ex.getRequestMethod().equals("GET")) {
        status = 405;
        b = "method not allowed\n".getBytes(StandardCharsets.UTF_8);
      } else {
        status = 200;
        b = body.get().getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().set("Content-Type", CrawlMetrics.CONTENT_TYPE);
      }
      ex.sendResponseHeaders(status, b.length);
      try (OutputStream o = ex.getResponseBody()) {
        o.write(b);
      }
    });
    server.start();
  }

  /** @return the bound port */
  public int port() {
    return server.getAddress().getPort();
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
