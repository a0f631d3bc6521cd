package io.krill.crawler;

import java.util.ArrayList;
import java.util.List;

/**
 * The last lines the output writer made durable, for {@link CrawlView#recent(boolean)}: two
 * rings of fixed size (all lines, error lines), so a view costs the crawl a bounded copy per
 * batch, never a growing list.
 *
 * <p>Thread-safe: the writer thread adds, any thread reads.
 */
final class RecentOutput {
  /** Lines kept in each window. */
  static final int CAPACITY = 100;

  private final Ring all = new Ring();
  private final Ring errors = new Ring();
  private long seq;
  private long line;

  /** @param linesBefore lines {@code crawl.jsonl} holds already (on resume) */
  RecentOutput(long linesBefore) {
    this.line = linesBefore;
  }

  /** Records one commit's lines, written at the given WARC place. */
  synchronized void add(List<String> lines, String warcFile, long warcOffset) {
    for (String json : lines) {
      // JSON escapes quotes inside strings, so this matches only an error field with a value
      boolean error = json.contains("\"error\":\"");
      CrawlView.Written w = new CrawlView.Written(++seq, ++line, warcFile, warcOffset, json, error);
      all.add(w);
      if (error) {
        errors.add(w);
      }
    }
  }

  synchronized List<CrawlView.Written> window(boolean errorsOnly) {
    return (errorsOnly ? errors : all).list();
  }

  private static final class Ring {
    private final CrawlView.Written[] slots = new CrawlView.Written[CAPACITY];
    private long added;

    void add(CrawlView.Written w) {
      slots[(int) (added++ % CAPACITY)] = w;
    }

    List<CrawlView.Written> list() {
      List<CrawlView.Written> out = new ArrayList<>(CAPACITY);
      for (long i = Math.max(0, added - CAPACITY); i < added; i++) {
        out.add(slots[(int) (i % CAPACITY)]);
      }
      return out;
    }
  }
}
