package io.krill.crawler.fetch;

import static org.assertj.core.api.Assertions.assertThat;

import io.krill.testkit.TestDnsServer;
import io.krill.testkit.TestHttpServer;
import io.krill.testkit.TestHttpServer.Response;
import io.krill.fibers.Continuation;
import io.krill.fibers.FiberScheduler;
import io.krill.netio.dns.DnsResolver;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.pkitesting.CertificateBuilder;
import io.netty.pkitesting.X509Bundle;
import java.io.ByteArrayOutputStream;
import java.net.InetAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

@Timeout(60)
class HttpFetcherTest {
  private static FiberScheduler loops;
  private static TestDnsServer dns;
  private static DnsResolver resolver;
  private static InetAddress loopback;

  @BeforeAll
  static void setUp() throws Exception {
    loops = FiberScheduler.eventLoop(1);
    dns = TestDnsServer.start();
    resolver = DnsResolver.builder().servers(List.of(dns.address())).timeout(Duration.ofMillis(500)).retries(0)
        .hostsFile(null).build();
    loopback = InetAddress.getByName("127.0.0.1");
  }

  @AfterAll
  static void tearDown() {
    dns.close();
    loops.close();
  }

  private static HttpFetcher.Builder fetcher() {
    return HttpFetcher.builder().resolver(resolver).scheduler(loops).addressPolicy(AddressPolicy.allowPrivate())
        .connectTimeout(Duration.ofSeconds(5)).readTimeout(Duration.ofSeconds(10)).totalTimeout(Duration.ofSeconds(20));
  }

  private static Exchange get(HttpFetcher f, String url) {
    return Continuation.callOnThread(() -> f.fetch(URI.create(url), loopback));
  }

  /** @return the failure of resolving {@code url}, or null if it resolved */
  private static FetchException resolveFailure(HttpFetcher f, String url) {
    return Continuation.callOnThread(() -> {
      try {
        f.resolve(URI.create(url));
        return null;
      } catch (FetchException e) {
        return e;
      }
    });
  }

  private static String base(TestHttpServer s) {
    return "http://127.0.0.1:" + s.port();
  }

  @Test
  void fetch_ok_bodyAndWireBytesRecorded() throws Exception {
    try (TestHttpServer s = TestHttpServer.start("127.0.0.1", r -> Response.html("<p>hello</p>"));
        HttpFetcher f = fetcher().userAgent("test-agent/1").build()) {
      Exchange ex = get(f, base(s) + "/a?b=c");
      assertThat(ex.error()).isNull();
      assertThat(ex.status()).isEqualTo(200);
      assertThat(new String(ex.body(), StandardCharsets.UTF_8)).isEqualTo("<p>hello</p>");
      assertThat(ex.contentType()).isEqualTo("text/html");
      assertThat(new String(ex.requestBytes(), StandardCharsets.US_ASCII)).startsWith("GET /a?b=c HTTP/1.1\r\n")
          .contains("user-agent: test-agent/1");
      assertThat(new String(ex.responseBytes(), StandardCharsets.US_ASCII)).startsWith("HTTP/1.1 200 OK").endsWith("<p>hello</p>");
      assertThat(s.hits()).extracting(TestHttpServer.Hit::userAgent).containsExactly("test-agent/1");
    }
  }

  @Test
  void fetch_interimResponses_skippedForTheFinalOne_recordStartsAtIt() throws Exception {
    try (TestHttpServer s = TestHttpServer.start("127.0.0.1", r -> Response.html("<p>final</p>")
            .interim(100).interim(103, "Link", "</style.css>; rel=preload"));
        HttpFetcher f = fetcher().build()) {
      Exchange ex = get(f, base(s) + "/");
      assertThat(ex.error()).isNull();
      assertThat(ex.status()).isEqualTo(200);
      assertThat(new String(ex.body(), StandardCharsets.UTF_8)).isEqualTo("<p>final</p>");
      assertThat(new String(ex.responseBytes(), StandardCharsets.US_ASCII)).startsWith("HTTP/1.1 200 OK")
          .doesNotContain("rel=preload").endsWith("<p>final</p>");
      assertThat(get(f, base(s) + "/again").status()).as("the connection is reused after them").isEqualTo(200);
      assertThat(s.connections()).isEqualTo(1);
    }
  }

  @Test
  void fetch_endlessInterimResponses_protocolError() throws Exception {
    try (TestHttpServer s = TestHttpServer.start("127.0.0.1", r -> {
          Response resp = Response.html("never reached");
          for (int i = 0; i <= HttpFetcher.MAX_INTERIM_RESPONSES; i++) {
            resp.interim(103, "Link", "</" + i + ".css>; rel=preload");
          }
          return resp;
        });
        HttpFetcher f = fetcher().build()) {
      Exchange ex = get(f, base(s) + "/");
      assertThat(ex.error()).isNotNull();
      assertThat(ex.error().kind()).isEqualTo(FetchException.Kind.PROTOCOL);
      assertThat(ex.error().getMessage()).contains("more than " + HttpFetcher.MAX_INTERIM_RESPONSES + " interim (1xx)");
    }
  }

  @Test
  void fetch_threeRequests_reuseOneKeptAliveConnection() throws Exception {
    try (TestHttpServer s = TestHttpServer.start("127.0.0.1", r -> Response.html("x"));
        HttpFetcher f = fetcher().build()) {
      Exchange a = get(f, base(s) + "/1");
      Exchange b = get(f, base(s) + "/2");
      Exchange c = get(f, base(s) + "/3");
      assertThat(List.of(a.status(), b.status(), c.status())).containsOnly(200);
      assertThat(a.reusedConnection()).isFalse();
      assertThat(b.reusedConnection()).isTrue();
      assertThat(s.connections()).isEqualTo(1);
    }
  }

  @Test
  void fetch_serverClosesIdleConnection_retriesOnNewConnection() throws Exception {
    try (TestHttpServer s = TestHttpServer.start("127.0.0.1", r -> Response.html("x").close());
        HttpFetcher f = fetcher().build()) {
      assertThat(get(f, base(s) + "/1").status()).isEqualTo(200);
      assertThat(get(f, base(s) + "/2").status()).isEqualTo(200);
      assertThat(s.connections()).isEqualTo(2);
    }
  }

  private static byte[] gzip(byte[] data) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
      gz.write(data);
    }
    return out.toByteArray();
  }

  @Test
  void fetch_gzipBody_decodedAndWireBytesStayCompressed() throws Exception {
    byte[] z = gzip("<a href=x>compressed</a>".getBytes(StandardCharsets.UTF_8));
    try (TestHttpServer s = TestHttpServer.start("127.0.0.1",
            r -> Response.ok("text/html", z).header("Content-Encoding", "gzip"));
        HttpFetcher f = fetcher().build()) {
      Exchange ex = get(f, base(s) + "/");
      assertThat(ex.error()).isNull();
      assertThat(new String(ex.body(), StandardCharsets.UTF_8)).isEqualTo("<a href=x>compressed</a>");
      assertThat(ex.bodyBytes()).isEqualTo(z.length);
    }
  }

  @Test
  void fetch_gzipBomb_stopsAtDecompressedCap() throws Exception {
    byte[] bomb = gzip(new byte[20 * 1024 * 1024]);
    assertThat(bomb.length).isLessThan(100_000);
    try (TestHttpServer s = TestHttpServer.start("127.0.0.1",
            r -> Response.ok("text/html", bomb).header("Content-Encoding", "gzip"));
        HttpFetcher f = fetcher().maxDecompressedBytes(1024 * 1024).build()) {
      Exchange ex = get(f, base(s) + "/bomb");
      assertThat(ex.status()).isEqualTo(200);
      assertThat(ex.error()).isNotNull();
      assertThat(ex.error().kind()).isEqualTo(FetchException.Kind.BOMB);
      assertThat(ex.error().getMessage()).contains("maxDecompressedBytes 1048576");
    }
  }

  @Test
  void fetch_contentLengthOverCap_bodyTooLarge() throws Exception {
    try (TestHttpServer s = TestHttpServer.start("127.0.0.1", r -> Response.ok("text/html", new byte[50_000]));
        HttpFetcher f = fetcher().maxBodyBytes(10_000).build()) {
      Exchange ex = get(f, base(s) + "/big");
      assertThat(ex.error().kind()).isEqualTo(FetchException.Kind.BODY_TOO_LARGE);
      assertThat(ex.responseTruncated()).isTrue();
    }
  }

  @Test
  void fetch_chunkedBodyOverCap_bodyTooLargeAndBodyCut() throws Exception {
    try (TestHttpServer s = TestHttpServer.start("127.0.0.1", r -> Response.ok("text/html", new byte[60_000]).chunked());
        HttpFetcher f = fetcher().maxBodyBytes(10_000).build()) {
      Exchange ex = get(f, base(s) + "/big");
      assertThat(ex.error().kind()).isEqualTo(FetchException.Kind.BODY_TOO_LARGE);
      assertThat(ex.bodyBytes()).isEqualTo(10_000);
    }
  }

  @Test
  void fetch_serverSilent_readTimeout() throws Exception {
    try (TestHttpServer s = TestHttpServer.start("127.0.0.1", r -> Response.silent());
        HttpFetcher f = fetcher().readTimeout(Duration.ofMillis(300)).build()) {
      Exchange ex = get(f, base(s) + "/");
      assertThat(ex.error().kind()).isEqualTo(FetchException.Kind.TIMEOUT);
      assertThat(ex.error().getMessage()).contains("readTimeout");
      assertThat(s.requests()).as("the request arrived and was never answered").isEqualTo(1);
    }
  }

  static Stream<Arguments> slowBodies() {
    return Stream.of(
        Arguments.of("body never ends: total deadline", Response.html("x".repeat(200)).drip(1, 50),
            (UnaryOperator<HttpFetcher.Builder>) b -> b.minBytesPerSecond(0).totalTimeout(Duration.ofMillis(600)),
            FetchException.Kind.TIMEOUT, "totalTimeout"),
        Arguments.of("slow drip: slow error after the grace", Response.html("x".repeat(500)).drip(1, 100),
            (UnaryOperator<HttpFetcher.Builder>) b -> b.minBytesPerSecond(1000).slowGrace(Duration.ofMillis(400)),
            FetchException.Kind.SLOW, "minBytesPerSecond 1000"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("slowBodies")
  void fetch_slowBody_failsWithItsGuard(String name, Response response, UnaryOperator<HttpFetcher.Builder> options,
      FetchException.Kind kind, String message) throws Exception {
    try (TestHttpServer s = TestHttpServer.start("127.0.0.1", r -> response);
        HttpFetcher f = options.apply(fetcher()).build()) {
      Exchange ex = get(f, base(s) + "/");
      assertThat(ex.error().kind()).isEqualTo(kind);
      assertThat(ex.error().getMessage()).contains(message);
    }
  }

  @Test
  void fetchFollowing_endlessRedirects_stopsAtLimit() throws Exception {
    AtomicInteger n = new AtomicInteger();
    try (TestHttpServer s = TestHttpServer.start("127.0.0.1", r -> Response.redirect(302, "/r" + n.incrementAndGet()));
        HttpFetcher f = fetcher().maxRedirects(3).build()) {
      List<Exchange> hops = Continuation.callOnThread(() ->
          f.fetchFollowing(URI.create(base(s) + "/r0"), loopback, (from, to) -> null));
      assertThat(hops).hasSize(4);
      assertThat(hops.get(3).error().kind()).isEqualTo(FetchException.Kind.REDIRECT_LIMIT);
      assertThat(s.paths()).containsExactly("/r0", "/r1", "/r2", "/r3");
    }
  }

  @Test
  void fetchFollowing_checkRefusesTarget_targetNeverRequested() throws Exception {
    try (TestHttpServer s = TestHttpServer.start("127.0.0.1",
            r -> r.uri().equals("/from") ? Response.redirect(301, "/forbidden") : Response.html("no"));
        HttpFetcher f = fetcher().build()) {
      List<URI> offered = new java.util.ArrayList<>();
      List<Exchange> hops = Continuation.callOnThread(() -> f.fetchFollowing(URI.create(base(s) + "/from"), loopback,
          (from, to) -> {
            offered.add(to);
            return "disallowed";
          }));
      assertThat(hops).hasSize(1);
      assertThat(hops.get(0).status()).isEqualTo(301);
      assertThat(offered).containsExactly(URI.create(base(s) + "/forbidden"));
      assertThat(s.paths()).containsExactly("/from");
    }
  }

  @Test
  void fetchFollowing_targetDoesNotResolve_dnsErrorRecorded() throws Exception {
    try (TestHttpServer s = TestHttpServer.start("127.0.0.1", r -> Response.redirect(302, "http://nowhere.test:1/x"));
        HttpFetcher f = fetcher().build()) {
      List<Exchange> hops = Continuation.callOnThread(() ->
          f.fetchFollowing(URI.create(base(s) + "/"), loopback, (from, to) -> null));
      assertThat(hops).hasSize(2);
      assertThat(hops.get(1).uri()).isEqualTo(URI.create("http://nowhere.test:1/x"));
      assertThat(hops.get(1).error().kind()).isEqualTo(FetchException.Kind.DNS);
    }
  }

  @Test
  void resolve_privateAndMetadataAddressesWithoutAllowPrivate_blocked() throws Exception {
    dns.answer("public.test", "93.184.216.34");
    try (HttpFetcher f = fetcher().addressPolicy(AddressPolicy.publicOnly()).build()) {
      assertThat(resolveFailure(f, "http://public.test/")).isNull();
      FetchException e = resolveFailure(f, "http://localhost.test.invalid/");
      assertThat(e.kind()).isEqualTo(FetchException.Kind.DNS);
      dns.answer("inside.test", "10.0.0.7");
      FetchException blocked = resolveFailure(f, "http://inside.test/");
      assertThat(blocked.kind()).isEqualTo(FetchException.Kind.BLOCKED);
      assertThat(blocked.getMessage()).contains("10.0.0.7 is a private address");
      FetchException metadata = resolveFailure(f, "http://169.254.169.254/latest/");
      assertThat(metadata.kind()).isEqualTo(FetchException.Kind.BLOCKED);
    }
  }

  @Test
  void resolve_dnsServerSilent_dnsErrorNotHang() {
    dns.silent("mute.test");
    try (HttpFetcher f = fetcher().build()) {
      FetchException e = resolveFailure(f, "http://mute.test/");
      assertThat(e).isNotNull();
      assertThat(e.kind()).isEqualTo(FetchException.Kind.DNS);
      assertThat(dns.queries("mute.test")).isPositive();
    }
  }

  @Test
  void fetch_connectionRefused_connectError() throws Exception {
    int port;
    try (java.net.ServerSocket ss = new java.net.ServerSocket(0, 1, loopback)) {
      port = ss.getLocalPort();
    }
    try (HttpFetcher f = fetcher().build()) {
      Exchange ex = get(f, "http://127.0.0.1:" + port + "/");
      assertThat(ex.error().kind()).isEqualTo(FetchException.Kind.CONNECT);
      assertThat(ex.status()).isZero();
    }
  }

  @Test
  void fetch_untrustedCertificate_tlsErrorRecorded_trustedRootWorks() throws Exception {
    X509Bundle root = new CertificateBuilder().subject("CN=crawler test root").setIsCertificateAuthority(true)
        .buildSelfSigned();
    X509Bundle leaf = new CertificateBuilder().subject("CN=localhost").addSanDnsName("localhost")
        .addExtendedKeyUsageServerAuth().buildIssuedBy(root);
    dns.answer("localhost", "127.0.0.1");
    try (TestHttpServer s = TestHttpServer.startTls("127.0.0.1",
            SslContextBuilder.forServer(leaf.getKeyPair().getPrivate(), leaf.getCertificatePath()).build(),
            r -> Response.html("secret"));
        HttpFetcher untrusted = fetcher().build();
        HttpFetcher trusted = fetcher().trust(root.getCertificate()).build();
        HttpFetcher insecure = fetcher().insecure(true).build()) {
      String url = "https://localhost:" + s.port() + "/";
      Exchange bad = get(untrusted, url);
      assertThat(bad.error().kind()).isEqualTo(FetchException.Kind.TLS);
      Exchange good = get(trusted, url);
      assertThat(good.error()).isNull();
      assertThat(new String(good.body(), StandardCharsets.UTF_8)).isEqualTo("secret");
      assertThat(get(insecure, url).status()).isEqualTo(200);
    }
  }

  @Test
  void exchange_retryAfter_secondsParsed() throws Exception {
    try (TestHttpServer s = TestHttpServer.start("127.0.0.1", r -> Response.status(429).header("Retry-After", "7"));
        HttpFetcher f = fetcher().build()) {
      Exchange ex = get(f, base(s) + "/");
      assertThat(ex.status()).isEqualTo(429);
      assertThat(ex.retryAfter()).isEqualTo(Duration.ofSeconds(7));
    }
  }
}
