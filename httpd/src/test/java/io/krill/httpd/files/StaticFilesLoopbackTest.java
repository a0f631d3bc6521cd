package io.krill.httpd.files;

import static org.assertj.core.api.Assertions.assertThat;

import io.krill.fibers.FiberScheduler;
import io.krill.httpd.HttpServer;
import io.krill.netio.Tls;
import io.netty.pkitesting.CertificateBuilder;
import io.netty.pkitesting.X509Bundle;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.Arrays;
import java.util.Random;
import java.util.zip.GZIPInputStream;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The static-file handler behind a real server on loopback, spoken to by the JDK's HTTP client and raw sockets. */
@Timeout(60)
class StaticFilesLoopbackTest {
  private static final FiberScheduler SCHEDULER = FiberScheduler.eventLoop(1);
  private static final String SECRET = "TOP-SECRET-OUTSIDE-THE-ROOT";
  private static final long MTIME_SECONDS = 1_700_000_000L;

  @TempDir
  static Path tmp;

  static Path root;
  static byte[] data;
  static String text;
  static HttpServer server;
  static HttpClient client;

  @BeforeAll
  static void start() throws Exception {
    root = Files.createDirectory(tmp.resolve("www"));
    Path outside = Files.createDirectory(tmp.resolve("outside"));
    Files.writeString(outside.resolve("secret.txt"), SECRET);
    Files.writeString(tmp.resolve("secret.txt"), SECRET);
    data = new byte[100 * 1024];
    new Random(42).nextBytes(data);
    Files.write(root.resolve("data.bin"), data);
    text = "The quick brown fox jumps over the lazy dog.\n".repeat(300);
    Files.writeString(root.resolve("hello.txt"), text);
    Files.writeString(root.resolve("small.txt"), "hi\n");
    StringBuilder big = new StringBuilder();
    for (int i = 0; big.length() < 600_000; i++) {
      big.append("line ").append(i).append(": ").append(Integer.toHexString(i * 31)).append('\n');
    }
    Files.writeString(root.resolve("big.csv"), big);
    Files.writeString(root.resolve("index.html"), "<h1>root</h1>\n");
    Files.writeString(root.resolve("with space.txt"), "spaced\n");
    Files.writeString(root.resolve(".secret"), SECRET);
    Files.createDirectory(root.resolve("sub"));
    Files.writeString(root.resolve("sub/index.html"), "<h1>sub</h1>\n");
    Files.createDirectory(root.resolve("empty"));
    Files.createSymbolicLink(root.resolve("escape.txt"), outside.resolve("secret.txt"));
    Files.createSymbolicLink(root.resolve("escapedir"), outside);
    Files.createSymbolicLink(root.resolve("inside.txt"), root.resolve("small.txt"));
    for (String f : new String[] {"data.bin", "hello.txt", "small.txt"}) {
      Files.setLastModifiedTime(root.resolve(f), FileTime.fromMillis(MTIME_SECONDS * 1000));
    }
    server = HttpServer.builder().port(0).scheduler(SCHEDULER).shutdownGrace(Duration.ofSeconds(2))
        .fallback(StaticFiles.handler(root)).build().start();
    client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
  }

  @AfterAll
  static void stop() throws InterruptedException {
    server.close();
    // Closing the server closes every connection the client pooled: each connection's fiber must end.
    long deadline = System.nanoTime() + 10_000_000_000L;
    while (!SCHEDULER.liveFibers().isEmpty() && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
    assertThat(SCHEDULER.liveFibers()).isEmpty();
  }

  private static HttpResponse<byte[]> get(String path, String... headers) throws Exception {
    return send("GET", path, headers);
  }

  private static HttpResponse<byte[]> send(String method, String path, String... headers) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
        .method(method, HttpRequest.BodyPublishers.noBody());
    if (headers.length > 0) {
      b.headers(headers);
    }
    return client.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
  }

  private static String header(HttpResponse<?> r, String name) {
    return r.headers().firstValue(name).orElse(null);
  }

  @Test
  void get_file_bodyWithTypeLengthTagsAndRanges() throws Exception {
    HttpResponse<byte[]> r = get("/small.txt");
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(new String(r.body(), StandardCharsets.UTF_8)).isEqualTo("hi\n");
    assertThat(header(r, "Content-Type")).isEqualTo("text/plain; charset=utf-8");
    assertThat(header(r, "Content-Length")).isEqualTo("3");
    assertThat(header(r, "ETag")).matches("\"3-[0-9a-f]+\"");
    assertThat(header(r, "Last-Modified")).isEqualTo("Tue, 14 Nov 2023 22:13:20 GMT");
    assertThat(header(r, "Accept-Ranges")).isEqualTo("bytes");
    assertThat(get("/with%20space.txt").body()).isEqualTo("spaced\n".getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void get_largeBinary_zeroCopyPathSendsEveryByte() throws Exception {
    HttpResponse<byte[]> r = get("/data.bin");
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(header(r, "Content-Type")).isEqualTo("application/octet-stream");
    assertThat(r.body()).isEqualTo(data);
  }

  @Test
  void head_file_headersOfGetWithoutBody() throws Exception {
    HttpResponse<byte[]> r = send("HEAD", "/data.bin");
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(header(r, "Content-Length")).isEqualTo(Integer.toString(data.length));
    assertThat(header(r, "ETag")).isEqualTo(header(get("/data.bin"), "ETag"));
    assertThat(r.body()).isEmpty();
  }

  @Test
  void conditional_matchingTagOrDate_304WithoutBody() throws Exception {
    String tag = header(get("/hello.txt"), "ETag");
    HttpResponse<byte[]> r = get("/hello.txt", "If-None-Match", "\"other\", " + tag);
    assertThat(r.statusCode()).isEqualTo(304);
    assertThat(r.body()).isEmpty();
    assertThat(header(r, "ETag")).isEqualTo(tag);
    assertThat(get("/hello.txt", "If-None-Match", "W/" + tag).statusCode()).isEqualTo(304);
    assertThat(get("/hello.txt", "If-None-Match", "\"other\"").statusCode()).isEqualTo(200);
    assertThat(get("/hello.txt", "If-Modified-Since", "Tue, 14 Nov 2023 22:13:20 GMT").statusCode()).isEqualTo(304);
    assertThat(get("/hello.txt", "If-Modified-Since", "Wed, 15 Nov 2023 00:00:00 GMT").statusCode()).isEqualTo(304);
    assertThat(get("/hello.txt", "If-Modified-Since", "Tue, 14 Nov 2023 22:13:19 GMT").statusCode()).isEqualTo(200);
    assertThat(get("/hello.txt", "If-Modified-Since", "not a date").statusCode()).isEqualTo(200);
    // If-None-Match wins over If-Modified-Since
    assertThat(get("/hello.txt", "If-None-Match", "\"other\"", "If-Modified-Since", "Wed, 15 Nov 2023 00:00:00 GMT")
        .statusCode()).isEqualTo(200);
    assertThat(get("/hello.txt", "If-Match", "\"other\"").statusCode()).isEqualTo(412);
    assertThat(get("/hello.txt", "If-Match", tag).statusCode()).isEqualTo(200);
  }

  @Test
  void range_single_206WithContentRangeAndSlice() throws Exception {
    HttpResponse<byte[]> r = get("/data.bin", "Range", "bytes=10-19");
    assertThat(r.statusCode()).isEqualTo(206);
    assertThat(header(r, "Content-Range")).isEqualTo("bytes 10-19/102400");
    assertThat(r.body()).isEqualTo(Arrays.copyOfRange(data, 10, 20));
    HttpResponse<byte[]> suffix = get("/data.bin", "Range", "bytes=-100");
    assertThat(header(suffix, "Content-Range")).isEqualTo("bytes 102300-102399/102400");
    assertThat(suffix.body()).isEqualTo(Arrays.copyOfRange(data, 102300, 102400));
    HttpResponse<byte[]> open = get("/data.bin", "Range", "bytes=100000-");
    assertThat(open.body()).isEqualTo(Arrays.copyOfRange(data, 100000, 102400));
  }

  @Test
  void range_pastEnd_416WithSize() throws Exception {
    HttpResponse<byte[]> r = get("/data.bin", "Range", "bytes=200000-");
    assertThat(r.statusCode()).isEqualTo(416);
    assertThat(header(r, "Content-Range")).isEqualTo("bytes */102400");
    assertThat(r.body()).isEmpty();
  }

  @Test
  void range_multipleOrStaleIfRange_wholeFile200() throws Exception {
    HttpResponse<byte[]> multi = get("/data.bin", "Range", "bytes=0-1,5-6");
    assertThat(multi.statusCode()).isEqualTo(200);
    assertThat(multi.body()).isEqualTo(data);
    String tag = header(multi, "ETag");
    assertThat(get("/data.bin", "Range", "bytes=0-1", "If-Range", "\"stale\"").statusCode()).isEqualTo(200);
    assertThat(get("/data.bin", "Range", "bytes=0-1", "If-Range", tag).statusCode()).isEqualTo(206);
    assertThat(get("/data.bin", "Range", "bytes=0-1", "If-Range", "Tue, 14 Nov 2023 22:13:20 GMT").statusCode())
        .isEqualTo(206);
    assertThat(get("/data.bin", "Range", "bytes=0-1", "If-Range", "Tue, 14 Nov 2023 22:13:21 GMT").statusCode())
        .isEqualTo(200);
  }

  @Test
  void gzip_textWhenAccepted_compressedStreamWithOwnTag() throws Exception {
    HttpResponse<byte[]> r = get("/hello.txt", "Accept-Encoding", "br, gzip");
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(header(r, "Content-Encoding")).isEqualTo("gzip");
    assertThat(header(r, "Vary")).isEqualTo("Accept-Encoding");
    assertThat(header(r, "ETag")).endsWith("-gz1\""); // level 1 by default
    assertThat(r.body().length).isLessThan(text.length() / 4);
    try (InputStream in = new GZIPInputStream(new java.io.ByteArrayInputStream(r.body()))) {
      assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8)).isEqualTo(text);
    }
    assertThat(get("/hello.txt", "If-None-Match", header(r, "ETag"), "Accept-Encoding", "gzip").statusCode())
        .isEqualTo(304);
    HttpResponse<byte[]> head = send("HEAD", "/hello.txt", "Accept-Encoding", "gzip");
    assertThat(header(head, "Content-Encoding")).isEqualTo("gzip");
    assertThat(head.body()).isEmpty();
  }

  @Test
  void gzip_largeText_cachedWithLengthDecompressesToTheFile() throws Exception {
    byte[] file = Files.readAllBytes(root.resolve("big.csv"));
    HttpResponse<byte[]> r = get("/big.csv", "Accept-Encoding", "gzip");
    assertThat(header(r, "Content-Encoding")).isEqualTo("gzip");
    assertThat(header(r, "Content-Type")).isEqualTo("text/csv; charset=utf-8");
    assertThat(header(r, "Content-Length")).isEqualTo(Integer.toString(r.body().length));
    try (InputStream in = new GZIPInputStream(new java.io.ByteArrayInputStream(r.body()))) {
      assertThat(in.readAllBytes()).isEqualTo(file);
    }
  }

  @Test
  void gzip_notAcceptedSmallBinaryOrRange_identity() throws Exception {
    HttpResponse<byte[]> plain = get("/hello.txt");
    assertThat(header(plain, "Content-Encoding")).isNull();
    assertThat(header(plain, "Vary")).isEqualTo("Accept-Encoding");
    assertThat(plain.body()).isEqualTo(text.getBytes(StandardCharsets.UTF_8));
    assertThat(header(get("/hello.txt", "Accept-Encoding", "gzip;q=0"), "Content-Encoding")).isNull();
    assertThat(header(get("/small.txt", "Accept-Encoding", "gzip"), "Content-Encoding")).isNull();
    assertThat(header(get("/data.bin", "Accept-Encoding", "gzip"), "Content-Encoding")).isNull();
    HttpResponse<byte[]> range = get("/hello.txt", "Accept-Encoding", "gzip", "Range", "bytes=4-8");
    assertThat(range.statusCode()).isEqualTo(206);
    assertThat(header(range, "Content-Encoding")).isNull();
    assertThat(new String(range.body(), StandardCharsets.UTF_8)).isEqualTo("quick");
  }

  @Test
  void directory_indexFileOr404() throws Exception {
    assertThat(new String(get("/").body(), StandardCharsets.UTF_8)).isEqualTo("<h1>root</h1>\n");
    assertThat(header(get("/"), "Content-Type")).isEqualTo("text/html; charset=utf-8");
    assertThat(new String(get("/sub/").body(), StandardCharsets.UTF_8)).isEqualTo("<h1>sub</h1>\n");
    assertThat(get("/empty/").statusCode()).isEqualTo(404);
    assertThat(get("/small.txt/").statusCode()).isEqualTo(404);
    assertThat(get("/absent.txt").statusCode()).isEqualTo(404);
  }

  @Test
  void directory_withoutTrailingSlash_301ToTheSlashForm() throws Exception {
    HttpResponse<byte[]> r = get("/sub");
    assertThat(r.statusCode()).isEqualTo(301);
    assertThat(header(r, "Location")).isEqualTo("/sub/");
    assertThat(header(get("/sub?a=1&b"), "Location")).isEqualTo("/sub/?a=1&b");
    assertThat(header(get("/empty"), "Location")).isEqualTo("/empty/");
    // a path that starts with two slashes must not become a redirect to another host
    assertThat(raw("GET //sub HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"))
        .startsWith("HTTP/1.1 301").contains("\r\nlocation: /sub/\r\n");
    assertThat(get("/escapedir").statusCode()).isEqualTo(404); // a directory outside the root
    assertThat(get("/small.txt").statusCode()).isEqualTo(200);
  }

  @Test
  void ifUnmodifiedSince_modifiedLater412_elseServed() throws Exception {
    assertThat(get("/hello.txt", "If-Unmodified-Since", "Tue, 14 Nov 2023 22:13:19 GMT").statusCode()).isEqualTo(412);
    assertThat(get("/hello.txt", "If-Unmodified-Since", "Tue, 14 Nov 2023 22:13:20 GMT").statusCode()).isEqualTo(200);
    assertThat(get("/hello.txt", "If-Unmodified-Since", "not a date").statusCode()).isEqualTo(200);
    String tag = header(get("/hello.txt"), "ETag");
    // If-Match, when present, is evaluated instead (RFC 9110 13.2.2)
    assertThat(get("/hello.txt", "If-Match", tag, "If-Unmodified-Since", "Tue, 14 Nov 2023 22:13:19 GMT")
        .statusCode()).isEqualTo(200);
  }

  @Test
  void headerNames_allInLowerCase() throws Exception {
    for (String target : new String[] {"/small.txt", "/hello.txt", "/sub", "/absent.txt"}) {
      String response = raw("GET " + target + " HTTP/1.1\r\nHost: localhost\r\nAccept-Encoding: gzip\r\n"
          + "Connection: close\r\n\r\n");
      String head = response.substring(0, response.indexOf("\r\n\r\n"));
      String[] lines = head.split("\r\n");
      assertThat(lines.length).as(target).isGreaterThan(3);
      for (int i = 1; i < lines.length; i++) {
        String name = lines[i].substring(0, lines[i].indexOf(':'));
        assertThat(name).as(target + ": " + lines[i]).isEqualTo(name.toLowerCase(java.util.Locale.ROOT));
      }
    }
  }

  @Test
  void otherMethods_405WithAllow() throws Exception {
    HttpResponse<byte[]> r = send("DELETE", "/small.txt");
    assertThat(r.statusCode()).isEqualTo(405);
    assertThat(header(r, "Allow")).isEqualTo("GET, HEAD");
  }

  @Test
  void symlinks_outOfRootRefusedInsideServed() throws Exception {
    HttpResponse<byte[]> out = get("/escape.txt");
    assertThat(out.statusCode()).isEqualTo(404);
    assertThat(new String(out.body(), StandardCharsets.UTF_8)).doesNotContain(SECRET);
    assertThat(get("/escapedir/secret.txt").statusCode()).isEqualTo(404);
    assertThat(get("/escapedir/").statusCode()).isEqualTo(404);
    assertThat(new String(get("/inside.txt").body(), StandardCharsets.UTF_8)).isEqualTo("hi\n");
  }

  @Test
  void hostileTargets_rawRequestLines_neverServed() throws Exception {
    for (String target : PathResolverTest.HOSTILE) {
      if (target.isEmpty()) {
        continue; // no request line has an empty target
      }
      String response = raw("GET " + target + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
      assertThat(response).as(target).doesNotContain(SECRET).doesNotContain("root:");
      assertThat(response.substring(0, 12)).as(target).isIn("HTTP/1.1 404", "HTTP/1.1 400");
    }
    String hidden = raw("GET /.secret HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
    assertThat(hidden).startsWith("HTTP/1.1 404").doesNotContain(SECRET);
  }

  @Test
  void tls_fileSentThroughTheSslHandler_everyByte() throws Exception {
    X509Bundle cert = new CertificateBuilder().subject("CN=localhost").addSanIpAddress("127.0.0.1")
        .addExtendedKeyUsageServerAuth().setIsCertificateAuthority(true).buildSelfSigned();
    Tls tls = Tls.server(cert.getKeyPair().getPrivate(), cert.getCertificatePath());
    try (HttpServer tlsServer = HttpServer.builder().port(0).scheduler(SCHEDULER).shutdownGrace(Duration.ofSeconds(2))
        .tls(tls).fallback(StaticFiles.handler(root)).build().start()) {
      SSLContext ssl = SSLContext.getInstance("TLS");
      ssl.init(null, cert.toTrustManagerFactory().getTrustManagers(), null);
      HttpClient tlsClient = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).sslContext(ssl).build();
      URI uri = URI.create("https://127.0.0.1:" + tlsServer.port() + "/data.bin");
      HttpResponse<byte[]> whole = tlsClient.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofByteArray());
      assertThat(whole.body()).isEqualTo(data);
      HttpResponse<byte[]> held = tlsClient.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofByteArray());
      assertThat(held.body()).as("again, from the bytes the file cache holds").isEqualTo(data);
      HttpResponse<byte[]> part = tlsClient.send(HttpRequest.newBuilder(uri).header("Range", "bytes=50000-50009").build(),
          HttpResponse.BodyHandlers.ofByteArray());
      assertThat(part.statusCode()).isEqualTo(206);
      assertThat(part.body()).isEqualTo(Arrays.copyOfRange(data, 50000, 50010));
    }
  }

  /** Sends exact bytes and reads until the server closes. */
  private static String raw(String request) throws IOException {
    try (Socket s = new Socket("127.0.0.1", server.port())) {
      s.setSoTimeout(10_000);
      OutputStream out = s.getOutputStream();
      out.write(request.getBytes(StandardCharsets.ISO_8859_1));
      out.flush();
      ByteArrayOutputStream b = new ByteArrayOutputStream();
      s.getInputStream().transferTo(b);
      return b.toString(StandardCharsets.ISO_8859_1);
    }
  }
}
