package io.krill.httpd;

import io.krill.fibers.FiberScheduler;
import io.krill.testkit.RawHttp;
import java.io.IOException;
import java.time.Duration;
import java.util.function.IntSupplier;
import static org.assertj.core.api.Assertions.assertThat;

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

  /** Waits at most 10 s for {@code count} to reach {@code n}, then asserts that it did. */
  static void awaitCount(String what, IntSupplier count, int n) throws InterruptedException {
    long deadline = System.nanoTime() + 10_000_000_000L;
    while (count.getAsInt() != n && System.nanoTime() < deadline) {
      Thread.sleep(5);
    }
    assertThat(count.getAsInt()).as(what).isEqualTo(n);
  }

  /** A self-signed certificate for 127.0.0.1: the server's TLS and a client context that trusts it. */
  record SelfSigned(io.krill.netio.Tls tls, javax.net.ssl.SSLContext client) {}

  static SelfSigned selfSigned() throws Exception {
    io.netty.pkitesting.X509Bundle cert = new io.netty.pkitesting.CertificateBuilder().subject("CN=localhost")
        .addSanIpAddress("127.0.0.1").addExtendedKeyUsageServerAuth().setIsCertificateAuthority(true)
        .buildSelfSigned();
    javax.net.ssl.SSLContext ssl = javax.net.ssl.SSLContext.getInstance("TLS");
    ssl.init(null, cert.toTrustManagerFactory().getTrustManagers(), null);
    return new SelfSigned(io.krill.netio.Tls.server(cert.getKeyPair().getPrivate(), cert.getCertificatePath()), ssl);
  }

  /** Sends one raw request to a fresh server with the test routes and returns its first response. */
  static RawHttp.Response exchange(String request) throws Exception {
    try (HttpServer server = startWithTestRoutes(); RawHttp c = RawHttp.connect(server.port())) {
      c.send(request);
      return c.read();
    }
  }
}
