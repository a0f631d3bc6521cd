package io.krill.crawler.output;

import static org.assertj.core.api.Assertions.assertThat;

import io.krill.crawler.CrawlOutput;
import java.net.InetAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.netpreserve.jwarc.WarcReader;
import org.netpreserve.jwarc.WarcRecord;
import org.netpreserve.jwarc.Warcinfo;
import org.netpreserve.jwarc.WarcRequest;

class WarcOutputTest {
  @TempDir
  Path dir;

  private static List<WarcRecord> exchange(int i) throws Exception {
    URI u = URI.create("http://a.test/" + i);
    byte[] req = ("GET /" + i + " HTTP/1.1\r\nHost: a.test\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
    byte[] resp = ("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello").getBytes(StandardCharsets.US_ASCII);
    InetAddress ip = InetAddress.getByName("127.0.0.2");
    WarcRequest r = WarcOutput.request(u, req, ip, Instant.now());
    return List.of(r, WarcOutput.response(u, resp, ip, Instant.now(), r.id(), null));
  }

  @Test
  void append_pastMaxSize_rotatesAndEveryFileValid() throws Exception {
    try (WarcOutput w = new WarcOutput(dir, 2000, true, null)) {
      for (int i = 0; i < 20; i++) {
        w.append(exchange(i));
      }
      assertThat(w.fileCount()).isGreaterThan(2);
    }
    List<String> records = CrawlOutput.validateWarcs(dir);
    assertThat(records.stream().filter(r -> r.startsWith("response")).count()).isEqualTo(20);
  }

  @Test
  void append_everyRecord_sameWarcVersionAsTheWarcinfoFormat() throws Exception {
    try (WarcOutput w = new WarcOutput(dir, 1 << 20, false, null)) {
      w.append(exchange(1));
      w.append(List.of(WarcOutput.dns("a.test", List.of(InetAddress.getByName("127.0.0.2")), Instant.now())));
    }
    List<String> versions = new java.util.ArrayList<>();
    String format = null;
    try (java.util.stream.Stream<Path> files = Files.list(dir);
        WarcReader r = new WarcReader(files.filter(p -> p.toString().endsWith(".warc")).findFirst().orElseThrow())) {
      for (WarcRecord rec : r) {
        versions.add(rec.version().toString());
        if (rec instanceof Warcinfo) {
          format = ((Warcinfo) rec).fields().first("format").orElse(null);
        }
      }
    }
    assertThat(versions).hasSize(4).containsOnly("WARC/1.1");
    assertThat(format).isEqualTo("WARC File Format 1.1");
  }

  @Test
  void resume_partialTrailingRecord_cutAtLastDurablePosition() throws Exception {
    WarcOutput.Position durable;
    try (WarcOutput w = new WarcOutput(dir, 1 << 20, false, null)) {
      durable = w.append(exchange(1));
    }
    Path f = dir.resolve(durable.file());
    Files.write(f, "WARC/1.1\r\nWARC-Type: response\r\nContent-Le".getBytes(StandardCharsets.US_ASCII),
        StandardOpenOption.APPEND);
    try (WarcOutput w = new WarcOutput(dir, 1 << 20, false, durable)) {
      assertThat(Files.size(f)).isEqualTo(durable.end());
      w.append(exchange(2));
    }
    List<String> records = CrawlOutput.validateWarcs(dir);
    assertThat(records).containsExactly("warcinfo ", "request http://a.test/1", "response http://a.test/1",
        "request http://a.test/2", "response http://a.test/2");
  }

  /* A page of words from a small vocabulary: compressible, but not trivially. */
  private static List<WarcRecord> bigExchange(int i) throws Exception {
    java.util.Random random = new java.util.Random(i);
    String[] words = {"crawl", "fiber", "krill", "netty", "frontier", "robots", "warc", "gzip", "host", "page"};
    StringBuilder body = new StringBuilder("<html><body>");
    while (body.length() < 40_000) {
      body.append(words[random.nextInt(words.length)]).append(random.nextInt(4) == 0 ? "</p><p>" : " ");
    }
    URI u = URI.create("http://b.test/" + i);
    byte[] resp = ("HTTP/1.1 200 OK\r\nContent-Length: " + body.length() + "\r\n\r\n" + body)
        .getBytes(StandardCharsets.US_ASCII);
    return List.of(WarcOutput.response(u, resp, InetAddress.getByName("127.0.0.2"), Instant.now(), null, null));
  }

  @Test
  void gzipLevel_fastestAndSmallest_sameRecordsEachItsOwnMember() throws Exception {
    long[] sizes = new long[2];
    int[] levels = {1, 9};
    for (int k = 0; k < 2; k++) {
      Path d = Files.createDirectories(dir.resolve("level" + levels[k]));
      try (WarcOutput w = new WarcOutput(d, 1 << 30, levels[k], null)) {
        for (int i = 0; i < 5; i++) {
          w.append(exchange(i));
          w.append(bigExchange(i));
        }
      }
      List<String> records = CrawlOutput.validateWarcs(d);
      assertThat(records).hasSize(1 + 5 * 3).startsWith("warcinfo ");
      assertThat(records.stream().filter(r -> r.startsWith("response http://b.test/")).count()).isEqualTo(5);
      Path f = d.resolve("crawl-00000.warc.gz");
      sizes[k] = Files.size(f);
      byte[] bytes = Files.readAllBytes(f);
      assertThat(bytes[8]).as("XFL").isEqualTo((byte) (levels[k] == 1 ? 4 : 2));
      // Random access: every record offset the reader reports starts a gzip member of its own.
      List<Long> offsets = new java.util.ArrayList<>();
      try (org.netpreserve.jwarc.WarcReader r = new org.netpreserve.jwarc.WarcReader(f)) {
        while (r.next().isPresent()) {
          offsets.add(r.position());
        }
      }
      assertThat(offsets).hasSize(records.size());
      for (long at : offsets) {
        try (java.util.zip.GZIPInputStream in = new java.util.zip.GZIPInputStream(
            new java.io.ByteArrayInputStream(bytes, (int) at, bytes.length - (int) at))) {
          assertThat(new String(in.readNBytes(7), StandardCharsets.US_ASCII)).isEqualTo("WARC/1.");
        }
      }
    }
    assertThat(sizes[1]).as("level 9 smaller than level 1").isLessThan(sizes[0]);
  }

  @Test
  void gzipLevel_outOfRange_rejectedNamingTheField() {
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> new WarcOutput(dir, 1 << 20, 10, null))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("warcGzipLevel: 10 (expected: 0..9)");
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> new WarcOutput(dir, 1 << 20, -1, null))
        .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("warcGzipLevel: -1");
  }

  @Test
  void lineOutput_partialLastLine_droppedOnOpen() throws Exception {
    Path f = dir.resolve("x.jsonl");
    Files.writeString(f, "{\"a\":1}\n{\"b\":");
    try (LineOutput o = new LineOutput(f, -1)) {
      o.append(List.of("{\"c\":3}"));
    }
    assertThat(Files.readAllLines(f)).containsExactly("{\"a\":1}", "{\"c\":3}");
  }
}
