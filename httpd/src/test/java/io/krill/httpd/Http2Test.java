package io.krill.httpd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.krill.fibers.ExecutionMode;
import io.krill.fibers.FiberCountDownLatch;
import io.krill.httpd.files.StaticFiles;
import io.krill.httpd.http2.Http2Options;
import io.krill.netio.FiberOutput;
import io.krill.netio.Tls;
import io.krill.testkit.RawHttp;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http2.DefaultHttp2DataFrame;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.DefaultHttp2HeadersFrame;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.pkitesting.CertificateBuilder;
import io.netty.pkitesting.X509Bundle;
import java.io.InputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

/** HTTP/2: the three ways in, the same handlers on every stream, flow control, and every limit. */
@Timeout(120)
class Http2Test {
  static X509Bundle cert;
  static Tls tls;

  @BeforeAll
  static void certificate() throws Exception {
    cert = new CertificateBuilder().subject("CN=localhost").addSanDnsName("localhost").addSanIpAddress("127.0.0.1")
        .addExtendedKeyUsageServerAuth().setIsCertificateAuthority(true).buildSelfSigned();
    tls = Tls.server(cert.getKeyPair().getPrivate(), cert.getCertificatePath());
  }

  static HttpServer.Builder h2(Http2Options options) {
    return TestServers.withTestRoutes(TestServers.builder()).http2(options)
        .get("/protocol", (req, res) -> res.send(req.protocol() + " secure=" + req.secure()));
  }

  static HttpServer.Builder h2() {
    return h2(Http2Options.defaults());
  }

  // ------------------------------------------------------------------ the ways in

  @Test
  void priorKnowledge_helloEchoAndProtocol_servedByTheSameHandlers() throws Exception {
    try (HttpServer server = h2().build().start(); H2Client c = H2Client.connect(server.port())) {
      H2Client.Response hello = c.get("/hello");
      assertThat(hello.status()).isEqualTo(200);
      assertThat(hello.text()).isEqualTo("hello");
      assertThat(hello.header("content-length")).isEqualTo("5");
      assertThat(hello.header("connection")).isNull();
      assertThat(c.get("/protocol").text()).isEqualTo("HTTP/2.0 secure=false");
      assertThat(c.get("/users/7").text()).isEqualTo("user 7");
      assertThat(c.get("/nothing").status()).isEqualTo(404);
      assertThat(c.request("POST", "/hello", null).status()).isEqualTo(405);
      byte[] body = new byte[300_000];
      new Random(1).nextBytes(body);
      H2Client.Response echo = c.request("POST", "/echo", body);
      assertThat(echo.status()).isEqualTo(200);
      assertThat(echo.body.toByteArray()).isEqualTo(body);
      assertThat(server.stats().requests()).isEqualTo(6);
      assertThat(server.stats().openConnections()).isEqualTo(1);
      assertThat(server.stats().bytesIn()).isGreaterThan(body.length);
      assertThat(server.stats().bytesOut()).isGreaterThan(body.length);
    }
  }

  @Test
  void priorKnowledge_bodyWithTrailersAndSplitCookies_readAsOneRequest() throws Exception {
    try (HttpServer server = h2().get("/cookie", (req, res) -> res.send(req.header("cookie"))).build().start();
        H2Client c = H2Client.connect(server.port())) {
      H2Client.Stream s = c.open(true);
      s.channel.write(new DefaultHttp2HeadersFrame(
          new DefaultHttp2Headers().method("POST").path("/echo").scheme("http").authority("localhost"), false));
      s.channel.write(new DefaultHttp2DataFrame(Unpooled.copiedBuffer("abc", StandardCharsets.US_ASCII), false));
      s.channel.writeAndFlush(new DefaultHttp2HeadersFrame(new DefaultHttp2Headers().add("x-checksum", "1"), true));
      H2Client.Response echo = s.await();
      assertThat(echo.status()).isEqualTo(200);
      assertThat(echo.text()).isEqualTo("abc");
      // RFC 9113 8.2.3: cookie fields split for compression are one field again for the handler
      assertThat(c.request("GET", "/cookie", null, "cookie", "a=1", "cookie", "b=2").text()).isEqualTo("a=1; b=2");
    }
  }

  @Test
  void priorKnowledge_handlerFails_500OnThatStreamOnly() throws Exception {
    try (HttpServer server = h2().build().start(); H2Client c = H2Client.connect(server.port())) {
      assertThat(c.get("/fail").status()).isEqualTo(500);
      assertThat(c.get("/hello").text()).isEqualTo("hello");
    }
  }

  @Test
  void priorKnowledge_manyConcurrentStreams_eachServedOnItsOwnStrand() throws Exception {
    FiberCountDownLatch all = FiberCountDownLatch.create(50);
    HttpServer.Builder b = h2().get("/together", (req, res) -> {
      all.countDown();
      all.await(); // every stream is in its handler at once, or this never returns
      res.send("together " + req.queryParam("i"));
    });
    try (HttpServer server = b.build().start(); H2Client c = H2Client.connect(server.port())) {
      List<H2Client.Stream> streams = new ArrayList<>();
      for (int i = 0; i < 50; i++) {
        streams.add(c.send("GET", "/together?i=" + i, null));
      }
      for (int i = 0; i < 50; i++) {
        assertThat(streams.get(i).await().text()).isEqualTo("together " + i);
      }
      assertThat(server.stats().openConnections()).isEqualTo(1);
    }
  }

  @Test
  void alpn_h2OverTls_negotiatedAndServed() throws Exception {
    try (HttpServer server = h2().tls(tls).build().start();
        H2Client c = H2Client.connectTls(server.port(), cert.getCertificate())) {
      assertThat(c.protocol).isEqualTo("h2");
      assertThat(c.get("/protocol").text()).isEqualTo("HTTP/2.0 secure=true");
      byte[] body = "x".repeat(100_000).getBytes(StandardCharsets.US_ASCII);
      assertThat(c.request("POST", "/echo", body).body.toByteArray()).isEqualTo(body);
    }
  }

  @Test
  void alpn_http11Client_getsHttp11OnTheSameServer() throws Exception {
    try (HttpServer server = h2().tls(tls).build().start()) {
      SSLContext ssl = SSLContext.getInstance("TLS");
      ssl.init(null, cert.toTrustManagerFactory().getTrustManagers(), null);
      HttpClient http11 = HttpClient.newBuilder().sslContext(ssl).version(HttpClient.Version.HTTP_1_1).build();
      HttpResponse<String> r = http11.send(HttpRequest.newBuilder(URI.create("https://localhost:" + server.port()
          + "/protocol")).timeout(Duration.ofSeconds(20)).build(), HttpResponse.BodyHandlers.ofString());
      assertThat(r.body()).isEqualTo("HTTP/1.1 secure=true");
      HttpClient h2 = HttpClient.newBuilder().sslContext(ssl).version(HttpClient.Version.HTTP_2).build();
      HttpResponse<String> r2 = h2.send(HttpRequest.newBuilder(URI.create("https://localhost:" + server.port()
          + "/protocol")).timeout(Duration.ofSeconds(20)).build(), HttpResponse.BodyHandlers.ofString());
      assertThat(r2.version()).isEqualTo(HttpClient.Version.HTTP_2);
      assertThat(r2.body()).isEqualTo("HTTP/2.0 secure=true");
    }
  }

  @Test
  void upgrade_h2cFromHttp11_firstRequestAnsweredOnStream1ThenH2() throws Exception {
    try (HttpServer server = h2().build().start()) {
      HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).build();
      URI base = URI.create("http://127.0.0.1:" + server.port());
      HttpResponse<String> first = client.send(HttpRequest.newBuilder(base.resolve("/protocol"))
          .timeout(Duration.ofSeconds(20)).build(), HttpResponse.BodyHandlers.ofString());
      assertThat(first.version()).isEqualTo(HttpClient.Version.HTTP_2);
      assertThat(first.body()).isEqualTo("HTTP/2.0 secure=false");
      HttpResponse<String> echo = client.send(HttpRequest.newBuilder(base.resolve("/echo"))
          .POST(HttpRequest.BodyPublishers.ofString("over h2c")).timeout(Duration.ofSeconds(20)).build(),
          HttpResponse.BodyHandlers.ofString());
      assertThat(echo.version()).isEqualTo(HttpClient.Version.HTTP_2);
      assertThat(echo.body()).isEqualTo("over h2c");
      assertThat(server.stats().openConnections()).isEqualTo(1);
    }
  }

  @Test
  void cleartextOn_plainHttp11_stillServed() throws Exception {
    try (HttpServer server = h2().build().start(); RawHttp c = RawHttp.connect(server.port())) {
      c.send("GET /protocol HTTP/1.1\r\nHost: x\r\n\r\n");
      assertThat(c.read().text()).isEqualTo("HTTP/1.1 secure=false");
      c.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n");
      assertThat(c.read().text()).isEqualTo("hello");
    }
  }

  @Test
  void cleartextOff_preface_isNotHttp2() throws Exception {
    try (HttpServer server = h2(Http2Options.builder().cleartext(false).build()).build().start();
        RawHttp c = RawHttp.connect(server.port())) {
      c.send("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n");
      assertThat(c.read().status()).isEqualTo(505);
    }
  }

  @ParameterizedTest
  @EnumSource(ExecutionMode.class)
  void mode_sameHandlerOnEveryStream(ExecutionMode mode) throws Exception {
    if (mode == ExecutionMode.VIRTUAL && !ExecutionModeTest.virtualThreads()) {
      return; // building is refused on JDK 17; ExecutionModeTest checks the message
    }
    try (HttpServer server = h2().mode(mode).post("/work", ExecutionModeTest.SAME_HANDLER).build().start();
        H2Client c = H2Client.connect(server.port())) {
      List<H2Client.Stream> streams = new ArrayList<>();
      for (int i = 0; i < 10; i++) {
        streams.add(c.send("POST", "/work", ("n" + i).getBytes(StandardCharsets.UTF_8)));
      }
      for (int i = 0; i < 10; i++) {
        assertThat(streams.get(i).await().text()).isEqualTo(mode + ":n" + i);
      }
    }
  }

  @Test
  void staticFiles_overH2_everyByteAndRanges(@TempDir Path root) throws Exception {
    byte[] data = new byte[200_000];
    new Random(2).nextBytes(data);
    Files.write(root.resolve("data.bin"), data);
    try (HttpServer server = h2().fallback(StaticFiles.handler(root)).build().start();
        H2Client c = H2Client.connect(server.port())) {
      H2Client.Response whole = c.get("/data.bin");
      assertThat(whole.status()).isEqualTo(200);
      assertThat(whole.body.toByteArray()).isEqualTo(data);
      H2Client.Response part = c.request("GET", "/data.bin", null, "range", "bytes=1000-1009");
      assertThat(part.status()).isEqualTo(206);
      assertThat(part.body.toByteArray()).isEqualTo(java.util.Arrays.copyOfRange(data, 1000, 1010));
      H2Client.Response head = c.request("HEAD", "/data.bin", null);
      assertThat(head.header("content-length")).isEqualTo("200000");
      assertThat(head.body.size()).isZero();
    }
  }

  /*
   * A client that resets a stream while its handler waits for the request body: the handler's
   * read fails (the strand ends as on a lost connection) and the connection's other streams are
   * served, on every execution model.
   */
  @ParameterizedTest
  @EnumSource(ExecutionMode.class)
  void reset_whileHandlerReadsBody_readFailsOtherStreamsServed(ExecutionMode mode) throws Exception {
    if (mode == ExecutionMode.VIRTUAL && !ExecutionModeTest.virtualThreads()) {
      return; // building is refused on JDK 17; ExecutionModeTest checks the message
    }
    CountDownLatch reading = new CountDownLatch(1);
    java.util.concurrent.CompletableFuture<Throwable> outcome = new java.util.concurrent.CompletableFuture<>();
    HttpServer.Builder b = h2().mode(mode).post("/slow", (req, res) -> {
      reading.countDown();
      try {
        req.bodyBytes();
        outcome.complete(null);
      } catch (java.io.IOException e) {
        outcome.complete(e);
        throw e;
      }
      res.send("read");
    });
    try (HttpServer server = b.build().start(); RawH2 raw = new RawH2(server.port())) {
      raw.preface().headers(1, false, RawH2.get("/slow").method("POST"));
      assertThat(reading.await(H2Client.TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
      raw.rst(1, Http2Error.CANCEL.code());
      assertThat(outcome.get(H2Client.TIMEOUT_SECONDS, TimeUnit.SECONDS))
          .isInstanceOf(java.io.IOException.class).hasMessageContaining("ended");
      raw.headers(3, true, RawH2.get("/hello"));
      RawH2.Frame h = raw.await(f -> f.type().equals("HEADERS") && f.streamId() == 3);
      assertThat(h.status()).isEqualTo(200);
    }
  }

  // ------------------------------------------------------------------ flow control

  @Test
  void flowControl_peerNotReading_handlerParksThenFinishes() throws Exception {
    int total = 4 << 20;
    AtomicLong written = new AtomicLong();
    HttpServer.Builder b = h2().get("/big", (req, res) -> {
      FiberOutput out = res.output();
      byte[] chunk = new byte[8192];
      for (int n = 0; n < total; n += chunk.length) {
        out.write(chunk);
        written.addAndGet(chunk.length);
      }
    });
    try (HttpServer server = b.build().start(); H2Client c = H2Client.connect(server.port())) {
      H2Client.Stream s = c.open(false);
      s.channel.writeAndFlush(new io.netty.handler.codec.http2.DefaultHttp2HeadersFrame(
          RawH2.get("/big"), true)).sync();
      long before;
      do { // until the handler stops making progress: it parked on the closed window
        before = written.get();
        Thread.sleep(300);
      } while (written.get() != before || before == 0);
      assertThat(written.get()).as("bytes the handler wrote while the client read nothing")
          .isLessThan(1 << 20);
      s.channel.config().setAutoRead(true);
      H2Client.Response r = s.await();
      assertThat(r.body.size()).isEqualTo(total);
      assertThat(written.get()).isEqualTo(total);
    }
  }

  /*
   * A request body the handler has not read holds the client at the stream's window: no
   * WINDOW_UPDATE for the stream until the handler reads; then the window opens and the rest of
   * the body arrives whole.
   */
  @Test
  void flowControl_unreadRequestBody_noWindowUpdateUntilHandlerReads() throws Exception {
    FiberCountDownLatch gate = FiberCountDownLatch.create(1);
    CountDownLatch started = new CountDownLatch(1);
    HttpServer.Builder b = h2().post("/gated", (req, res) -> {
      started.countDown();
      gate.await();
      res.send("read " + req.bodyBytes().length);
    });
    int window = 65535; // the default initialWindowBytes
    try (HttpServer server = b.build().start(); RawH2 raw = new RawH2(server.port())) {
      raw.preface().headers(1, false, RawH2.get("/gated").method("POST"));
      assertThat(started.await(H2Client.TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
      for (int sent = 0; sent < window; sent += 16384) {
        raw.data(1, new byte[Math.min(16384, window - sent)], false);
      }
      Thread.sleep(500); // a window update would come now, if the unread bytes went back
      assertThat(raw.seen()).noneMatch(f -> f.type().equals("WINDOW_UPDATE") && f.streamId() == 1);
      gate.countDown();
      raw.await(f -> f.type().equals("WINDOW_UPDATE") && f.streamId() == 1);
      raw.data(1, new byte[1000], true);
      RawH2.Frame h = raw.await(f -> f.type().equals("HEADERS") && f.streamId() == 1);
      assertThat(h.status()).isEqualTo(200);
      assertThat(raw.await("DATA").errorCode()).as("the body's length").isEqualTo(("read " + (window + 1000)).length());
    }
  }

  /*
   * A file the cache holds goes out as one message of slices: a stream whose client reads
   * nothing gets no more than its window and does not hold up the connection's other streams;
   * when it reads, every byte arrives; one reset midway ends its strand.
   */
  @Test
  void flowControl_heldFile_peerNotReading_otherStreamsServedThenWhole(@TempDir Path root) throws Exception {
    byte[] data = new byte[900_000];
    new Random(5).nextBytes(data);
    Files.write(root.resolve("held.bin"), data);
    try (HttpServer server = h2().fallback(StaticFiles.handler(root)).build().start();
        H2Client c = H2Client.connect(server.port())) {
      assertThat(c.get("/held.bin").body.toByteArray()).isEqualTo(data); // now held by the cache
      // A connection window the unread streams cannot fill: only their own windows hold them back.
      c.channel.writeAndFlush(new io.netty.handler.codec.http2.DefaultHttp2WindowUpdateFrame(8 << 20)).sync();
      H2Client.Stream slow = c.open(false);
      slow.channel.writeAndFlush(new io.netty.handler.codec.http2.DefaultHttp2HeadersFrame(
          RawH2.get("/held.bin"), true)).sync();
      H2Client.Stream reset = c.open(false);
      reset.channel.writeAndFlush(new io.netty.handler.codec.http2.DefaultHttp2HeadersFrame(
          RawH2.get("/held.bin"), true)).sync();
      Thread.sleep(300);
      assertThat(slow.done).isNotDone();
      reset.reset();
      reset.channel.config().setAutoRead(true); // the client drops (releases) what it held for it
      reset.channel.read();
      for (int i = 0; i < 5; i++) {
        assertThat(c.get("/hello").text()).isEqualTo("hello");
      }
      slow.channel.config().setAutoRead(true);
      slow.channel.read();
      H2Client.Response r = slow.await();
      assertThat(r.status()).isEqualTo(200);
      assertThat(r.body.toByteArray()).isEqualTo(data);
    }
  }

  // ------------------------------------------------------------------ limits and error paths

  @ParameterizedTest
  @org.junit.jupiter.params.provider.ValueSource(booleans = {true, false})
  void limits_tooManyStreams_refusedStream(boolean clientAcksSettings) throws Exception {
    FiberCountDownLatch release = FiberCountDownLatch.create(1);
    CountDownLatch entered = new CountDownLatch(2);
    HttpServer.Builder b = h2(Http2Options.builder().maxConcurrentStreams(2).build()).get("/slow", (req, res) -> {
      entered.countDown();
      release.await();
      res.send("slow");
    });
    try (HttpServer server = b.build().start(); RawH2 raw = new RawH2(server.port())) {
      raw.ackSettings = clientAcksSettings;
      raw.preface();
      raw.headers(1, true, RawH2.get("/slow")).headers(3, true, RawH2.get("/slow"));
      assertThat(entered.await(20, TimeUnit.SECONDS)).isTrue();
      raw.headers(5, true, RawH2.get("/slow"));
      RawH2.Frame rst = raw.await("RST_STREAM");
      assertThat(rst.streamId()).isEqualTo(5);
      assertThat(rst.errorCode()).isEqualTo(Http2Error.REFUSED_STREAM.code());
      release.countDown();
      assertThat(raw.await("HEADERS").status()).isEqualTo(200);
      assertThat(raw.await("HEADERS").status()).isEqualTo(200);
    } finally {
      release.countDown();
    }
  }

  @Test
  void limits_headerListOverLimit_431AndFarOverGoAway() throws Exception {
    try (HttpServer server = h2(Http2Options.builder().maxHeaderListBytes(1024).build()).build().start();
        RawH2 raw = new RawH2(server.port())) {
      raw.preface().headers(1, true, RawH2.get("/hello").add("x-big", "v".repeat(950)));
      RawH2.Frame h = raw.await("HEADERS");
      assertThat(h.streamId()).isEqualTo(1);
      assertThat(h.status()).isEqualTo(431);
      raw.headers(3, true, RawH2.get("/hello"));
      assertThat(raw.await("HEADERS").status()).as("the connection serves on").isEqualTo(200);
      try {
        raw.headers(5, true, RawH2.get("/hello").add("x-big", "v".repeat(20_000)));
      } catch (java.io.IOException e) {
        // the server closed the connection before the whole block went out
      }
      RawH2.Frame g = raw.await("GOAWAY");
      assertThat(g.errorCode()).isNotEqualTo(Http2Error.NO_ERROR.code());
      raw.await(RawH2.CLOSED);
    }
  }

  @Test
  void limits_rapidReset_goAwayEnhanceYourCalm() throws Exception {
    try (HttpServer server = h2(Http2Options.builder().maxResetsPerWindow(20).build()).build().start();
        RawH2 raw = new RawH2(server.port())) {
      raw.preface();
      try {
        for (int id = 1; id < 200; id += 2) {
          raw.headers(id, false, RawH2.get("/hello")).rst(id, Http2Error.CANCEL.code());
        }
      } catch (java.io.IOException e) {
        // the server closed the connection while the flood went on
      }
      RawH2.Frame g = raw.await("GOAWAY");
      assertThat(g.errorCode()).isEqualTo(Http2Error.ENHANCE_YOUR_CALM.code());
      raw.await(RawH2.CLOSED);
    }
  }

  @Test
  void limits_continuationFlood_goAwayEnhanceYourCalm() throws Exception {
    try (HttpServer server = h2(Http2Options.builder().maxContinuationFrames(8).build()).build().start();
        RawH2 raw = new RawH2(server.port())) {
      raw.preface().await("SETTINGS"); // and acknowledged: no frame may come between HEADERS and CONTINUATION
      try {
        raw.continuationFlood(1, RawH2.get("/hello"), 1000);
      } catch (java.io.IOException e) {
        // the server closed the connection while the flood went on
      }
      RawH2.Frame g = raw.await("GOAWAY");
      assertThat(g.errorCode()).isEqualTo(Http2Error.ENHANCE_YOUR_CALM.code());
      raw.await(RawH2.CLOSED);
    }
  }

  @Test
  void limits_frameOverMaxFrameBytes_goAwayFrameSizeError() throws Exception {
    try (HttpServer server = h2().build().start(); RawH2 raw = new RawH2(server.port())) {
      raw.preface().headers(1, false, RawH2.get("/echo").method("POST"));
      byte[] frame = new byte[9 + 20_000]; // DATA on stream 1, 20,000 bytes: over the default 16,384
      frame[0] = (byte) (20_000 >>> 16);
      frame[1] = (byte) (20_000 >>> 8);
      frame[2] = (byte) 20_000;
      frame[8] = 1;
      try {
        raw.raw(frame);
      } catch (java.io.IOException e) {
        // the server closed the connection while the frame went out
      }
      RawH2.Frame g = raw.await("GOAWAY");
      assertThat(g.errorCode()).isEqualTo(Http2Error.FRAME_SIZE_ERROR.code());
      raw.await(RawH2.CLOSED);
    }
  }

  /* RFC 9113 8.2.1 and 8.3: a request with such a field is malformed, a stream error; the connection serves on. */
  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      "a space in a name           | x y        | a",
      "an upper-case name          | X-Foo      | a",
      "a colon inside a name       | x:y        | a",
      "CR in a value               | x          | a{CR}b",
      "LF in a value               | x          | a{LF}b",
      "NUL in a value              | x          | a{NUL}b",
      "a value that starts with SP | x          | ' a'",
      "a value that ends with TAB  | x          | a{TAB}",
      "a connection-specific field | connection | keep-alive",
      "TE other than trailers      | te         | gzip",
      "a space in the method       | :method    | GE T",
      "an empty :path              | :path      | ''"})
  void malformedField_streamResetProtocolError_connectionServesOn(String what, String name, String value)
      throws Exception {
    try (HttpServer server = h2().build().start(); RawH2 raw = new RawH2(server.port())) {
      raw.preface().await("SETTINGS");
      DefaultHttp2Headers bad = new DefaultHttp2Headers(false);
      RawH2.get("/hello").forEach(e -> {
        if (!name.contentEquals(e.getKey())) {
          bad.add(e.getKey(), e.getValue());
        }
      });
      bad.add(name, value.replace("{CR}", "\r").replace("{LF}", "\n").replace("{NUL}", "\u0000")
          .replace("{TAB}", "\t"));
      raw.headers(1, true, bad);
      RawH2.Frame reset = raw.await(f -> f.streamId() == 1 && !f.type().equals("WINDOW_UPDATE"));
      assertThat(reset.type()).as(what).isEqualTo("RST_STREAM");
      assertThat(reset.errorCode()).isEqualTo(Http2Error.PROTOCOL_ERROR.code());
      raw.headers(3, true, RawH2.get("/hello"));
      assertThat(raw.await("HEADERS").status()).isEqualTo(200);
    }
  }

  @Test
  void malformedTrailer_streamResetProtocolError_connectionServesOn() throws Exception {
    try (HttpServer server = h2().build().start(); RawH2 raw = new RawH2(server.port())) {
      raw.preface().await("SETTINGS");
      raw.headers(1, false, new DefaultHttp2Headers().method("POST").path("/echo").scheme("http").authority("localhost"));
      raw.data(1, "abc".getBytes(StandardCharsets.US_ASCII), false);
      raw.headers(1, true, new DefaultHttp2Headers(false).add("x-checksum", "a\rb"));
      RawH2.Frame reset = raw.await(f -> f.streamId() == 1 && !f.type().equals("WINDOW_UPDATE"));
      assertThat(reset.type()).isEqualTo("RST_STREAM");
      assertThat(reset.errorCode()).isEqualTo(Http2Error.PROTOCOL_ERROR.code());
      raw.headers(3, true, RawH2.get("/hello"));
      assertThat(raw.await("HEADERS").status()).isEqualTo(200);
    }
  }

  @Test
  void limits_continuationWithinLimit_served() throws Exception {
    try (HttpServer server = h2(Http2Options.builder().maxContinuationFrames(8).build()).build().start();
        RawH2 raw = new RawH2(server.port())) {
      raw.preface().await("SETTINGS"); // and acknowledged: no frame may come between HEADERS and CONTINUATION
      raw.continuationFlood(1, RawH2.get("/hello"), 0);
      raw.raw(new byte[] {0, 0, 0, 9, 4, 0, 0, 0, 1}); // an empty CONTINUATION with END_HEADERS
      assertThat(raw.await("HEADERS").status()).isEqualTo(200);
    }
  }

  @Test
  void preface_firstFrameNotSettings_goAwayProtocolError() throws Exception {
    try (HttpServer server = h2().build().start(); RawH2 raw = new RawH2(server.port())) {
      raw.raw("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
      raw.headers(1, true, RawH2.get("/hello"));
      RawH2.Frame g = raw.await("GOAWAY");
      assertThat(g.errorCode()).isEqualTo(Http2Error.PROTOCOL_ERROR.code());
      raw.await(RawH2.CLOSED);
    }
  }

  @Test
  void preface_badAfterAlpnH2_goAwayProtocolError() throws Exception {
    try (HttpServer server = h2().tls(tls).build().start()) {
      SSLContext ssl = SSLContext.getInstance("TLS");
      ssl.init(null, cert.toTrustManagerFactory().getTrustManagers(), null);
      try (SSLSocket s = (SSLSocket) ssl.getSocketFactory().createSocket("127.0.0.1", server.port())) {
        SSLParameters p = s.getSSLParameters();
        p.setApplicationProtocols(new String[] {"h2"});
        s.setSSLParameters(p);
        s.startHandshake();
        assertThat(s.getApplicationProtocol()).isEqualTo("h2");
        s.getOutputStream().write("GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        s.getOutputStream().flush();
        s.setSoTimeout(20_000);
        byte[] frame = s.getInputStream().readNBytes(9 + 6 * 3); // the server's SETTINGS first
        assertThat(frame[3]).as("SETTINGS").isEqualTo((byte) 4);
        assertThat(readUntilGoAwayCode(s.getInputStream(), frame)).isEqualTo(Http2Error.PROTOCOL_ERROR.code());
      }
    }
  }

  /* Skips frames until GOAWAY; returns its error code. */
  private static long readUntilGoAwayCode(InputStream in, byte[] first) throws Exception {
    java.io.ByteArrayOutputStream all = new java.io.ByteArrayOutputStream();
    all.write(first);
    byte[] buf = new byte[4096];
    for (int n; (n = in.read(buf)) > 0; ) {
      all.write(buf, 0, n);
    }
    byte[] b = all.toByteArray();
    for (int pos = 0; pos + 9 <= b.length; ) {
      int len = (b[pos] & 0xff) << 16 | (b[pos + 1] & 0xff) << 8 | b[pos + 2] & 0xff;
      if (b[pos + 3] == 7) {
        int p = pos + 9 + 4;
        return (long) (b[p] & 0xff) << 24 | (b[p + 1] & 0xff) << 16 | (b[p + 2] & 0xff) << 8 | b[p + 3] & 0xff;
      }
      pos += 9 + len;
    }
    throw new AssertionError("no GOAWAY among " + b.length + " bytes");
  }

  @Test
  void handshakeTimeout_silentOrPartialPreface_closed() throws Exception {
    try (HttpServer server = h2(Http2Options.builder().handshakeTimeout(Duration.ofMillis(300)).build()).build().start()) {
      try (Socket silent = new Socket("127.0.0.1", server.port()); Socket partial = new Socket("127.0.0.1", server.port())) {
        partial.getOutputStream().write("PRI * HTTP/2.0\r\n".getBytes(StandardCharsets.US_ASCII));
        silent.setSoTimeout(20_000);
        partial.setSoTimeout(20_000);
        assertThat(silent.getInputStream().read()).isEqualTo(-1);
        assertThat(partial.getInputStream().read()).isEqualTo(-1);
      }
      awaitNoOpenConnections(server);
    }
  }

  @Test
  void handshakeTimeout_http11KeepAlive_notCutOff() throws Exception {
    try (HttpServer server = h2(Http2Options.builder().handshakeTimeout(Duration.ofMillis(200)).build()).build().start();
        RawHttp c = RawHttp.connect(server.port())) {
      c.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n");
      assertThat(c.read().text()).isEqualTo("hello");
      Thread.sleep(800); // well past the handshake timeout: HTTP/1.1's own timeouts rule now
      c.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n");
      assertThat(c.read().text()).isEqualTo("hello");
    }
  }

  @Test
  void idleTimeout_noStreams_goAwayNoErrorThenClosed() throws Exception {
    try (HttpServer server = h2().idleTimeout(Duration.ofMillis(500)).build().start();
        RawH2 raw = new RawH2(server.port())) {
      raw.preface().headers(1, true, RawH2.get("/hello"));
      assertThat(raw.await("HEADERS").status()).isEqualTo(200);
      RawH2.Frame g = raw.await("GOAWAY");
      assertThat(g.errorCode()).isEqualTo(Http2Error.NO_ERROR.code());
      raw.await(RawH2.CLOSED);
    }
  }

  @Test
  void shutdown_streamsInFlight_goAwayThenFinishedThenClosed() throws Exception {
    FiberCountDownLatch release = FiberCountDownLatch.create(1);
    CountDownLatch entered = new CountDownLatch(3);
    HttpServer server = h2().get("/slow", (req, res) -> {
      entered.countDown();
      release.await();
      res.send("finished");
    }).build().start();
    try (RawH2 raw = new RawH2(server.port())) {
      raw.preface().headers(1, true, RawH2.get("/slow")).headers(3, true, RawH2.get("/slow"))
          .headers(5, true, RawH2.get("/slow"));
      assertThat(entered.await(20, TimeUnit.SECONDS)).isTrue();
      Thread stopper = new Thread(() -> server.shutdown(Duration.ofSeconds(20)));
      stopper.start();
      RawH2.Frame g = raw.await("GOAWAY");
      assertThat(g.errorCode()).isEqualTo(Http2Error.NO_ERROR.code());
      assertThat(g.streamId()).as("last stream id").isGreaterThanOrEqualTo(5);
      release.countDown();
      for (int i = 0; i < 3; i++) {
        assertThat(raw.await("HEADERS").status()).isEqualTo(200);
      }
      raw.await(RawH2.CLOSED);
      stopper.join(30_000);
      assertThat(stopper.isAlive()).isFalse();
      awaitNoOpenConnections(server);
    } finally {
      release.countDown();
      server.close();
    }
  }

  @Test
  void maxConnections_fullOfIdleH2Connections_oldestGoAwayAndNewClientServed() throws Exception {
    try (HttpServer server = h2().maxConnections(2).build().start(); H2Client oldest = H2Client.connect(server.port())) {
      assertThat(oldest.get("/hello").status()).isEqualTo(200);
      LimitsTest.awaitIdle(server, 1); // idle since its stream closed: before the newer one's
      try (H2Client newer = H2Client.connect(server.port())) {
        assertThat(newer.get("/hello").status()).isEqualTo(200);
        LimitsTest.awaitIdle(server, 2);
        try (H2Client third = H2Client.connect(server.port())) {
          assertThat(third.get("/hello").status()).isEqualTo(200);
          long[] goAway = oldest.goAway.get(H2Client.TIMEOUT_SECONDS, TimeUnit.SECONDS);
          assertThat(goAway[0]).isEqualTo(Http2Error.NO_ERROR.code());
          assertThat(oldest.channel.closeFuture().await(H2Client.TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
          assertThat(newer.get("/hello").status()).as("the newer idle connection stays").isEqualTo(200);
          assertThat(newer.goAway).isNotDone();
        }
      }
      assertThat(server.stats().evictedConnections()).isEqualTo(1);
      assertThat(server.stats().rejectedConnections()).isZero();
    }
  }

  @Test
  void maxConnections_h2ConnectionsWithStreamsInFlight_notEvictedNewClient503() throws Exception {
    FiberCountDownLatch release = FiberCountDownLatch.create(1);
    CountDownLatch entered = new CountDownLatch(2);
    try (HttpServer server = h2().maxConnections(2).get("/slow", (req, res) -> {
      entered.countDown();
      release.await();
      res.send("finished");
    }).build().start(); H2Client a = H2Client.connect(server.port()); H2Client b = H2Client.connect(server.port())) {
      H2Client.Stream sa = a.send("GET", "/slow", null);
      H2Client.Stream sb = b.send("GET", "/slow", null);
      assertThat(entered.await(20, TimeUnit.SECONDS)).isTrue();
      LimitsTest.awaitIdle(server, 0);
      try (RawHttp silent = RawHttp.connect(server.port())) {
        assertThat(silent.read().status()).as("refused without waiting for a request").isEqualTo(503);
      }
      release.countDown();
      assertThat(sa.await().text()).isEqualTo("finished");
      assertThat(sb.await().text()).isEqualTo("finished");
      assertThat(a.goAway).isNotDone();
      assertThat(server.stats().rejectedConnections()).isEqualTo(1);
      assertThat(server.stats().evictedConnections()).isZero();
    } finally {
      release.countDown();
    }
  }

  /* The count drops when the server sees the close, which may be just after the client does. */
  static void awaitNoOpenConnections(HttpServer server) throws InterruptedException {
    for (int i = 0; i < 200 && server.stats().openConnections() != 0; i++) {
      Thread.sleep(50);
    }
    assertThat(server.stats().openConnections()).isZero();
  }

  @Test
  void options_invalid_rejectedNamingTheSetting() {
    assertThatThrownBy(() -> Http2Options.builder().maxConcurrentStreams(0))
        .hasMessage("maxConcurrentStreams: 0 (expected: > 0)");
    assertThatThrownBy(() -> Http2Options.builder().maxFrameBytes(1000))
        .hasMessage("maxFrameBytes: 1000 (expected: 16384..16777215)");
    assertThatThrownBy(() -> Http2Options.builder().initialWindowBytes(0))
        .hasMessage("initialWindowBytes: 0 (expected: > 0)");
    assertThatThrownBy(() -> Http2Options.builder().maxHeaderListBytes(10))
        .hasMessageStartingWith("maxHeaderListBytes: 10 (expected: 1024..");
    assertThatThrownBy(() -> Http2Options.builder().resetWindow(Duration.ofMillis(1500)))
        .hasMessage("resetWindow: 1500ms (expected: whole seconds)");
    assertThatThrownBy(() -> Http2Options.builder().handshakeTimeout(Duration.ZERO))
        .hasMessageStartingWith("handshakeTimeout: ");
  }

}
