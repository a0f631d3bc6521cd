package io.krill.httpd;

import io.krill.testkit.RawHttp;
import static org.assertj.core.api.Assertions.assertThat;

import io.krill.fibers.ExecutionMode;
import io.krill.fibers.Fiber;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * An idle keep-alive connection in fiber mode gives up its fiber after a while and gets a fresh
 * one when its next bytes arrive; the timeouts, eviction, half-close and shutdown still hold.
 */
@Timeout(60)
class IdleStrandTest {
  private static final String GET = "GET /hello HTTP/1.1\r\nHost: x\r\n\r\n";
  /* Shorter than the default, so the tests need not idle for seconds. */
  private static final Duration DELAY = Duration.ofMillis(300);

  private static HttpServer.Builder builder() {
    return TestServers.builder().idleStrandDelay(DELAY);
  }

  @Test
  void idleConnection_afterTheInterval_fiberEndsAndTheNextRequestGetsAFreshOne() throws Exception {
    List<Fiber> fibers = new CopyOnWriteArrayList<>();
    try (HttpServer server = builder()
        .get("/who", (req, res) -> {
          fibers.add(Fiber.current());
          res.send("ok");
        }).build().start();
        RawHttp c = RawHttp.connect(server.port())) {
      c.send("GET /who HTTP/1.1\r\nHost: x\r\n\r\n");
      assertThat(c.read().status()).isEqualTo(200);
      awaitStrandless(server, 1);
      // the fiber marks the connection strandless just before it returns: its end follows
      TestServers.awaitCount("the idle connection's fiber ended", () -> fibers.get(0).isDone() ? 1 : 0, 1);
      assertThat(server.stats().openConnections()).isEqualTo(1);
      c.send("GET /who HTTP/1.1\r\nHost: x\r\n\r\n");
      assertThat(c.read().text()).isEqualTo("ok");
      assertThat(fibers).hasSize(2);
      assertThat(fibers.get(1)).isNotNull().isNotSameAs(fibers.get(0));
      assertThat(server.strandlessConnections()).isZero();
    }
  }

  @Test
  void freshConnection_noFiberUntilItsFirstRequest() throws Exception {
    // An idle strand would retire only after a minute: a strandless fresh connection is the accept path's doing.
    try (HttpServer server = TestServers.withTestRoutes(TestServers.builder().idleStrandDelay(Duration.ofMinutes(1)))
        .build().start();
        RawHttp c = RawHttp.connect(server.port())) {
      awaitStrandless(server, 1);
      assertThat(server.stats().openConnections()).isEqualTo(1);
      c.send(GET);
      assertThat(c.read().text()).isEqualTo("hello");
      assertThat(server.strandlessConnections()).as("the first request started a fiber, which waits for the next").isZero();
      c.send(GET);
      assertThat(c.read().text()).isEqualTo("hello");
      assertThat(server.stats().acceptedConnections()).isEqualTo(1);
    }
  }

  @Test
  void strandless_headArrivesInPieces_answered() throws Exception {
    try (HttpServer server = TestServers.withTestRoutes(builder()).build().start(); RawHttp c = RawHttp.connect(server.port())) {
      awaitStrandless(server, 1); // a fresh connection idles too
      c.send("GET /hello HT");
      Thread.sleep(50);
      c.send("TP/1.1\r\nHo");
      Thread.sleep(50);
      c.send("st: x\r\n\r\n");
      assertThat(c.read().text()).isEqualTo("hello");
    }
  }

  @Test
  void strandless_emptyLinesOnly_stayStrandlessAndServeTheNextRequest() throws Exception {
    try (HttpServer server = TestServers.withTestRoutes(builder()).build().start(); RawHttp c = RawHttp.connect(server.port())) {
      c.send(GET);
      assertThat(c.read().status()).isEqualTo(200);
      awaitStrandless(server, 1);
      c.send("\r\n\r\n");
      Thread.sleep(100);
      c.send(GET);
      assertThat(c.read().text()).isEqualTo("hello");
    }
  }

  @Test
  void strandless_idleTimeout_closedByServer() throws Exception {
    try (HttpServer server = TestServers.withTestRoutes(builder())
        .idleTimeout(Duration.ofMillis(2500)).build().start();
        RawHttp c = RawHttp.connect(server.port())) {
      c.send(GET);
      assertThat(c.read().status()).isEqualTo(200);
      awaitStrandless(server, 1);
      assertThat(c.closedByServer()).as("closed at the idle timeout").isTrue();
      awaitOpen(server, 0);
    }
  }

  @Test
  void strandless_headBegunThenStalls_408AtTheHeaderReadTimeout() throws Exception {
    try (HttpServer server = TestServers.withTestRoutes(builder())
        .headerReadTimeout(Duration.ofMillis(300)).build().start();
        RawHttp c = RawHttp.connect(server.port())) {
      c.send(GET);
      assertThat(c.read().status()).isEqualTo(200);
      awaitStrandless(server, 1);
      c.send("GET /hello HTTP/1.1\r\n");
      RawHttp.Response r = c.read();
      assertThat(r.status()).isEqualTo(408);
      assertThat(c.closedByServer()).isTrue();
    }
  }

  @Test
  void strandless_clientHalfCloses_serverClosesAndForgetsIt() throws Exception {
    try (HttpServer server = TestServers.withTestRoutes(builder()).build().start(); RawHttp c = RawHttp.connect(server.port())) {
      c.send(GET);
      assertThat(c.read().status()).isEqualTo(200);
      awaitStrandless(server, 1);
      c.socket().shutdownOutput();
      assertThat(c.closedByServer()).isTrue();
      awaitOpen(server, 0);
    }
  }

  @Test
  void strandless_serverShutsDown_closedAtOnce() throws Exception {
    HttpServer server = TestServers.withTestRoutes(builder())
        .shutdownGrace(Duration.ofSeconds(30)).build().start();
    try (RawHttp c = RawHttp.connect(server.port())) {
      c.send(GET);
      assertThat(c.read().status()).isEqualTo(200);
      awaitStrandless(server, 1);
      long start = System.nanoTime();
      server.close();
      assertThat(System.nanoTime() - start).as("idle connections do not wait out the grace")
          .isLessThan(Duration.ofSeconds(20).toNanos());
      assertThat(c.closedByServer()).isTrue();
    }
  }

  @Test
  void maxConnections_strandlessIdleOnes_oldestEvictedAndNewClientServed() throws Exception {
    try (HttpServer server = TestServers.withTestRoutes(builder()).maxConnections(2).build().start();
        RawHttp oldest = RawHttp.connect(server.port())) {
      oldest.send(GET);
      assertThat(oldest.read().status()).isEqualTo(200);
      awaitStrandless(server, 1);
      try (RawHttp newer = RawHttp.connect(server.port())) {
        newer.send(GET);
        assertThat(newer.read().status()).isEqualTo(200);
        awaitStrandless(server, 2);
        try (RawHttp third = RawHttp.connect(server.port())) {
          third.send(GET);
          assertThat(third.read().status()).isEqualTo(200);
          assertThat(oldest.closedByServer()).as(server.stats().toString()).isTrue();
        }
        newer.send(GET);
        assertThat(newer.read().status()).as("the newer idle connection stays").isEqualTo(200);
      }
      assertThat(server.stats().evictedConnections()).isEqualTo(1);
    }
  }

  @Test
  void strandless_pipelinedRequestsAndABody_allAnsweredInOrder() throws Exception {
    try (HttpServer server = TestServers.withTestRoutes(builder()).build().start(); RawHttp c = RawHttp.connect(server.port())) {
      c.send(GET);
      assertThat(c.read().status()).isEqualTo(200);
      awaitStrandless(server, 1);
      c.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nabcde"
          + "GET /users/7 HTTP/1.1\r\nHost: x\r\n\r\n" + GET);
      assertThat(c.read().text()).isEqualTo("abcde");
      assertThat(c.read().text()).isEqualTo("user 7");
      assertThat(c.read().text()).isEqualTo("hello");
      awaitStrandless(server, 1);
      c.send("GET /nope HTTP/1.1\r\nHost: x\r\n\r\n");
      assertThat(c.read().status()).isEqualTo(404);
      assertThat(server.stats().bytesIn()).as("bytes counted once although they pass the pipeline twice: " + server.stats())
          .isEqualTo(2L * GET.length() + 51 + 5 + 34 + 31);
    }
  }

  @Test
  void strandless_malformedHead_400AndClosed() throws Exception {
    try (HttpServer server = TestServers.withTestRoutes(builder()).build().start(); RawHttp c = RawHttp.connect(server.port())) {
      c.send(GET);
      assertThat(c.read().status()).isEqualTo(200);
      awaitStrandless(server, 1);
      c.send("GET /hello HTTP/1.1\r\nHost: x\r\n bad: fold\r\n\r\n");
      assertThat(c.read().status()).isEqualTo(400);
      assertThat(c.closedByServer()).isTrue();
    }
  }

  @Test
  void strandlessOverTls_nextRequestAnswered() throws Exception {
    TestServers.SelfSigned cert = TestServers.selfSigned();
    try (HttpServer server = TestServers.withTestRoutes(builder()).tls(cert.tls()).build().start()) {
      java.net.http.HttpClient client = java.net.http.HttpClient.newBuilder().sslContext(cert.client())
          .version(java.net.http.HttpClient.Version.HTTP_1_1).build();
      java.net.http.HttpRequest get = java.net.http.HttpRequest.newBuilder(
          java.net.URI.create("https://127.0.0.1:" + server.port() + "/hello")).timeout(Duration.ofSeconds(10)).build();
      assertThat(client.send(get, java.net.http.HttpResponse.BodyHandlers.ofString()).body()).isEqualTo("hello");
      awaitStrandless(server, 1);
      assertThat(client.send(get, java.net.http.HttpResponse.BodyHandlers.ofString()).body()).isEqualTo("hello");
      assertThat(server.stats().acceptedConnections()).as("the same connection, kept alive").isEqualTo(1);
    }
  }

  @Test
  void platformMode_idleConnection_keepsItsThread() throws Exception {
    try (HttpServer server = TestServers.withTestRoutes(builder()).mode(ExecutionMode.PLATFORM)
        .build().start();
        RawHttp c = RawHttp.connect(server.port())) {
      c.send(GET);
      assertThat(c.read().status()).isEqualTo(200);
      LimitsTest.awaitIdle(server, 1);
      Thread.sleep(DELAY.toMillis() + 3 * ServerCore.SWEEP_MILLIS);
      assertThat(server.strandlessConnections()).isZero();
      c.send(GET);
      assertThat(c.read().text()).isEqualTo("hello");
    }
  }

  private static void awaitStrandless(HttpServer server, int n) throws InterruptedException {
    TestServers.awaitCount("strandless connections", server::strandlessConnections, n);
  }

  private static void awaitOpen(HttpServer server, int n) throws InterruptedException {
    LimitsTest.awaitOpen(server, n);
  }
}
