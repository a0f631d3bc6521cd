package io.krill.httpd;

import io.krill.testkit.RawHttp;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.krill.fibers.Fiber;
import io.krill.fibers.FiberCountDownLatch;
import java.net.ConnectException;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Graceful shutdown: stop accepting, finish what is in flight, close the rest. */
@Timeout(60)
class ShutdownTest {
  @Test
  void shutdown_requestsInFlight_allAnsweredWithCloseThenRefusesConnections() throws Exception {
    int inFlight = 20;
    CountDownLatch entered = new CountDownLatch(inFlight);
    HttpServer server = TestServers.withTestRoutes(TestServers.builder()).get("/slow", (req, res) -> {
      entered.countDown();
      Fiber.sleep(Duration.ofMillis(500));
      res.send("done");
    }).build().start();
    int port = server.port();
    List<RawHttp> clients = new ArrayList<>();
    RawHttp idle = RawHttp.connect(port);
    try {
      idle.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n");
      assertThat(idle.read().status()).isEqualTo(200);
      for (int i = 0; i < inFlight; i++) {
        RawHttp c = RawHttp.connect(port);
        c.send("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n");
        clients.add(c);
      }
      assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();
      Thread stopper = new Thread(() -> server.shutdown(Duration.ofSeconds(10)));
      stopper.start();
      assertThat(idle.closedByServer()).as("an idle keep-alive connection is closed at once").isTrue();
      for (RawHttp c : clients) {
        RawHttp.Response r = c.read();
        assertThat(r.status()).isEqualTo(200);
        assertThat(r.text()).isEqualTo("done");
        assertThat(r.header("connection")).isEqualTo("close");
        assertThat(c.closedByServer()).isTrue();
      }
      stopper.join(15_000);
      assertThat(stopper.isAlive()).isFalse();
      assertThat(server.stats().openConnections()).isZero();
      assertThatThrownBy(() -> new Socket("127.0.0.1", port).close()).isInstanceOf(ConnectException.class);
    } finally {
      idle.close();
      for (RawHttp c : clients) {
        c.close();
      }
      server.close();
    }
  }

  /* The handler holds until the test releases it: a shutdown that waited for it past the grace would hang (@Timeout). */
  @Test
  void shutdown_graceExceeded_closesConnectionsAndReturnsWithoutTheHandler() throws Exception {
    CountDownLatch entered = new CountDownLatch(1);
    FiberCountDownLatch release = FiberCountDownLatch.create(1);
    HttpServer server = TestServers.builder().get("/stuck", (req, res) -> {
      entered.countDown();
      release.await();
      res.send("late");
    }).build().start();
    try (RawHttp c = RawHttp.connect(server.port())) {
      c.send("GET /stuck HTTP/1.1\r\nHost: x\r\n\r\n");
      assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();
      server.shutdown(Duration.ofMillis(200));
      assertThat(release.getCount()).as("the handler is still held").isEqualTo(1);
      assertThat(c.closedByServer()).isTrue();
      assertThat(server.stats().openConnections()).isZero();
    } finally {
      release.countDown(); // the handler wakes, finds its connection closed, and ends
    }
  }
}
