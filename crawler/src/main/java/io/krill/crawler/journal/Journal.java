package io.krill.crawler.journal;

import io.krill.crawler.frontier.CrawlUrl;
import io.krill.crawler.frontier.Frontier;
import io.krill.crawler.output.LineOutput;
import io.krill.crawler.output.WarcOutput;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The crawl's append-only journal ({@code DIR/frontier.journal}), from which a killed crawl
 * resumes. One line per fact, tab-separated:
 * <pre>
 * Q seq depth parent url       a URL was queued, or its depth dropped while queued (parent "-" for a seed)
 * D seq depth parent url       a URL was found beyond --max-depth: remembered, not queued
 * R seq depth                  the depth of a URL already handed out or fetched dropped
 * E seq target...              a page's links, as sequence numbers (negated: a link that keeps the depth)
 * S url [seq depth]            a URL was seen and completed before the last checkpoint
 * C url                        a URL was completed: its WARC records and JSONL line are written
 * W warcFile warcEnd jsonlEnd  where the WARC and JSONL output ended after that commit
 * </pre>
 * A URL's depth is the smallest any of its Q, D, R or S lines gives (depths only drop, and two
 * commits may reach the journal in another order than their drops happened); a Q line makes a
 * D line's URL queued whichever comes first.
 * A commit appends its Q lines (the page's new outlinks), then C, then W, in one write, after
 * the WARC and JSONL writes of the same commit. On resume the last W line says where the
 * durable output ends: the WARC and JSONL files are cut there (a partial record or line from
 * an interrupted commit disappears) and the URLs queued but not completed are queued again.
 * A partial last journal line is ignored. A checkpoint rewrites the journal as S lines for the
 * completed URLs, Q lines for the pending ones and the last W line, then renames it into place
 * atomically.
 *
 * <p>Threading: not thread-safe; the crawl's single output writer owns it.
 */
public final class Journal implements AutoCloseable {
  /** The journal's file name in the output directory. */
  public static final String FILE = "frontier.journal";

  /**
   * What a journal holds.
   *
   * @param pending URLs queued and not completed, in queue order
   * @param completed URLs completed
   * @param warc where the WARC output ended, or null if nothing was committed
   * @param jsonlEnd where the JSONL output ended, -1 if nothing was committed
   * @param lastSeq the highest sequence number
   * @param nodes every URL queued or completed with a known sequence number, at its smallest depth
   * @param deferred URLs remembered beyond the depth limit, not queued
   * @param links pages' links: the page's sequence number, then its targets'
   */
  public record Replay(List<CrawlUrl> pending, Set<String> completed, WarcOutput.Position warc, long jsonlEnd,
      long lastSeq, Map<String, CrawlUrl> nodes, List<CrawlUrl> deferred, List<long[]> links) {
    /** A replay without the link graph (a journal written before it was kept). */
    public Replay(List<CrawlUrl> pending, Set<String> completed, WarcOutput.Position warc, long jsonlEnd, long lastSeq) {
      this(pending, completed, warc, jsonlEnd, lastSeq, Map.of(), List.of(), List.of());
    }

    /**
     * Whether the journal holds no fact at all: the crawl was killed after it created the
     * journal and before its seeds' first commit reached it.
     *
     * @return true if nothing was ever queued, remembered or committed
     */
    public boolean isEmpty() {
      return pending.isEmpty() && completed.isEmpty() && warc == null && jsonlEnd < 0 && lastSeq == 0
          && nodes.isEmpty() && deferred.isEmpty();
    }
  }

  private final Path dir;
  private LineOutput out;
  private long lines;

  /**
   * Opens the journal for appending (a partial last line is cut off).
   *
   * @param dir the output directory
   * @throws IOException if it cannot be opened
   */
  public Journal(Path dir) throws IOException {
    this.dir = dir;
    this.out = new LineOutput(dir.resolve(FILE), -1);
  }

  /**
   * Reads a journal.
   *
   * @param dir the output directory
   * @return what it holds
   * @throws IOException if it cannot be read or a line is malformed
   */
  public static Replay replay(Path dir) throws IOException {
    Path file = dir.resolve(FILE);
    Map<String, CrawlUrl> known = new LinkedHashMap<>();
    Map<String, CrawlUrl> deferred = new LinkedHashMap<>();
    Map<Long, String> bySeq = new HashMap<>();
    Map<Long, Integer> dropped = new HashMap<>();
    Map<Long, long[]> links = new LinkedHashMap<>();
    Set<String> completed = new HashSet<>();
    WarcOutput.Position warc = null;
    long jsonlEnd = -1;
    long lastSeq = 0;
    byte[] all = Files.readAllBytes(file);
    int end = all.length;
    while (end > 0 && all[end - 1] != '\n') {
      end--;
    }
    String text = new String(all, 0, end, StandardCharsets.UTF_8);
    int lineNo = 0;
    try (BufferedReader r = new BufferedReader(new java.io.StringReader(text))) {
      for (String line; (line = r.readLine()) != null; ) {
        lineNo++;
        if (line.isEmpty()) {
          continue;
        }
        String[] f = line.split("\t", -1);
        try {
          switch (f[0]) {
            case "Q":
            case "D": {
              long seq = Long.parseLong(f[1]);
              CrawlUrl c = new CrawlUrl(f[4], Integer.parseInt(f[2]), f[3].equals("-") ? null : f[3], 0, seq);
              bySeq.put(seq, c.url());
              Map<String, CrawlUrl> into = f[0].equals("Q") || known.containsKey(c.url()) ? known : deferred;
              if (into == known) {
                CrawlUrl d = deferred.remove(c.url());
                if (d != null && d.depth() < c.depth()) {
                  c = d;
                }
              }
              into.merge(c.url(), c, (a, b) -> b.depth() < a.depth() ? b : a);
              lastSeq = Math.max(lastSeq, seq);
              break;
            }
            case "R":
              dropped.merge(Long.parseLong(f[1]), Integer.parseInt(f[2]), Math::min);
              break;
            case "E": {
              long[] l = new long[f.length - 1];
              for (int i = 1; i < f.length; i++) {
                l[i - 1] = Long.parseLong(f[i]);
              }
              links.merge(l[0], l, (a, b) -> {
                long[] m = java.util.Arrays.copyOf(a, a.length + b.length - 1);
                System.arraycopy(b, 1, m, a.length, b.length - 1);
                return m;
              });
              break;
            }
            case "S":
              if (f.length >= 4) {
                long seq = Long.parseLong(f[2]);
                CrawlUrl c = new CrawlUrl(f[1], Integer.parseInt(f[3]), null, 0, seq);
                bySeq.put(seq, c.url());
                known.merge(c.url(), c, (a, b) -> b.depth() < a.depth() ? b : a);
                lastSeq = Math.max(lastSeq, seq);
              }
              completed.add(f[1]);
              break;
            case "C":
              completed.add(f[1]);
              break;
            case "W":
              warc = new WarcOutput.Position(f[1], Long.parseLong(f[2]));
              jsonlEnd = Long.parseLong(f[3]);
              break;
            default:
              throw new IOException(file + ":" + lineNo + ": unknown record type " + f[0]);
          }
        } catch (RuntimeException e) {
          throw new IOException(file + ":" + lineNo + ": malformed line: " + e, e);
        }
      }
    }
    dropped.forEach((seq, depth) -> {
      String u = bySeq.get(seq);
      CrawlUrl c = u == null ? null : known.get(u);
      if (c != null && depth < c.depth()) {
        known.put(u, new CrawlUrl(u, depth, c.parent(), 0, seq));
      }
    });
    List<CrawlUrl> pending = new ArrayList<>();
    Map<String, CrawlUrl> nodes = new LinkedHashMap<>();
    for (CrawlUrl c : known.values()) {
      if (completed.contains(c.url())) {
        nodes.put(c.url(), c);
      } else {
        pending.add(c);
      }
    }
    deferred.keySet().removeAll(completed);
    return new Replay(pending, completed, warc, jsonlEnd, lastSeq, nodes, new ArrayList<>(deferred.values()),
        new ArrayList<>(links.values()));
  }

  /**
   * Appends one commit's facts in one write.
   *
   * @param queued URLs queued since the last commit
   * @param completed URLs completed by this commit
   * @param warc where the WARC output ends now
   * @param jsonlEnd where the JSONL output ends now
   * @throws IOException if the write failed (rolled back)
   */
  public void commit(Collection<CrawlUrl> queued, Collection<String> completed, WarcOutput.Position warc, long jsonlEnd)
      throws IOException {
    commit(queued, List.of(), completed, warc, jsonlEnd);
  }

  /**
   * Appends one commit's facts in one write, with what recording links changed.
   *
   * @param queued URLs queued since the last commit
   * @param found what recording links changed since the last commit
   * @param completed URLs completed by this commit
   * @param warc where the WARC output ends now
   * @param jsonlEnd where the JSONL output ends now
   * @throws IOException if the write failed (rolled back)
   */
  public void commit(Collection<CrawlUrl> queued, Collection<Frontier.Found> found, Collection<String> completed,
      WarcOutput.Position warc, long jsonlEnd) throws IOException {
    List<String> l = new ArrayList<>(queued.size() + completed.size() + 1);
    for (CrawlUrl c : queued) {
      l.add(queuedLine(c));
    }
    for (Frontier.Found f : found) {
      for (CrawlUrl c : f.queued()) {
        l.add(queuedLine(c));
      }
      for (CrawlUrl c : f.deferred()) {
        l.add("D" + queuedLine(c).substring(1));
      }
      for (CrawlUrl c : f.relaxed()) {
        l.add("R\t" + c.seq() + "\t" + c.depth());
      }
      if (f.links() != null) {
        l.add(linksLine(f.links()));
      }
    }
    for (String u : completed) {
      l.add("C\t" + u);
    }
    l.add("W\t" + warc.file() + "\t" + warc.end() + "\t" + jsonlEnd);
    out.append(l);
    lines += l.size();
  }

  private static String queuedLine(CrawlUrl c) {
    return "Q\t" + c.seq() + "\t" + c.depth() + "\t" + (c.parent() == null ? "-" : c.parent()) + "\t" + c.url();
  }

  private static String linksLine(long[] links) {
    StringBuilder b = new StringBuilder("E");
    for (long x : links) {
      b.append('\t').append(x);
    }
    return b.toString();
  }

  /**
   * Rewrites the journal compactly from a frontier checkpoint, the link graph included, and
   * swaps it in atomically.
   *
   * @param cp the frontier's state
   * @param warc where the WARC output ends
   * @param jsonlEnd where the JSONL output ends
   * @throws IOException if writing failed (the old journal stays)
   */
  public void checkpoint(Frontier.Checkpoint cp, WarcOutput.Position warc, long jsonlEnd) throws IOException {
    List<String> extra = new ArrayList<>();
    for (CrawlUrl c : cp.deferred()) {
      extra.add("D" + queuedLine(c).substring(1));
    }
    for (long[] l : cp.links()) {
      extra.add(linksLine(l));
    }
    write(cp.completed(), cp.nodes(), cp.outstanding(), extra, warc, jsonlEnd);
  }

  /** @return lines appended since open or the last checkpoint */
  public long linesSinceCheckpoint() {
    return lines;
  }

  /**
   * Rewrites the journal compactly and swaps it in atomically.
   *
   * @param completed every URL completed so far
   * @param pending every URL queued and not completed
   * @param warc where the WARC output ends
   * @param jsonlEnd where the JSONL output ends
   * @throws IOException if writing failed (the old journal stays)
   */
  public void checkpoint(Iterable<String> completed, Collection<CrawlUrl> pending, WarcOutput.Position warc, long jsonlEnd)
      throws IOException {
    write(completed, Map.of(), pending, List.of(), warc, jsonlEnd);
  }

  private void write(Iterable<String> completed, Map<String, CrawlUrl> nodes, Collection<CrawlUrl> pending,
      List<String> extra, WarcOutput.Position warc, long jsonlEnd) throws IOException {
    Path tmp = dir.resolve(FILE + ".tmp");
    Files.deleteIfExists(tmp);
    try (LineOutput t = new LineOutput(tmp, 0)) {
      List<String> batch = new ArrayList<>();
      for (String u : completed) {
        CrawlUrl n = nodes.get(u);
        batch.add(n == null ? "S\t" + u : "S\t" + u + "\t" + n.seq() + "\t" + n.depth());
        if (batch.size() == 4096) {
          t.append(batch);
          batch.clear();
        }
      }
      for (CrawlUrl c : pending) {
        batch.add(queuedLine(c));
      }
      batch.addAll(extra);
      batch.add("W\t" + warc.file() + "\t" + warc.end() + "\t" + jsonlEnd);
      t.append(batch);
      t.force();
    }
    out.close();
    Files.move(tmp, dir.resolve(FILE), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    out = new LineOutput(dir.resolve(FILE), -1);
    lines = 0;
  }

  /** Forces the journal to disk. */
  public void force() throws IOException {
    out.force();
  }

  @Override
  public void close() throws IOException {
    out.close();
  }
}
