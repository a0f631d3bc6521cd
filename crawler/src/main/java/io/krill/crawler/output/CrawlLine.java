package io.krill.crawler.output;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.krill.crawler.fetch.Exchange;
import io.krill.crawler.frontier.CrawlUrl;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;

/**
 * One line of {@code crawl.jsonl}: what became of one URL (a page, a robots.txt or a sitemap
 * fetch, or an error before any fetch), as one JSON object whose field names and order are the
 * file's format: {@code url, kind, status, content_type, bytes, depth, parent, ip, fetched_at,
 * timings, redirect, attempt, canonical, outlinks, error}.
 *
 * <p>Stateless; thread-safe.
 */
public final class CrawlLine {
  private static final JsonFactory JSON = JsonFactory.builder().build();

  private CrawlLine() {}

  /**
   * Writes the line.
   *
   * @param url the URL
   * @param kind {@code page}, {@code robots} or {@code sitemap}
   * @param c the frontier's entry, or {@code null} (robots.txt)
   * @param ex the exchange, or {@code null} when nothing was fetched
   * @param error the error's description, or {@code null}
   * @param canonical the page's canonical URL, or {@code null}
   * @param outlinks links extracted
   * @return the JSON object, without a newline
   */
  public static String of(String url, String kind, CrawlUrl c, Exchange ex, String error, String canonical, int outlinks) {
    StringWriter out = new StringWriter(256);
    try (JsonGenerator j = JSON.createGenerator(out)) {
      j.writeStartObject();
      j.writeStringField("url", url);
      j.writeStringField("kind", kind);
      exchange(j, c, ex);
      j.writeNumberField("attempt", c == null ? 1 : c.attempts() + 1);
      j.writeStringField("canonical", canonical);
      j.writeNumberField("outlinks", outlinks);
      j.writeStringField("error", error);
      j.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a StringWriter does not fail
    }
    return out.toString();
  }

  private static void exchange(JsonGenerator j, CrawlUrl c, Exchange ex) throws IOException {
    j.writeNumberField("status", ex == null ? 0 : ex.status());
    j.writeStringField("content_type", ex == null ? null : ex.contentType());
    j.writeNumberField("bytes", ex == null ? 0 : ex.bodyBytes());
    j.writeNumberField("depth", c == null ? -1 : c.depth());
    j.writeStringField("parent", c == null ? null : c.parent());
    j.writeStringField("ip", ex == null || ex.address() == null ? null : ex.address().getHostAddress());
    j.writeStringField("fetched_at", ex == null || ex.startedAt() == null ? Instant.now().toString() : ex.startedAt().toString());
    if (ex != null) {
      j.writeObjectFieldStart("timings");
      j.writeNumberField("connect_ms", ms(ex.connectTime()));
      j.writeNumberField("ttfb_ms", ms(ex.firstByteTime()));
      j.writeNumberField("total_ms", ms(ex.totalTime()));
      j.writeBooleanField("reused", ex.reusedConnection());
      j.writeEndObject();
      URI loc = ex.location();
      j.writeStringField("redirect", loc == null ? null : loc.toString());
    }
  }

  private static double ms(Duration d) {
    return Math.round(d.toNanos() / 10_000.0) / 100.0;
  }
}
