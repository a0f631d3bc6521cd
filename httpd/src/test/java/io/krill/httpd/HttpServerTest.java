package io.krill.httpd;

import io.krill.testkit.RawHttp;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Loopback integration tests of the server with the JDK's HTTP client and raw sockets. */
@Timeout(60)
class HttpServerTest {
  private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
      .connectTimeout(Duration.ofSeconds(5)).build();

  private static HttpResponse<String> get(HttpServer server, String path) throws Exception {
    return CLIENT.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
        .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void get_helloRoute_answers200WithBody() throws Exception {
    try (HttpServer server = TestServers.startWithTestRoutes()) {
      HttpResponse<String> r = get(server, "/hello");
      assertThat(r.statusCode()).isEqualTo(200);
      assertThat(r.body()).isEqualTo("hello");
      assertThat(r.headers().firstValue("content-type")).hasValue("text/plain; charset=utf-8");
      assertThat(r.headers().firstValue("date")).isPresent();
      assertThat(server.stats().requests()).isEqualTo(1);
      assertThat(server.stats().responses(2)).isEqualTo(1);
    }
  }

  @Test
  void get_overSeconds_dateFollowsTheClock() throws Exception {
    try (HttpServer server = TestServers.startWithTestRoutes()) {
      for (int i = 0; i < 3; i++) {
        long before = System.currentTimeMillis() / 1000;
        HttpResponse<String> r = get(server, "/hello");
        long after = System.currentTimeMillis() / 1000;
        long date = java.time.ZonedDateTime.parse(r.headers().firstValue("date").orElseThrow(),
            java.time.format.DateTimeFormatter.RFC_1123_DATE_TIME).toEpochSecond();
        // The server takes the value up every sweep (100 ms): at most one second behind, never ahead.
        assertThat(date).as("response %d", i).isBetween(before - 1, after);
        Thread.sleep(700);
      }
    }
  }

  @Test
  void get_pathParameter_isDecoded() throws Exception {
    try (HttpServer server = TestServers.startWithTestRoutes()) {
      assertThat(get(server, "/users/a%20b").body()).isEqualTo("user a b");
    }
  }

  @Test
  void get_unknownPath_answers404() throws Exception {
    try (HttpServer server = TestServers.startWithTestRoutes()) {
      assertThat(get(server, "/nope").statusCode()).isEqualTo(404);
    }
  }

  @Test
  void post_toGetRoute_answers405WithAllow() throws Exception {
    try (HttpServer server = TestServers.startWithTestRoutes()) {
      HttpResponse<String> r = CLIENT.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port()
          + "/hello")).POST(HttpRequest.BodyPublishers.ofString("x")).build(), HttpResponse.BodyHandlers.ofString());
      assertThat(r.statusCode()).isEqualTo(405);
      assertThat(r.headers().firstValue("allow")).hasValue("GET, HEAD");
    }
  }

  @Test
  void post_echo_returnsBody() throws Exception {
    try (HttpServer server = TestServers.startWithTestRoutes()) {
      String big = "x".repeat(100_000);
      HttpResponse<String> r = CLIENT.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port()
          + "/echo")).POST(HttpRequest.BodyPublishers.ofString(big)).build(), HttpResponse.BodyHandlers.ofString());
      assertThat(r.statusCode()).isEqualTo(200);
      assertThat(r.body()).isEqualTo(big);
    }
  }

  @Test
  void handler_throws_answers500AndCounts() throws Exception {
    try (HttpServer server = TestServers.startWithTestRoutes()) {
      assertThat(get(server, "/fail").statusCode()).isEqualTo(500);
      assertThat(server.stats().responses(5)).isEqualTo(1);
    }
  }

  @Test
  void keepAlive_manyRequests_oneConnection() throws Exception {
    try (HttpServer server = TestServers.startWithTestRoutes();
        RawHttp c = RawHttp.connect(server.port())) {
      for (int i = 0; i < 50; i++) {
        c.send("GET /users/" + i + " HTTP/1.1\r\nHost: x\r\n\r\n");
        RawHttp.Response r = c.read();
        assertThat(r.status()).isEqualTo(200);
        assertThat(r.text()).isEqualTo("user " + i);
      }
      assertThat(server.stats().acceptedConnections()).isEqualTo(1);
    }
  }

  @Test
  void builder_zeroHeaderBytes_namesTheSetting() {
    assertThatThrownBy(() -> HttpServer.builder().maxHeaderBytes(0))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("maxHeaderBytes: 0 (expected: > 0)");
  }
}
