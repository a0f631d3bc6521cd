package io.krill.httpd;

import io.krill.testkit.RawHttp;
import static io.krill.httpd.HttpServer.Builder.DEFAULT_HEADER_READ_TIMEOUT;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The idle timeout, the header-read deadline, and slowloris. */
@Timeout(120)
class TimeoutTest {
  /** @return a started server with the test routes and these two deadlines */
  private static HttpServer start(Duration headerReadTimeout, Duration idleTimeout) throws IOException {
    return TestServers.withTestRoutes(TestServers.builder())
        .headerReadTimeout(headerReadTimeout).idleTimeout(idleTimeout).build().start();
  }

  @Test
  void idleTimeout_silentConnection_closedByServer() throws Exception {
    try (HttpServer server = start(DEFAULT_HEADER_READ_TIMEOUT, Duration.ofMillis(300));
        RawHttp c = RawHttp.connect(server.port())) {
      c.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n");
      assertThat(c.read().status()).isEqualTo(200);
      assertThat(c.closedByServer()).as("closed within the client's read timeout").isTrue();
    }
  }

  @Test
  void headerReadTimeout_headNeverCompletes_answers408AndCloses() throws Exception {
    try (HttpServer server = start(Duration.ofMillis(300), Duration.ofSeconds(60));
        RawHttp c = RawHttp.connect(server.port())) {
      c.send("GET /hello HTTP/1.1\r\nHost: x\r\n");
      RawHttp.Response r = c.read();
      assertThat(r.status()).isEqualTo(408);
      assertThat(r.header("connection")).isEqualTo("close");
      assertThat(c.closedByServer()).isTrue();
    }
  }

  @Test
  void emptyLinesAfterRequest_doNotStartTheHeaderDeadline_idleCloseWithout408() throws Exception {
    try (HttpServer server = start(Duration.ofMillis(200), Duration.ofMillis(1500));
        RawHttp c = RawHttp.connect(server.port())) {
      c.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n\r\n");
      assertThat(c.read().status()).isEqualTo(200);
      assertThat(c.socket().getInputStream().readAllBytes()).as("nothing after the response, then close").isEmpty();
    }
  }

  @Test
  void idleTimeout_bodyStalls_answers408AndCloses() throws Exception {
    try (HttpServer server = start(DEFAULT_HEADER_READ_TIMEOUT, Duration.ofMillis(300));
        RawHttp c = RawHttp.connect(server.port())) {
      c.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\nab");
      RawHttp.Response r = c.read();
      assertThat(r.status()).isEqualTo(408);
      assertThat(c.closedByServer()).isTrue();
    }
  }

  /*
   * Slowloris: 1,000 connections each send one byte of a head every 100 ms. The server must keep
   * serving a normal client quickly, and must end every slow connection at its header-read
   * deadline, although bytes keep coming.
   */
  @Test
  void slowloris_thousandDribblingConnections_normalClientServedAndDribblersCut() throws Exception {
    int slow = 1000;
    try (HttpServer server = TestServers.withTestRoutes(TestServers.builder())
        .headerReadTimeout(Duration.ofSeconds(20)).idleTimeout(Duration.ofSeconds(60)).maxConnections(5000)
        .build().start()) {
      // The normal client's timeout (15 s) ends before the dribblers' header deadline (20 s),
      // so it is served while all 1,000 dribblers still hold their connections.
      List<Socket> dribblers = new ArrayList<>();
      AtomicBoolean stop = new AtomicBoolean();
      Thread dribble = null;
      try {
        for (int i = 0; i < slow; i++) {
          Socket s = new Socket("127.0.0.1", server.port());
          s.setSoTimeout(60_000);
          s.getOutputStream().write("GET /hello HTTP/1.1\r\n".getBytes(StandardCharsets.US_ASCII));
          dribblers.add(s);
        }
        byte[] header = "X-Slow: 1\r\n".getBytes(StandardCharsets.US_ASCII);
        dribble = new Thread(() -> {
          for (int k = 0; !stop.get() && k < 400; k++) {
            for (Socket s : dribblers) {
              try {
                s.getOutputStream().write(header[k % header.length]);
              } catch (IOException e) {
                // closed by the server: expected once the deadline passed
              }
            }
            try {
              Thread.sleep(100);
            } catch (InterruptedException e) {
              return;
            }
          }
        }, "dribbler");
        dribble.start();
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        for (int i = 0; i < 5; i++) {
          HttpResponse<String> r = client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port()
              + "/hello")).timeout(Duration.ofSeconds(15)).build(), HttpResponse.BodyHandlers.ofString());
          assertThat(r.body()).isEqualTo("hello");
        }
        assertThat(server.stats().openConnections()).as("dribblers still connected while the client was served")
            .isGreaterThanOrEqualTo(slow);
        int cut = 0;
        for (Socket s : dribblers) {
          InputStream in = s.getInputStream();
          byte[] start = in.readNBytes(12);
          if (new String(start, StandardCharsets.US_ASCII).equals("HTTP/1.1 408")) {
            cut++;
          }
        }
        assertThat(cut).as("slow connections answered 408").isEqualTo(slow);
      } finally {
        stop.set(true);
        if (dribble != null) {
          dribble.join();
        }
        for (Socket s : dribblers) {
          s.close();
        }
      }
    }
  }
}
