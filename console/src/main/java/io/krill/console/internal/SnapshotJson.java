package io.krill.console.internal;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.io.SegmentedStringWriter;
import com.fasterxml.jackson.core.util.BufferRecycler;
import io.krill.crawler.CrawlView;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A {@link CrawlView} as the messages the page reads, one {@link Tick} per snapshot. A tick has
 * two forms: the <em>full</em> message, which a tab gets first and after it missed one, and the
 * <em>delta</em> from the previous tick, which every tab that got the previous tick gets:
 *
 * <pre>{@code
 * {"type": "snapshot", "seq": N, "full": true|false,      // seq: one more than the tick before
 *  "crawl": {counters..., "hosts": [...]},   // hosts: in a full message, and in a delta when the table changed
 *  "recent": [...], "errors": [...]}         // full: the last lines; delta: the lines since the previous tick
 * }</pre>
 *
 * <p>Why deltas: the host table is the dear part of a snapshot (the frontier picks the busiest
 * hosts under its lock, and each row becomes JSON), and most of its bytes repeat from one second
 * to the next. So the table is rebuilt on every {@code hostEvery}-th tick only (and at once on a
 * pause, a resume or the end) and sent only when it differs from the last one sent; the recent
 * lines and errors travel once each. The counters are fresh in every tick. Each form is written
 * once, with a streaming generator (no tree), and shared by every tab that gets it.
 *
 * <p>Threading: {@link #next} is synchronized; a {@link Tick} may be read from any thread.
 */
public final class SnapshotJson {
  /** Lines of recent output (and of recent errors) a full message carries: what the page shows. */
  public static final int RECENT_LINES = 50;

  private static final JsonFactory FACTORY = new JsonFactory();

  private final CrawlView view;
  private final int maxHosts;
  private final int hostEvery;
  private final BufferRecycler buffers = new BufferRecycler();
  private String hostsJson;
  private int sinceHosts;
  private boolean rowsPaused;
  private long seq;
  private long recentSeq;
  private long errorSeq;

  /**
   * @param view the crawl
   * @param maxHosts host rows at most
   * @param hostEvery build the host table on every this many snapshots (1: every one)
   */
  public SnapshotJson(CrawlView view, int maxHosts, int hostEvery) {
    this.view = view;
    this.maxHosts = maxHosts;
    this.hostEvery = hostEvery;
  }

  /** @return the next tick: fresh counters, the host table fresh or as last built */
  public synchronized Tick next() {
    boolean rebuild = hostsJson == null || ++sinceHosts >= hostEvery;
    CrawlView.Snapshot s = view.snapshot(rebuild ? maxHosts : 0);
    if (!rebuild && (s.paused() != rowsPaused || s.stoppedBy() != null)) {
      rebuild = true; // the rows' "why" changed for every host, or these are the final figures
      s = view.snapshot(maxHosts);
    }
    boolean hostsChanged = false;
    if (rebuild) {
      CrawlView.Snapshot withRows = s;
      String rows = write(g -> rows(g, withRows));
      hostsChanged = !rows.equals(hostsJson);
      hostsJson = rows;
      sinceHosts = 0;
      rowsPaused = s.paused();
    }
    List<CrawlView.Written> recent = view.recent(false);
    List<CrawlView.Written> errors = view.recent(true);
    Tick t = new Tick(++seq, s, hostsJson, hostsChanged, recent, errors, recentSeq, errorSeq);
    recentSeq = lastSeq(recent, recentSeq);
    errorSeq = lastSeq(errors, errorSeq);
    return t;
  }

  private static long lastSeq(List<CrawlView.Written> lines, long before) {
    return lines.isEmpty() ? before : lines.get(lines.size() - 1).seq();
  }

  /**
   * One snapshot in both its forms. The delta is written when the tick is made (every tab that
   * is up to date needs it); the full message only when a tab needs it.
   */
  public final class Tick {
    private final long seq;
    private final CrawlView.Snapshot snapshot;
    private final String hosts;
    private final List<CrawlView.Written> recent;
    private final List<CrawlView.Written> errors;
    private final String delta;
    private String full;

    private Tick(long seq, CrawlView.Snapshot s, String hosts, boolean hostsChanged, List<CrawlView.Written> recent,
        List<CrawlView.Written> errors, long recentBefore, long errorsBefore) {
      this.seq = seq;
      this.snapshot = s;
      this.hosts = hosts;
      this.recent = recent;
      this.errors = errors;
      this.delta = write(g -> message(g, false, hostsChanged, recentBefore, errorsBefore));
    }

    /** @return this tick's number; each follows the previous one by one */
    public long seq() {
      return seq;
    }

    /** @return the changes since the previous tick, for a tab that got the previous tick */
    public String delta() {
      return delta;
    }

    /** @return the whole snapshot, for a new tab or one that missed a tick */
    public synchronized String full() {
      if (full == null) {
        full = write(g -> message(g, true, true, Long.MIN_VALUE, Long.MIN_VALUE));
      }
      return full;
    }

    /** @return the crawl's numbers at this tick */
    public CrawlView.Snapshot snapshot() {
      return snapshot;
    }

    private void message(JsonGenerator g, boolean whole, boolean withHosts, long recentAfter, long errorsAfter)
        throws IOException {
      g.writeStartObject();
      g.writeStringField("type", "snapshot");
      g.writeNumberField("seq", seq);
      g.writeBooleanField("full", whole);
      g.writeFieldName("crawl");
      crawl(g, snapshot, withHosts ? hosts : null);
      g.writeFieldName("recent");
      lines(g, recent, recentAfter);
      g.writeFieldName("errors");
      lines(g, errors, errorsAfter);
      g.writeEndObject();
    }
  }

  /* The snapshot's record components, in order, then the host table when it travels. */
  private static void crawl(JsonGenerator g, CrawlView.Snapshot s, String hosts) throws IOException {
    g.writeStartObject();
    g.writeNumberField("elapsedSeconds", s.elapsedSeconds());
    g.writeNumberField("pages", s.pages());
    g.writeNumberField("runPages", s.runPages());
    g.writeNumberField("requests", s.requests());
    g.writeNumberField("bytes", s.bytes());
    g.writeNumberField("inFlight", s.inFlight());
    g.writeNumberField("fetching", s.fetching());
    g.writeNumberField("queued", s.queued());
    g.writeObjectFieldStart("statuses");
    for (Map.Entry<Integer, Long> e : s.statuses().entrySet()) {
      g.writeNumberField(String.valueOf(e.getKey()), e.getValue());
    }
    g.writeEndObject();
    g.writeObjectFieldStart("errors");
    for (Map.Entry<String, Long> e : s.errors().entrySet()) {
      g.writeNumberField(e.getKey(), e.getValue());
    }
    g.writeEndObject();
    g.writeNumberField("robotsFetches", s.robotsFetches());
    g.writeNumberField("robotsDisallowed", s.robotsDisallowed());
    g.writeNumberField("retries", s.retries());
    g.writeNumberField("dnsLookups", s.dnsLookups());
    g.writeNumberField("dnsCached", s.dnsCached());
    g.writeNumberField("dnsFailures", s.dnsFailures());
    g.writeNumberField("dnsMeanMillis", s.dnsMeanMillis());
    g.writeNumberField("seen", s.seen());
    g.writeStringField("seenSet", s.seenSet());
    g.writeNumberField("hostCount", s.hostCount());
    g.writeNumberField("maxPages", s.maxPages());
    g.writeBooleanField("paused", s.paused());
    g.writeStringField("stoppedBy", s.stoppedBy());
    g.writeArrayFieldStart("nodes");
    for (CrawlView.Node n : s.nodes()) {
      g.writeStartObject();
      g.writeStringField("id", n.id());
      g.writeArrayFieldStart("partitions");
      for (int p : n.partitions()) {
        g.writeNumber(p);
      }
      g.writeEndArray();
      g.writeBooleanField("alive", n.alive());
      g.writeStringField("state", n.state());
      g.writeBooleanField("self", n.self());
      g.writeEndObject();
    }
    g.writeEndArray();
    g.writeArrayFieldStart("ownership");
    for (CrawlView.OwnershipChange o : s.ownership()) {
      g.writeStartObject();
      g.writeNumberField("atSeconds", o.atSeconds());
      g.writeNumberField("partition", o.partition());
      g.writeStringField("from", o.from());
      g.writeStringField("to", o.to());
      g.writeEndObject();
    }
    g.writeEndArray();
    if (hosts != null) {
      g.writeFieldName("hosts");
      g.writeRawValue(hosts);
    }
    g.writeEndObject();
  }

  private static void rows(JsonGenerator g, CrawlView.Snapshot s) throws IOException {
    boolean ended = s.stoppedBy() != null;
    g.writeStartArray();
    for (CrawlView.Host h : s.hosts()) {
      g.writeStartObject();
      g.writeStringField("host", h.host());
      g.writeStringField("state", h.state());
      g.writeNumberField("queued", h.queued());
      g.writeNumberField("inFlight", h.inFlight());
      g.writeStringField("address", h.address());
      g.writeNumberField("backoffMillis", h.backoffMillis());
      g.writeNumberField("delayMillis", h.delayMillis());
      g.writeStringField("why", why(h, s.paused(), ended));
      g.writeEndObject();
    }
    g.writeEndArray();
  }

  /* The lines after seq `after` (a full message: the last RECENT_LINES), oldest first. */
  private static void lines(JsonGenerator g, List<CrawlView.Written> written, long after) throws IOException {
    g.writeStartArray();
    for (int i = Math.max(0, written.size() - RECENT_LINES); i < written.size(); i++) {
      CrawlView.Written w = written.get(i);
      if (w.seq() <= after) {
        continue;
      }
      g.writeStartObject();
      g.writeNumberField("line", w.line());
      g.writeStringField("warcFile", w.warcFile());
      g.writeNumberField("warcOffset", w.warcOffset());
      g.writeBooleanField("error", w.error());
      g.writeFieldName("record");
      g.writeRawValue(w.json());
      g.writeEndObject();
    }
    g.writeEndArray();
  }

  private interface Body {
    void write(JsonGenerator g) throws IOException;
  }

  private String write(Body body) {
    // the recycler is the builder's: next() is synchronized, and full() of one tick runs under the tick's lock
    synchronized (buffers) {
      SegmentedStringWriter out = new SegmentedStringWriter(buffers);
      try (JsonGenerator g = FACTORY.createGenerator(out)) {
        body.write(g);
        g.flush();
        return out.getAndClear();
      } catch (IOException e) {
        throw new UncheckedIOException(e); // a string writer does not fail
      }
    }
  }

  /**
   * Why a host fetches nothing more right now, in a few words.
   *
   * @param h the host
   * @param paused the crawl is paused
   * @param ended the crawl is over
   * @return the reason
   */
  public static String why(CrawlView.Host h, boolean paused, boolean ended) {
    switch (h.state()) {
      case "failed":
        return "given up (DNS or robots.txt failed)";
      case "new":
        return "waiting to resolve its name";
      case "resolving":
        return "resolving its name";
      case "needs_robots":
        return "waiting to fetch robots.txt";
      case "robots":
        return "fetching robots.txt";
      case "robots_wait":
        return "robots.txt unreachable: waiting to retry";
      default:
        break;
    }
    if (ended) {
      return "crawl ended";
    }
    if (h.queued() == 0) {
      return h.inFlight() > 0 ? "fetching; nothing else queued" : "idle: nothing queued";
    }
    if (paused) {
      return "crawl paused";
    }
    if (h.backoffMillis() > 0) {
      return String.format(Locale.ROOT, "backing off after errors: %.1f s left", h.backoffMillis() / 1000.0);
    }
    if (h.inFlight() > 0) {
      return "fetching; per-host limit, then a " + h.delayMillis() + " ms delay";
    }
    return h.delayMillis() > 0 ? "politeness delay of " + h.delayMillis() + " ms" : "ready";
  }
}
