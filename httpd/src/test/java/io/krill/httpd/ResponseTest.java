package io.krill.httpd;

import io.krill.testkit.RawHttp;
import static org.assertj.core.api.Assertions.assertThat;

import io.krill.fibers.ExecutionMode;
import io.krill.netio.FiberOutput;
import io.krill.netio.Tls;
import io.netty.pkitesting.CertificateBuilder;
import io.netty.pkitesting.X509Bundle;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Responses written whole, streamed, from files and over TLS; the request as handlers see it. */
@Timeout(60)
class ResponseTest {
  @TempDir
  Path dir;

  @Test
  void headerNames_handlerAndServerNames_allWrittenInLowerCase() throws Exception {
    HttpServer.Builder b = TestServers.builder().get("/h", (req, res) -> res.header("X-Request-Id", "7")
        .header("Content-Type", "text/plain").addHeader("Cache-Control", "no-store").addHeader("ETag", "\"1\"")
        .send("ok"));
    try (HttpServer server = b.build().start(); java.net.Socket s = new java.net.Socket("127.0.0.1", server.port())) {
      s.setSoTimeout(10_000);
      s.getOutputStream().write("GET /h HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
          .getBytes(StandardCharsets.US_ASCII));
      String response = new String(s.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
      String head = response.substring(0, response.indexOf("\r\n\r\n"));
      assertThat(head.split("\r\n")).contains("x-request-id: 7", "content-type: text/plain",
          "cache-control: no-store", "etag: \"1\"", "content-length: 2", "connection: close");
      assertThat(head.split("\r\n")).allSatisfy(line -> assertThat(line.substring(0, Math.max(0, line.indexOf(':'))))
          .isLowerCase());
    }
  }

  @Test
  void output_noContentLength_streamsChunked() throws Exception {
    HttpServer.Builder b = TestServers.builder().get("/stream", (req, res) -> {
      FiberOutput out = res.header("Content-Type", "text/plain").output();
      for (int i = 0; i < 1000; i++) {
        out.writeUtf8("line " + i + "\n");
      }
    });
    try (HttpServer server = b.build().start(); RawHttp c = RawHttp.connect(server.port())) {
      c.send("GET /stream HTTP/1.1\r\nHost: x\r\n\r\n");
      RawHttp.Response r = c.read();
      assertThat(r.header("transfer-encoding")).isEqualTo("chunked");
      assertThat(r.text()).startsWith("line 0\n").endsWith("line 999\n").hasLineCount(1000);
      c.send("GET /stream HTTP/1.1\r\nHost: x\r\n\r\n");
      assertThat(c.read().text()).hasLineCount(1000);
    }
  }

  @Test
  void output_http10Client_bodyEndsWithConnection() throws Exception {
    HttpServer.Builder b = TestServers.builder().get("/stream", (req, res) -> res.output().writeUtf8("ten bytes!"));
    try (HttpServer server = b.build().start(); RawHttp c = RawHttp.connect(server.port())) {
      c.send("GET /stream HTTP/1.0\r\nConnection: keep-alive\r\n\r\n");
      RawHttp.Response r = c.read();
      assertThat(r.header("connection")).isEqualTo("close");
      assertThat(r.header("transfer-encoding")).isNull();
      assertThat(r.text()).isEqualTo("ten bytes!");
    }
  }

  @Test
  void output_headRequest_sendsHeadOnly() throws Exception {
    HttpServer.Builder b = TestServers.builder().get("/stream", (req, res) -> res.output().writeUtf8("body"));
    try (HttpServer server = b.build().start(); RawHttp c = RawHttp.connect(server.port())) {
      c.send("HEAD /stream HTTP/1.1\r\nHost: x\r\n\r\n");
      assertThat(c.read(true).status()).isEqualTo(200);
      c.send("GET /stream HTTP/1.1\r\nHost: x\r\n\r\n");
      assertThat(c.read().text()).isEqualTo("body");
    }
  }

  @Test
  void handler_throwsAfterCommit_connectionClosed() throws Exception {
    HttpServer.Builder b = TestServers.builder().get("/half", (req, res) -> {
      res.output().writeUtf8("partial");
      res.output().flush();
      throw new IllegalStateException("failed half way");
    });
    try (HttpServer server = b.build().start(); RawHttp c = RawHttp.connect(server.port())) {
      c.send("GET /half HTTP/1.1\r\nHost: x\r\n\r\n");
      byte[] all = c.socket().getInputStream().readAllBytes();
      String text = new String(all, StandardCharsets.ISO_8859_1);
      assertThat(text).startsWith("HTTP/1.1 200 OK").contains("partial").doesNotContain("\r\n0\r\n\r\n");
    }
  }

  @Test
  void sendFile_range_sendsExactBytes() throws Exception {
    Path file = dir.resolve("data.bin");
    byte[] data = new byte[3 * 1024 * 1024 + 7];
    for (int i = 0; i < data.length; i++) {
      data[i] = (byte) (i * 31);
    }
    Files.write(file, data);
    HttpServer.Builder b = TestServers.builder()
        .get("/all", (req, res) -> res.sendFile(file, 0, data.length))
        .get("/part", (req, res) -> res.sendFile(file, 1000, 5000));
    try (HttpServer server = b.build().start(); RawHttp c = RawHttp.connect(server.port())) {
      c.send("GET /all HTTP/1.1\r\nHost: x\r\n\r\n");
      assertThat(c.read().body()).isEqualTo(data);
      c.send("GET /part HTTP/1.1\r\nHost: x\r\n\r\n");
      assertThat(c.read().body()).isEqualTo(java.util.Arrays.copyOfRange(data, 1000, 6000));
      assertThat(server.stats().bytesOut()).isGreaterThan(data.length + 5000L);
    }
  }

  @Test
  void tls_getAndSendFile_servedOverTls() throws Exception {
    X509Bundle root = new CertificateBuilder().subject("CN=krill test root").setIsCertificateAuthority(true)
        .buildSelfSigned();
    X509Bundle leaf = new CertificateBuilder().subject("CN=localhost").addSanDnsName("localhost")
        .addSanIpAddress("127.0.0.1").addExtendedKeyUsageServerAuth().buildIssuedBy(root);
    Path file = dir.resolve("page.txt");
    Files.writeString(file, "x".repeat(100_000));
    HttpServer.Builder b = TestServers.builder()
        .tls(Tls.server(leaf.getKeyPair().getPrivate(), leaf.getCertificatePath()))
        .get("/secure", (req, res) -> res.send("secure=" + req.secure()))
        .get("/file", (req, res) -> res.sendFile(file, 0, Files.size(file)));
    try (HttpServer server = b.build().start()) {
      SSLContext ssl = SSLContext.getInstance("TLS");
      ssl.init(null, root.toTrustManagerFactory().getTrustManagers(), null);
      HttpClient client = HttpClient.newBuilder().sslContext(ssl).version(HttpClient.Version.HTTP_1_1).build();
      HttpResponse<String> r = client.send(HttpRequest.newBuilder(URI.create("https://localhost:" + server.port()
          + "/secure")).timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
      assertThat(r.body()).isEqualTo("secure=true");
      HttpResponse<String> f = client.send(HttpRequest.newBuilder(URI.create("https://localhost:" + server.port()
          + "/file")).timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
      assertThat(f.body()).hasSize(100_000);
    }
  }

  @Test
  void expectContinue_bodyRead_sends100ThenResponse() throws Exception {
    try (HttpServer server = TestServers.startWithTestRoutes();
        RawHttp c = RawHttp.connect(server.port())) {
      c.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nExpect: 100-continue\r\n\r\n");
      assertThat(c.read().status()).isEqualTo(100);
      c.send("hello");
      RawHttp.Response r = c.read();
      assertThat(r.status()).isEqualTo(200);
      assertThat(r.text()).isEqualTo("hello");
    }
  }

  @Test
  void expectContinue_bodyNotRead_noContinueAndClosed() throws Exception {
    RawHttp.Response r =
        TestServers.exchange("POST /hello HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nExpect: 100-continue\r\n\r\n");
    assertThat(r.status()).isEqualTo(405);
    assertThat(r.header("connection")).isEqualTo("close");
  }

  @Test
  void expect_unknownExpectation_answers417() throws Exception {
    assertThat(TestServers.exchange("GET /hello HTTP/1.1\r\nHost: x\r\nExpect: tea\r\n\r\n").status()).isEqualTo(417);
  }

  @Test
  void request_accessors_reflectTheRequest() throws Exception {
    AtomicReference<String> seen = new AtomicReference<>();
    HttpServer.Builder b = TestServers.builder().route("PUT", "/items/{kind}/{id}", (req, res) -> {
      seen.set(req.method() + "|" + req.uri() + "|" + req.path() + "|" + req.query() + "|" + req.queryParam("q")
          + "|" + req.queryParams("n") + "|" + req.pathParam("kind") + "|" + req.pathParam("id") + "|"
          + req.protocol() + "|" + req.header("x-test") + "|" + req.headers("X-Multi") + "|" + req.contentLength()
          + "|" + req.keepAlive() + "|" + req.headerNames().contains("x-test") + "|"
          + req.remoteAddress().getAddress().isLoopbackAddress() + "|" + req.secure() + "|"
          + new String(req.bodyBytes(), StandardCharsets.UTF_8));
      res.status(201).header("X-Reply", "yes").send(new byte[0]);
    });
    try (HttpServer server = b.build().start(); RawHttp c = RawHttp.connect(server.port())) {
      c.send("PUT /items/a%2Fb/7?q=x+y&n=1&n=2 HTTP/1.1\r\nHost: x\r\nX-Test: t\r\nX-Multi: 1\r\nX-Multi: 2\r\n"
          + "Content-Length: 4\r\n\r\nbody");
      RawHttp.Response r = c.read();
      assertThat(r.status()).isEqualTo(201);
      assertThat(r.header("x-reply")).isEqualTo("yes");
      assertThat(r.header("content-length")).isEqualTo("0");
    }
    assertThat(seen.get()).isEqualTo("PUT|/items/a%2Fb/7?q=x+y&n=1&n=2|/items/a/b/7|q=x+y&n=1&n=2|x y|[1, 2]|a/b|7"
        + "|HTTP/1.1|t|[1, 2]|4|true|true|true|false|body");
  }

  @Test
  void header_crlfInValueOrBadName_refusedBeforeAnythingIsSent() throws Exception {
    AtomicReference<String> errors = new AtomicReference<>("");
    HttpServer.Builder b = TestServers.builder().get("/inject", (req, res) -> {
      refused(errors, "value;", () -> res.header("X-A", "a\r\nSet-Cookie: evil=1"));
      refused(errors, "name;", () -> res.header("X A", "1"));
      refused(errors, "added name;", () -> res.addHeader("X:B", "1"));
      refused(errors, "common name's value;", () -> res.addHeader("content-type", "text/plain\r\nX-Evil: 1"));
      res.header("Content-Type", "text/x-safe").header("cache-control", "no-store");
      res.send("safe");
    });
    try (HttpServer server = b.build().start(); RawHttp c = RawHttp.connect(server.port())) {
      c.send("GET /inject HTTP/1.1\r\nHost: x\r\n\r\n");
      RawHttp.Response r = c.read();
      assertThat(r.text()).isEqualTo("safe");
      assertThat(r.header("set-cookie")).isNull();
      assertThat(r.header("x-evil")).isNull();
      assertThat(r.header("content-type")).isEqualTo("text/x-safe");
      assertThat(r.header("cache-control")).isEqualTo("no-store");
    }
    assertThat(errors.get()).isEqualTo("value;name;added name;common name's value;");
  }

  @Test
  void noContent_sendWithBody_omitsBodyAndLength() throws Exception {
    HttpServer.Builder b = TestServers.builder().get("/empty", (req, res) -> res.status(204).send("ignored"));
    try (HttpServer server = b.build().start(); RawHttp c = RawHttp.connect(server.port())) {
      c.send("GET /empty HTTP/1.1\r\nHost: x\r\n\r\nGET /empty HTTP/1.1\r\nHost: x\r\n\r\n");
      RawHttp.Response r = c.read();
      assertThat(r.status()).isEqualTo(204);
      assertThat(r.header("content-length")).isNull();
      assertThat(c.read().status()).isEqualTo(204);
    }
  }

  @ParameterizedTest
  @EnumSource(ExecutionMode.class)
  void send_arrayOverwrittenAfterSend_clientGetsTheBytesAsSent(ExecutionMode mode) throws Exception {
    if (mode == ExecutionMode.VIRTUAL && !ExecutionModeTest.virtualThreads()) {
      return; // JDK 17: no virtual threads (ExecutionModeTest checks the refusal)
    }
    HttpServer.Builder b = TestServers.builder().mode(mode).get("/bytes", (req, res) -> {
      int n = Integer.parseInt(req.queryParam("n"));
      byte[] body = new byte[n];
      for (int i = 0; i < n; i++) {
        body[i] = (byte) ('a' + i % 26);
      }
      res.send(body);
      java.util.Arrays.fill(body, (byte) 'X'); // the handler reuses its array at once
    });
    try (HttpServer server = b.build().start(); RawHttp c = RawHttp.connect(server.port())) {
      // pipelined: only the last response of the batch is flushed, the others wait in the channel
      c.send("GET /bytes?n=13 HTTP/1.1\r\nHost: x\r\n\r\nGET /bytes?n=300000 HTTP/1.1\r\nHost: x\r\n\r\n"
          + "GET /bytes?n=5000 HTTP/1.1\r\nHost: x\r\n\r\n");
      for (int n : new int[] {13, 300_000, 5000}) {
        RawHttp.Response r = c.read();
        assertThat(r.body()).hasSize(n);
        for (int i = 0; i < n; i++) {
          if (r.body()[i] != (byte) ('a' + i % 26)) {
            throw new AssertionError("byte " + i + " of the " + n + "-byte body: " + (char) r.body()[i]);
          }
        }
      }
    }
  }

  @Test
  void stats_bytesOut_countsEveryByteSentOnce() throws Exception {
    HttpServer.Builder b = TestServers.builder().get("/hello", (req, res) -> res.send("hello"))
        .get("/stream", (req, res) -> res.output().writeUtf8("streamed"));
    try (HttpServer server = b.build().start(); RawHttp c = RawHttp.connect(server.port())) {
      c.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\nHEAD /hello HTTP/1.1\r\nHost: x\r\n\r\n"
          + "GET /stream HTTP/1.1\r\nHost: x\r\n\r\nGET /nope HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
      byte[] all = c.socket().getInputStream().readAllBytes();
      assertThat(new String(all, StandardCharsets.ISO_8859_1)).startsWith("HTTP/1.1 200 OK").contains("hello")
          .contains("streamed").contains("404 Not Found");
      assertThat(server.stats().bytesOut()).isEqualTo(all.length);
    }
  }

  /* Runs a call that must fail the argument check, and notes the label in errors if it did. */
  private static void refused(AtomicReference<String> errors, String label, Runnable call) {
    try {
      call.run();
    } catch (IllegalArgumentException e) {
      errors.set(errors.get() + label);
    }
  }
}
