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
import org.netpreserve.jwarc.WarcRecord;
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
    return List.of(r, WarcOutput.response(u, resp, ip, Instant.now(), r.id(), false));
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
