package io.krill.httpd;

import io.krill.fibers.FiberScheduler;
import io.krill.testkit.RawHttp;
import java.io.IOException;
import java.time.Duration;

/** The scheduler httpd tests share, and server builders on it with test-sized deadlines. */
final class TestServers {
  private static final FiberScheduler SCHEDULER = FiberScheduler.eventLoop(2);

  private TestServers() {}

  static FiberScheduler scheduler() {
    return SCHEDULER;
  }

  /** @return a builder on an ephemeral loopback port, the test scheduler and a short shutdown grace */
  static HttpServer.Builder builder() {
    return HttpServer.builder().port(0).scheduler(SCHEDULER).shutdownGrace(Duration.ofSeconds(2));
  }

  /** The handlers most tests route: hello, echo of the body, path parameters, failures. */
  static HttpServer.Builder withTestRoutes(HttpServer.Builder b) {
    return b.get("/hello", (req, res) -> res.send("hello"))
        .post("/echo", (req, res) -> res.send(req.bodyBytes()))
        .get("/users/{id}", (req, res) -> res.send("user " + req.pathParam("id")))
        .get("/fail", (req, res) -> {
          throw new IllegalStateException("boom");
        });
  }

  /** @return a started server with {@link #withTestRoutes} on {@link #builder()} */
  static HttpServer startWithTestRoutes() throws IOException {
    return withTestRoutes(builder()).build().start();
  }

  /** Sends one raw request to a fresh server with the test routes and returns its first response. */
  static RawHttp.Response exchange(String request) throws Exception {
    try (HttpServer server = startWithTestRoutes(); RawHttp c = RawHttp.connect(server.port())) {
      c.send(request);
      return c.read();
    }
  }
}
