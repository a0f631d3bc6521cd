package io.krill.httpd.files;

import static org.assertj.core.api.Assertions.assertThat;

import io.krill.fibers.FiberScheduler;
import io.krill.httpd.HttpServer;
import io.krill.testkit.RawHttp;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Gzip of static files never holds a carrier for long: each file version is compressed once
 * (cache) or in slices that yield (streamed), so clients that download a large file without
 * reading it do not stop the server from answering others; .gz siblings are served as they are.
 */
@Timeout(120)
class GzipTest {
  private static final FiberScheduler SCHEDULER = FiberScheduler.eventLoop(1);
  /** Non-reading gzip clients at once. */
  private static final int STALLED_CLIENTS = 20;

  @TempDir
  static Path root;
  static byte[] big;

  @BeforeAll
  static void files() throws IOException {
    StringBuilder b = new StringBuilder();
    for (int i = 0; b.length() < 16_000_000; i++) {
      b.append(i).append(',').append(Integer.toHexString(i * 7919)).append(",the quick brown fox,")
          .append(i % 97).append('\n');
    }
    big = b.toString().getBytes(StandardCharsets.US_ASCII);
    Files.write(root.resolve("big.csv"), big);
    Files.writeString(root.resolve("small.txt"), "small\n");
    Files.writeString(root.resolve("page.html"), "<p>identity</p>\n".repeat(200));
  }

  private static HttpServer start(StaticFiles.Builder files) throws IOException {
    return HttpServer.builder().port(0).scheduler(SCHEDULER).shutdownGrace(Duration.ofSeconds(1))
        .fallback(files.build()).build().start();
  }

  private static String get(String target, boolean gzip) {
    return "GET " + target + " HTTP/1.1\r\nHost: x\r\n" + (gzip ? "Accept-Encoding: gzip\r\n" : "") + "\r\n";
  }

  private static byte[] gunzip(byte[] b) throws IOException {
    try (InputStream in = new GZIPInputStream(new java.io.ByteArrayInputStream(b))) {
      return in.readAllBytes();
    }
  }

  @Test
  void cache_manyRequests_compressedOnceWithContentLength() throws Exception {
    FileHandler h = (FileHandler) StaticFiles.builder(root).build();
    try (HttpServer server = HttpServer.builder().port(0).scheduler(SCHEDULER).shutdownGrace(Duration.ofSeconds(1))
        .fallback(h).build().start(); RawHttp c = RawHttp.connect(server.port())) {
      for (int i = 0; i < 3; i++) {
        c.send(get("/big.csv", true));
        RawHttp.Response r = c.read();
        assertThat(r.header("content-encoding")).isEqualTo("gzip");
        assertThat(r.header("content-length")).isEqualTo(Integer.toString(r.body().length));
        assertThat(gunzip(r.body())).isEqualTo(big);
      }
      assertThat(h.gzipCache.compressions.get()).isEqualTo(1);
      c.send("HEAD /big.csv HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip\r\n\r\n");
      RawHttp.Response head = c.read(true);
      assertThat(head.header("content-length")).as("HEAD reports the cached length").isNotNull();
    }
  }

  @Test
  void cache_gzipLargerThanAQuarterOfIt_streamedChunked() throws Exception {
    FileHandler h = (FileHandler) StaticFiles.builder(root).gzipCacheBytes(64 * 1024).build();
    try (HttpServer server = HttpServer.builder().port(0).scheduler(SCHEDULER).shutdownGrace(Duration.ofSeconds(1))
        .fallback(h).build().start(); RawHttp c = RawHttp.connect(server.port())) {
      for (int i = 0; i < 2; i++) {
        c.send(get("/big.csv", true));
        RawHttp.Response r = c.read();
        assertThat(r.header("transfer-encoding")).isEqualTo("chunked");
        assertThat(gunzip(r.body())).isEqualTo(big);
      }
      assertThat(h.gzipCache.compressions.get()).as("too large once: not tried again").isEqualTo(1);
      assertThat(h.gzipCache.bytes()).isZero();
    }
  }

  /*
   * Clients that ask for a 16 MB file gzipped and never read: the server must still answer a
   * small GET on another connection. With the compression on the carrier (as it was, at level 6)
   * every stalled client compressed megabytes on the event loop before its socket filled, and the
   * small GET waited seconds; the bound here is generous against the milliseconds it takes now.
   */
  @ParameterizedTest(name = "gzip cache bytes {0}")
  @ValueSource(longs = {StaticFiles.Builder.DEFAULT_GZIP_CACHE_BYTES, 0})
  void stalledGzipDownloads_smallGetStillAnswered(long cacheBytes) throws Exception {
    FileHandler h = (FileHandler) StaticFiles.builder(root).gzipCacheBytes(cacheBytes).build();
    List<Socket> stalled = new ArrayList<>();
    try (HttpServer server = HttpServer.builder().port(0).scheduler(SCHEDULER).shutdownGrace(Duration.ofSeconds(1))
        .fallback(h).build().start()) {
      try {
        for (int i = 0; i < STALLED_CLIENTS; i++) {
          Socket s = new Socket("127.0.0.1", server.port());
          stalled.add(s);
          OutputStream out = s.getOutputStream();
          out.write(get("/big.csv", true).getBytes(StandardCharsets.US_ASCII));
          out.flush();
        }
        for (int round = 0; round < 5; round++) {
          try (RawHttp c = RawHttp.connect(new java.net.InetSocketAddress("127.0.0.1", server.port()),
              Duration.ofSeconds(5))) {
            c.send(get("/small.txt", false));
            assertThat(c.read().text()).isEqualTo("small\n");
          }
        }
        if (h.gzipCache != null) {
          assertThat(h.gzipCache.compressions.get()).isEqualTo(1);
        }
      } finally {
        for (Socket s : stalled) {
          s.close();
        }
      }
    }
  }

  @Test
  void gzStatic_siblingServedAsIsUnlessOlder() throws Exception {
    Path page = root.resolve("page.html");
    byte[] marker = gzip("<p>from the sibling</p>\n");
    Path gz = root.resolve("page.html.gz");
    Files.write(gz, marker);
    Files.setLastModifiedTime(page, FileTime.fromMillis(1_700_000_000_000L));
    Files.setLastModifiedTime(gz, FileTime.fromMillis(1_700_000_001_000L));
    try (HttpServer server = start(StaticFiles.builder(root)); RawHttp c = RawHttp.connect(server.port())) {
      c.send(get("/page.html", true));
      RawHttp.Response r = c.read();
      assertThat(r.header("content-encoding")).isEqualTo("gzip");
      assertThat(r.header("etag")).endsWith("-gzs" + Long.toHexString(marker.length) + "\"");
      assertThat(r.body()).isEqualTo(marker);
      c.send(get("/page.html", false));
      assertThat(c.read().text()).startsWith("<p>identity</p>");
      Files.setLastModifiedTime(gz, FileTime.fromMillis(1_600_000_000_000L)); // older than the file: stale
      c.send(get("/page.html", true));
      assertThat(new String(gunzip(c.read().body()), StandardCharsets.UTF_8)).startsWith("<p>identity</p>");
    } finally {
      Files.delete(gz);
    }
    try (HttpServer server = start(StaticFiles.builder(root).gzipStatic(false)); RawHttp c = RawHttp.connect(server.port())) {
      Files.write(gz, marker);
      c.send(get("/page.html", true));
      assertThat(new String(gunzip(c.read().body()), StandardCharsets.UTF_8)).startsWith("<p>identity</p>");
    } finally {
      Files.deleteIfExists(gz);
    }
  }

  private static byte[] gzip(String s) throws IOException {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    try (GZIPOutputStream out = new GZIPOutputStream(b)) {
      out.write(s.getBytes(StandardCharsets.UTF_8));
    }
    return b.toByteArray();
  }
}
