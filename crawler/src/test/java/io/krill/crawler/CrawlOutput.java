package io.krill.crawler;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.netpreserve.jwarc.WarcDigest;
import org.netpreserve.jwarc.WarcReader;
import org.netpreserve.jwarc.WarcRecord;
import org.netpreserve.jwarc.WarcRequest;
import org.netpreserve.jwarc.WarcResponse;

/** Reads a crawl's output back for assertions: JSONL fields and a jwarc validation of every WARC record. */
public final class CrawlOutput {
  private static final Pattern FIELD = Pattern.compile("\"(url|kind|status|error)\":(\"((?:[^\"\\\\]|\\\\.)*)\"|null|-?\\d+)");

  /** One JSONL line's main fields. */
  public record Line(String url, String kind, int status, String error) {}

  private CrawlOutput() {}

  public static List<Line> jsonl(Path dir) throws IOException {
    List<Line> out = new ArrayList<>();
    for (String l : Files.readAllLines(dir.resolve("crawl.jsonl"), StandardCharsets.UTF_8)) {
      assertThat(l).startsWith("{").endsWith("}");
      String url = null;
      String kind = null;
      String error = null;
      int status = -1;
      Matcher m = FIELD.matcher(l);
      while (m.find()) {
        String v = m.group(3) != null ? m.group(3) : m.group(2).equals("null") ? null : m.group(2);
        switch (m.group(1)) {
          case "url": url = v; break;
          case "kind": kind = v; break;
          case "status": status = Integer.parseInt(v); break;
          default: error = v;
        }
      }
      out.add(new Line(url, kind, status, error));
    }
    return out;
  }

  /**
   * Reads every record of every WARC file with jwarc, checks each block digest and that every
   * request and response parses as HTTP: the checks {@code jwarc validate} makes.
   *
   * @return the records' types and target URIs, "type target"
   */
  public static List<String> validateWarcs(Path dir) throws IOException {
    List<String> out = new ArrayList<>();
    List<Path> files;
    try (Stream<Path> s = Files.list(dir)) {
      files = s.filter(p -> p.getFileName().toString().matches("crawl-\\d{5}\\.warc(\\.gz)?")).sorted().toList();
    }
    assertThat(files).isNotEmpty();
    for (Path f : files) {
      try (WarcReader r = new WarcReader(f)) {
        List<String> warnings = new ArrayList<>();
        r.onWarning(warnings::add);
        r.calculateBlockDigest();
        boolean first = true;
        for (Optional<WarcRecord> o = r.next(); o.isPresent(); o = r.next()) {
          WarcRecord rec = o.get();
          if (first) {
            assertThat(rec.type()).as("first record of " + f).isEqualTo("warcinfo");
            first = false;
          }
          if (rec instanceof WarcResponse) {
            assertThat(((WarcResponse) rec).http().status()).isBetween(100, 599);
            ((WarcResponse) rec).http().body().consume();
          } else if (rec instanceof WarcRequest) {
            assertThat(((WarcRequest) rec).http().method()).isEqualTo("GET");
            ((WarcRequest) rec).http().body().consume();
          }
          rec.body().consume();
          Optional<WarcDigest> declared = rec.blockDigest();
          Optional<WarcDigest> computed = rec.calculatedBlockDigest();
          assertThat(declared).as("block digest of " + rec.type() + " in " + f).isPresent();
          assertThat(computed).isPresent();
          assertThat(computed.get().base32()).as("block digest of " + rec.type()).isEqualTo(declared.get().base32());
          String target = rec.headers().first("WARC-Target-URI").orElse("");
          out.add(rec.type() + " " + target);
        }
        assertThat(warnings).as("jwarc warnings for " + f).isEmpty();
      }
    }
    return out;
  }
}
