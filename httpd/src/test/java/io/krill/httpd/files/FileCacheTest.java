package io.krill.httpd.files;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.krill.fibers.FiberScheduler;
import io.krill.httpd.HttpServer;
import io.krill.httpd.http2.Http2Options;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The static-file handler's file cache behind a real server: a path served again comes from the
 * cache with the same headers, and a file that changed (size, content with a new modification
 * time, deleted) is never served stale.
 */
@Timeout(60)
class FileCacheTest {
  @TempDir
  Path root;

  private final FiberScheduler scheduler = FiberScheduler.eventLoop(1);
  private HttpServer server;
  private FileHandler handler;
  private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

  @BeforeEach
  void start() throws Exception {
    handler = (FileHandler) StaticFiles.builder(root).build();
    server = HttpServer.builder().port(0).scheduler(scheduler).shutdownGrace(Duration.ofSeconds(1)).fallback(handler)
        .build().start();
  }

  @AfterEach
  void stop() {
    server.close();
    scheduler.close();
  }

  private HttpResponse<String> send(String method, String path, String... headers) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
        .method(method, HttpRequest.BodyPublishers.noBody()).timeout(Duration.ofSeconds(20));
    if (headers.length > 0) {
      b.headers(headers);
    }
    return client.send(b.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.ISO_8859_1));
  }

  @Test
  void cachedPath_sameAnswerAsFirst_andChangesAreSeenAtOnce() throws Exception {
    Path f = root.resolve("a.bin");
    Files.writeString(f, "first\n");
    Files.setLastModifiedTime(f, FileTime.fromMillis(1_700_000_000_000L));
    HttpResponse<String> first = send("GET", "/a.bin");
    assertThat(handler.fileCache.size()).isEqualTo(1);
    assertThat(handler.fileCache.bodyBytes()).isEqualTo(6);
    HttpResponse<String> second = send("GET", "/a.bin");
    assertThat(second.statusCode()).isEqualTo(200);
    assertThat(second.body()).isEqualTo("first\n").isEqualTo(first.body());
    for (String h : new String[] {"content-type", "etag", "last-modified", "accept-ranges", "content-length"}) {
      assertThat(second.headers().allValues(h)).as(h).isEqualTo(first.headers().allValues(h));
    }
    assertThat(second.headers().firstValue("vary")).isEmpty();
    // Conditional and HEAD requests are answered from the entry too.
    String tag = first.headers().firstValue("etag").orElseThrow();
    assertThat(send("GET", "/a.bin", "If-None-Match", tag).statusCode()).isEqualTo(304);
    assertThat(send("GET", "/a.bin", "If-Match", "\"other\"").statusCode()).isEqualTo(412);
    HttpResponse<String> head = send("HEAD", "/a.bin");
    assertThat(head.headers().firstValue("content-length")).hasValue("6");
    assertThat(head.body()).isEmpty();
    assertThat(send("GET", "/a.bin", "Range", "bytes=1-2").body()).isEqualTo("ir");

    // Another size: read again at once.
    Files.writeString(f, "second, longer\n");
    assertThat(send("GET", "/a.bin").body()).isEqualTo("second, longer\n");
    // The same size with another modification time: read again.
    Files.writeString(f, "SECOND, LONGER\n");
    Files.setLastModifiedTime(f, FileTime.fromMillis(1_700_000_001_000L));
    HttpResponse<String> third = send("GET", "/a.bin");
    assertThat(third.body()).isEqualTo("SECOND, LONGER\n");
    assertThat(third.headers().firstValue("etag")).isNotEqualTo(first.headers().firstValue("etag"));
    assertThat(handler.fileCache.bodyBytes()).isEqualTo(15);
    // Deleted: 404, and the entry is gone.
    Files.delete(f);
    assertThat(send("GET", "/a.bin").statusCode()).isEqualTo(404);
    assertThat(handler.fileCache.size()).isZero();
    assertThat(handler.fileCache.bodyBytes()).isZero();
  }

  @Test
  void compressibleCachedPath_gzipStillServedToClientsThatAcceptIt() throws Exception {
    Files.writeString(root.resolve("t.txt"), "text worth compressing\n".repeat(200));
    assertThat(send("GET", "/t.txt").headers().firstValue("content-encoding")).isEmpty();
    HttpResponse<String> gz = send("GET", "/t.txt", "Accept-Encoding", "gzip");
    assertThat(gz.headers().firstValue("content-encoding")).hasValue("gzip");
    HttpResponse<String> plain = send("GET", "/t.txt");
    assertThat(plain.headers().firstValue("content-encoding")).isEmpty();
    assertThat(plain.headers().firstValue("vary").orElseThrow()).isEqualToIgnoringCase("accept-encoding");
    assertThat(plain.body()).hasSize(23 * 200);
  }

  @Test
  void gzSibling_keepsTheIdentityEntryFromAnsweringGzipClients() throws Exception {
    Files.write(root.resolve("b.bin"), new byte[] {1, 2, 3});
    Files.write(root.resolve("b.bin.gz"), new byte[] {9, 9});
    assertThat(send("GET", "/b.bin").body()).hasSize(3);
    HttpResponse<String> gz = send("GET", "/b.bin", "Accept-Encoding", "gzip");
    assertThat(gz.headers().firstValue("content-encoding")).hasValue("gzip");
    assertThat(gz.body()).hasSize(2);
  }

  @Test
  void largeFile_pathRememberedButBytesNot() throws Exception {
    int size = (int) StaticFiles.Builder.DEFAULT_FILE_CACHE_MAX_FILE_BYTES + 1;
    Files.write(root.resolve("big.bin"), new byte[size]);
    assertThat(send("GET", "/big.bin").body()).hasSize(size);
    assertThat(send("GET", "/big.bin").body()).hasSize(size);
    assertThat(handler.fileCache.size()).isEqualTo(1);
    assertThat(handler.fileCache.bodyBytes()).isZero();
  }

  @Test
  void fileOverTheHeapBound_heldInDirectMemory_servedWholeAndChangesSeen() throws Exception {
    Path f = root.resolve("mid.bin");
    byte[] first = random(200_000, 1);
    Files.write(f, first);
    Files.setLastModifiedTime(f, FileTime.fromMillis(1_700_000_000_000L));
    assertThat(send("GET", "/mid.bin").body().getBytes(StandardCharsets.ISO_8859_1)).isEqualTo(first);
    assertThat(handler.fileCache.bodyBytes()).isEqualTo(first.length);
    assertThat(send("GET", "/mid.bin").body().getBytes(StandardCharsets.ISO_8859_1)).isEqualTo(first);
    byte[] second = random(150_000, 2);
    Files.write(f, second);
    Files.setLastModifiedTime(f, FileTime.fromMillis(1_700_000_100_000L));
    assertThat(send("GET", "/mid.bin").body().getBytes(StandardCharsets.ISO_8859_1)).isEqualTo(second);
    assertThat(handler.fileCache.bodyBytes()).isEqualTo(second.length);
  }

  @Test
  void maxFileBytes_zeroHoldsNoBytes_andOutOfRangeRejectedNamingTheSetting() throws Exception {
    assertThatThrownBy(() -> StaticFiles.builder(root).fileCacheMaxFileBytes(-1))
        .hasMessage("fileCacheMaxFileBytes: -1 (expected: 0..1073741824)");
    assertThatThrownBy(() -> StaticFiles.builder(root).fileCacheMaxFileBytes((1L << 30) + 1))
        .hasMessageStartingWith("fileCacheMaxFileBytes: 1073741825");
    FileHandler none = (FileHandler) StaticFiles.builder(root).fileCacheMaxFileBytes(0).build();
    try (HttpServer s = HttpServer.builder().port(0).scheduler(scheduler).shutdownGrace(Duration.ofSeconds(1))
        .fallback(none).build().start()) {
      Files.writeString(root.resolve("a.txt"), "abc");
      HttpResponse<String> r = client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + s.port() + "/a.txt"))
          .timeout(Duration.ofSeconds(20)).build(), HttpResponse.BodyHandlers.ofString());
      assertThat(r.body()).isEqualTo("abc");
      assertThat(none.fileCache.size()).isEqualTo(1);
      assertThat(none.fileCache.bodyBytes()).isZero();
    }
  }

  /*
   * Over HTTP/2 the held bytes are the body: many streams of one connection at once send views
   * of the one buffer, each cut into DATA frames by the peer's windows, every byte in place.
   */
  @Test
  void heldFile_overH2_manyConcurrentStreamsEachWhole() throws Exception {
    byte[] data = random(700_000, 3);
    Files.write(root.resolve("h2.bin"), data);
    try (HttpServer h2 = HttpServer.builder().port(0).scheduler(scheduler).shutdownGrace(Duration.ofSeconds(1))
        .http2(Http2Options.defaults()).fallback(handler).build().start()) {
      HttpClient c = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).build();
      URI uri = URI.create("http://127.0.0.1:" + h2.port() + "/h2.bin");
      HttpResponse<byte[]> first = c.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(20)).build(),
          HttpResponse.BodyHandlers.ofByteArray()); // h2c by Upgrade; caches the file
      assertThat(first.body()).isEqualTo(data);
      assertThat(handler.fileCache.bodyBytes()).isEqualTo(data.length);
      List<CompletableFuture<HttpResponse<byte[]>>> all = new ArrayList<>();
      for (int i = 0; i < 20; i++) {
        all.add(c.sendAsync(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30)).build(),
            HttpResponse.BodyHandlers.ofByteArray()));
      }
      for (CompletableFuture<HttpResponse<byte[]>> f : all) {
        HttpResponse<byte[]> r = f.get(40, TimeUnit.SECONDS);
        assertThat(r.version()).isEqualTo(HttpClient.Version.HTTP_2);
        assertThat(r.headers().firstValue("content-length")).hasValue(String.valueOf(data.length));
        assertThat(r.body()).isEqualTo(data);
      }
      HttpResponse<byte[]> head = c.send(HttpRequest.newBuilder(uri).method("HEAD", HttpRequest.BodyPublishers.noBody())
          .timeout(Duration.ofSeconds(20)).build(), HttpResponse.BodyHandlers.ofByteArray());
      assertThat(head.headers().firstValue("content-length")).hasValue(String.valueOf(data.length));
      assertThat(head.body()).isEmpty();
    }
  }

  private static byte[] random(int n, long seed) {
    byte[] b = new byte[n];
    new Random(seed).nextBytes(b);
    return b;
  }
}
