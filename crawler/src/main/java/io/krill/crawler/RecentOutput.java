package io.krill.crawler;

import java.util.ArrayList;
import java.util.List;

/**
 * The last lines the output writer made durable, for {@link CrawlView#recent(long)}: a ring of
 * fixed size, so a view costs the crawl a bounded copy per batch, never a growing list.
 *
 * <p>Thread-safe: the writer thread adds, any thread reads.
 */
final class RecentOutput {
  /** Lines kept. */
  static final int CAPACITY = 200;

  private final CrawlView.Written[] ring = new CrawlView.Written[CAPACITY];
  private long seq;
  private long line;

  /** @param linesBefore lines {@code crawl.jsonl} holds already (on resume) */
  RecentOutput(long linesBefore) {
    this.line = linesBefore;
  }

  /** Records one commit's lines, written at the given WARC place. */
  synchronized void add(List<String> lines, String warcFile, long warcOffset) {
    for (String json : lines) {
      seq++;
      line++;
      ring[(int) (seq % CAPACITY)] = new CrawlView.Written(seq, line, warcFile, warcOffset, json,
          json.contains("\"error\":\""));
    }
  }

  synchronized List<CrawlView.Written> after(long after) {
    long from = Math.max(after + 1, seq - CAPACITY + 1);
    List<CrawlView.Written> out = new ArrayList<>((int) Math.max(0, seq - from + 1));
    for (long s = Math.max(1, from); s <= seq; s++) {
      out.add(ring[(int) (s % CAPACITY)]);
    }
    return out;
  }
}
