package io.krill.loadtest.servers;

import io.krill.fibers.ExecutionMode;
import io.krill.fibers.Fiber;
import io.krill.fibers.FiberScheduler;
import io.krill.fibers.VirtualThreads;
import io.krill.httpd.Handler;
import io.krill.httpd.HttpServer;
import io.krill.httpd.files.StaticFiles;
import io.krill.httpd.http2.Http2Options;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;

/**
 * httpd in its fiber, virtual and platform modes, serving the same two handlers as
 * the other servers: {@code /hello} answers at once, {@code /slow} first waits 100 ms with
 * {@link Fiber#sleep}, which suspends the fiber in fiber mode and sleeps the thread in the
 * thread modes. Limits are raised for the load test: up to {@value #MAX_CONNECTIONS}
 * connections, and an idle timeout of an hour so the idle scenario's connections stay open.
 */
final class HttpdServers {
  /** Connections httpd accepts at once here (its default is lower). */
  static final int MAX_CONNECTIONS = 20_000;
  /** Idle timeout here: longer than any idle hold of the harness. */
  static final Duration IDLE_TIMEOUT = Duration.ofHours(1);

  /** krill serve's static-file server on one carrier, HTTP/1.1. */
  static final String STATIC = "krill-static";
  /** The same with HTTP/2 too (h2c by prior knowledge or Upgrade), as {@code krill serve --http2}. */
  static final String STATIC_H2 = "krill-static-h2";

  private HttpdServers() {}

  /** A started httpd. */
  interface Started extends AutoCloseable {
    int port();

    @Override
    void close();
  }

  static final Handler HELLO = (req, res) -> {
    res.header("content-type", HelloBytes.CONTENT_TYPE);
    res.send(HelloBytes.BODY);
  };

  static final Handler SLOW = (req, res) -> {
    Fiber.sleep(Duration.ofMillis(HelloBytes.SLOW_MILLIS));
    res.header("content-type", HelloBytes.CONTENT_TYPE);
    res.send(HelloBytes.BODY);
  };

  /** @return why {@code kind} cannot run in this JVM, or null when it can */
  static String unavailable(String kind) {
    if (kind.equals("httpd-virtual") && !VirtualThreads.available()) {
      return VirtualThreads.UNAVAILABLE;
    }
    return null;
  }

  /**
   * Starts what {@code krill serve --root ROOT} starts with its default settings (fiber mode,
   * {@link StaticFiles}' defaults, httpd's default limits), but on one carrier: the comparison is
   * against one nginx worker.
   */
  static Started startStatic(Path root, boolean http2, int backlog) throws IOException {
    FiberScheduler scheduler = FiberScheduler.eventLoop(1);
    HttpServer server = HttpServer.builder().address("127.0.0.1").port(0).scheduler(scheduler).backlog(backlog)
        .http2(http2 ? Http2Options.defaults() : null).fallback(StaticFiles.builder(root).build()).build().start();
    return started(server, scheduler);
  }

  static Started start(String kind, int threads, int backlog) throws IOException {
    ExecutionMode mode = ExecutionMode.valueOf(kind.substring("httpd-".length()).toUpperCase(Locale.ROOT));
    FiberScheduler scheduler = FiberScheduler.eventLoop(threads);
    HttpServer server = HttpServer.builder().address("127.0.0.1").port(0).mode(mode).scheduler(scheduler)
        .backlog(backlog).maxConnections(MAX_CONNECTIONS).idleTimeout(IDLE_TIMEOUT)
        .get(HelloBytes.HELLO, HELLO).get(HelloBytes.SLOW, SLOW).build().start();
    return started(server, scheduler);
  }

  static Started started(HttpServer server, FiberScheduler scheduler) {
    return new Started() {
      @Override
      public int port() {
        return server.port();
      }

      @Override
      public void close() {
        server.close();
        scheduler.close();
      }
    };
  }
}
