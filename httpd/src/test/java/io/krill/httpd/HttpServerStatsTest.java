package io.krill.httpd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(60)
class HttpServerStatsTest {
  private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
      .connectTimeout(Duration.ofSeconds(10)).build();

  private static int get(HttpServer server, String path) throws Exception {
    return CLIENT.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
        .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString()).statusCode();
  }

  @Test
  void bindTo_registry_metersReadTheServersCounters() throws Exception {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    try (HttpServer server = TestServers.startWithTestRoutes()) {
      server.stats().bindTo(registry);
      assertThat(get(server, "/hello")).isEqualTo(200);
      assertThat(get(server, "/fail")).isEqualTo(500);
      assertThat(registry.get("httpd.requests").functionCounter().count()).isEqualTo(2);
      assertThat(registry.get("httpd.responses").tag("status", "2xx").functionCounter().count()).isEqualTo(1);
      assertThat(registry.get("httpd.responses").tag("status", "5xx").functionCounter().count()).isEqualTo(1);
      assertThat(registry.get("httpd.responses").tag("status", "4xx").functionCounter().count()).isZero();
      assertThat(registry.get("httpd.connections.accepted").functionCounter().count())
          .isEqualTo(server.stats().acceptedConnections()).isPositive();
      assertThat(registry.get("httpd.connections.open").gauge().value()).isEqualTo(server.stats().openConnections());
      assertThat(registry.get("httpd.bytes.out").functionCounter().count()).isEqualTo(server.stats().bytesOut()).isPositive();
      assertThat(registry.get("httpd.bytes.in").functionCounter().getId().getBaseUnit()).isEqualTo("bytes");
    }
  }

  @Test
  void withTags_twoServersOneRegistry_keptApart() throws Exception {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    try (HttpServer a = TestServers.startWithTestRoutes();
        HttpServer b = TestServers.startWithTestRoutes()) {
      a.stats().withTags(Tags.of("server", "a")).bindTo(registry);
      b.stats().withTags(Tags.of("server", "b")).bindTo(registry);
      assertThat(get(a, "/hello")).isEqualTo(200);
      assertThat(registry.get("httpd.requests").tag("server", "a").functionCounter().count()).isEqualTo(1);
      assertThat(registry.get("httpd.requests").tag("server", "b").functionCounter().count()).isZero();
    }
  }

  /* A cell takes plain adds from its owner only: another thread's adds to it go to the shared counts, none lost. */
  @Test
  void cell_ownerAndOtherThreadAddAtOnce_sumIsExact() throws Exception {
    HttpServerStats stats = new HttpServerStats();
    int n = 200_000;
    java.util.concurrent.CountDownLatch made = new java.util.concurrent.CountDownLatch(1);
    HttpServerStats.Cell[] cell = new HttpServerStats.Cell[1];
    Thread owner = new Thread(() -> {
      cell[0] = stats.cell();
      made.countDown();
      for (int i = 0; i < n; i++) {
        cell[0].count(HttpServerStats.REQUESTS, 1);
        stats.response(cell[0], 200);
      }
    });
    owner.start();
    made.await();
    for (int i = 0; i < n; i++) {
      cell[0].count(HttpServerStats.REQUESTS, 1);
      stats.add(null, HttpServerStats.BYTES_OUT, 2);
    }
    owner.join();
    assertThat(stats.requests()).isEqualTo(2L * n);
    assertThat(stats.responses(2)).isEqualTo(n);
    assertThat(stats.bytesOut()).isEqualTo(2L * n);
    assertThat(stats.cell()).as("the test thread's own cell").isNotSameAs(cell[0]);
  }

  @Test
  void responses_statusClassOutOfRange_namesIt() throws Exception {
    try (HttpServer server = TestServers.startWithTestRoutes()) {
      assertThatThrownBy(() -> server.stats().responses(6)).hasMessage("statusClass: 6 (expected: 1..5)");
    }
  }
}
