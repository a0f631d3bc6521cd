package io.krill.httpd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.krill.httpd.websocket.WebSocketMessage;
import io.krill.httpd.websocket.WebSocketRoute;
import io.krill.testkit.RawHttp;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A server that goes quiet collects once, on its own clock, and again only after new activity;
 * a busy one never does; off by default.
 */
@Timeout(60)
class IdleCollectorTest {
  private static final long QUIET = TimeUnit.SECONDS.toNanos(30);

  @Test
  void tick_quietForTheWholeTime_collectsOnce() {
    AtomicInteger runs = new AtomicInteger();
    IdleCollector c = new IdleCollector(QUIET, runs::incrementAndGet);
    assertThat(c.tick(7, 0)).as("the first look only sets the baseline").isFalse();
    assertThat(c.tick(7, QUIET - 1)).isFalse();
    assertThat(c.tick(7, QUIET)).isTrue();
    assertThat(c.tick(7, QUIET + 1)).as("once per quiet period").isFalse();
    assertThat(c.tick(7, 10 * QUIET)).isFalse();
    assertThat(runs).hasValue(1);
    assertThat(c.started()).isEqualTo(1);
  }

  @Test
  void tick_activityAfterACollection_armsItAgain() {
    AtomicInteger runs = new AtomicInteger();
    IdleCollector c = new IdleCollector(QUIET, runs::incrementAndGet);
    c.tick(1, 0);
    assertThat(c.tick(1, QUIET)).isTrue();
    assertThat(c.tick(2, QUIET + 5)).as("activity: the quiet time starts again").isFalse();
    assertThat(c.tick(2, 2 * QUIET)).isFalse();
    assertThat(c.tick(2, 2 * QUIET + 5)).isTrue();
    assertThat(runs).hasValue(2);
  }

  @Test
  void tick_activityWithinEveryQuietTime_neverCollects() {
    AtomicInteger runs = new AtomicInteger();
    IdleCollector c = new IdleCollector(QUIET, runs::incrementAndGet);
    long step = QUIET / 3;
    for (int i = 0; i < 100; i++) { // a request now and then, never a whole quiet time apart
      assertThat(c.tick(i / 2, i * step)).isFalse();
    }
    assertThat(runs).hasValue(0);
  }

  @Test
  void tick_clockNearOverflow_comparesDifferences() {
    AtomicInteger runs = new AtomicInteger();
    IdleCollector c = new IdleCollector(QUIET, runs::incrementAndGet);
    long start = Long.MAX_VALUE - QUIET / 2; // nanoTime may wrap
    c.tick(0, start);
    assertThat(c.tick(0, start + QUIET / 2 + 1)).isFalse();
    assertThat(c.tick(0, start + QUIET)).isTrue();
  }

  @Test
  void server_quietAfterARequest_collectsOnceThenAgainAfterTheNext() throws Exception {
    try (HttpServer server = TestServers.withTestRoutes(TestServers.builder().idleCollection(Duration.ofMillis(300)))
        .build().start();
        RawHttp c = RawHttp.connect(server.port())) {
      c.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n");
      assertThat(c.read().text()).isEqualTo("hello");
      TestServers.awaitCount("the idle collection after the first quiet time", server::idleCollections, 1);
      Thread.sleep(1_000); // three quiet times more, no activity
      assertThat(server.idleCollections()).as("once per quiet period").isEqualTo(1);
      c.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n");
      assertThat(c.read().text()).isEqualTo("hello");
      TestServers.awaitCount("a request armed it again", server::idleCollections, 2);
      c.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n");
      assertThat(c.read().text()).as("the connection outlived the collections").isEqualTo("hello");
    }
  }

  @Test
  void tick_heldOpen_countsAsActivity() {
    AtomicInteger runs = new AtomicInteger();
    IdleCollector c = new IdleCollector(QUIET, runs::incrementAndGet);
    c.tick(1, 0);
    for (int i = 1; i <= 10; i++) { // a WebSocket open for ten quiet times, its frames uncounted
      assertThat(c.tick(1, true, i * QUIET)).isFalse();
    }
    assertThat(c.tick(1, false, 10 * QUIET + 1)).as("closed: the quiet time starts now").isFalse();
    assertThat(c.tick(1, false, 11 * QUIET)).isTrue();
    assertThat(runs).hasValue(1);
  }

  @Test
  void server_webSocketOpen_neverCollectsUntilItCloses() throws Exception {
    HttpClient client = HttpClient.newHttpClient();
    try (HttpServer server = TestServers.builder().idleCollection(Duration.ofMillis(300))
        .get("/ws", WebSocketRoute.of(socket -> {
          for (WebSocketMessage m; (m = socket.receive()) != null; ) {
            socket.send(m.text());
          }
        }))
        .build().start()) {
      WebSocket ws = client.newWebSocketBuilder()
          .buildAsync(URI.create("ws://127.0.0.1:" + server.port() + "/ws"), new WebSocket.Listener() { })
          .get(20, TimeUnit.SECONDS);
      Thread.sleep(1_500); // five quiet times with the socket open and silent
      assertThat(server.idleCollections()).as("a taken-over connection is activity").isZero();
      ws.sendClose(WebSocket.NORMAL_CLOSURE, "done").get(20, TimeUnit.SECONDS);
      TestServers.awaitCount("the idle collection once the socket closed", server::idleCollections, 1);
    }
  }

  @Test
  void server_default_neverCollects() throws Exception {
    assertThat(HttpServer.Builder.DEFAULT_IDLE_COLLECTION).isZero();
    try (HttpServer server = TestServers.withTestRoutes(TestServers.builder()).build().start();
        RawHttp c = RawHttp.connect(server.port())) {
      c.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n");
      assertThat(c.read().text()).isEqualTo("hello");
      Thread.sleep(500);
      assertThat(server.idleCollections()).isZero();
    }
  }

  @Test
  void builder_negativeQuietTime_namesTheField() {
    assertThatThrownBy(() -> HttpServer.builder().idleCollection(Duration.ofSeconds(-1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("idleCollection: ");
  }
}
