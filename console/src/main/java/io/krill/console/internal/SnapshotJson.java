package io.krill.console.internal;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.util.RawValue;
import io.krill.crawler.CrawlView;
import java.util.List;
import java.util.Locale;

/**
 * A {@link CrawlView.Snapshot} and the recent output as the JSON message the page reads:
 * {@code {"crawl": {...}, "recent": [...], "errors": [...]}}, each host with why it waits.
 *
 * <p>The host table is the dear part of a snapshot (the frontier picks the busiest hosts under
 * its lock, and each row becomes JSON), so {@link #next()} builds it on every {@code hostEvery}-th
 * snapshot only, and sends the last one in between; a pause, a resume or the crawl's end
 * rebuilds it at once. The counters are fresh in every snapshot.
 *
 * <p>Threading: thread-safe ({@link #next} is synchronized: the pusher and a request for the
 * current snapshot may call it at once).
 */
public final class SnapshotJson {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final CrawlView view;
  private final int maxHosts;
  private final int hostEvery;
  private ArrayNode hostRows;
  private int sinceHosts;
  private boolean rowsPaused;

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

  /** @return the next message: fresh counters, the host table fresh or as last built */
  public synchronized String next() {
    boolean rebuild = hostRows == null || ++sinceHosts >= hostEvery;
    CrawlView.Snapshot s = view.snapshot(rebuild ? maxHosts : 0);
    if (!rebuild && (s.paused() != rowsPaused || s.stoppedBy() != null)) {
      rebuild = true; // the rows' "why" changed for every host, or these are the final figures
      s = view.snapshot(maxHosts);
    }
    if (rebuild) {
      hostRows = rows(s);
      sinceHosts = 0;
      rowsPaused = s.paused();
    }
    return message(view, s, hostRows);
  }

  private static ArrayNode rows(CrawlView.Snapshot s) {
    ArrayNode hosts = JSON.createArrayNode();
    for (CrawlView.Host h : s.hosts()) {
      ObjectNode row = JSON.valueToTree(h);
      row.put("why", why(h, s.paused(), s.stoppedBy() != null));
      hosts.add(row);
    }
    return hosts;
  }

  private static String message(CrawlView view, CrawlView.Snapshot s, ArrayNode hosts) {
    ObjectNode crawl = JSON.valueToTree(s);
    crawl.set("hosts", hosts);
    ObjectNode msg = JSON.createObjectNode();
    msg.put("type", "snapshot");
    msg.set("crawl", crawl);
    msg.set("recent", lines(view.recent(false)));
    msg.set("errors", lines(view.recent(true)));
    return msg.toString();
  }

  private static ArrayNode lines(List<CrawlView.Written> written) {
    ArrayNode a = JSON.createArrayNode();
    for (CrawlView.Written w : written) {
      ObjectNode o = a.addObject();
      o.put("line", w.line()).put("warcFile", w.warcFile()).put("warcOffset", w.warcOffset()).put("error", w.error());
      o.putRawValue("record", new RawValue(w.json()));
    }
    return a;
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
