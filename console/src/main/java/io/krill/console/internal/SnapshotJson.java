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
 * Stateless and thread-safe.
 */
public final class SnapshotJson {
  private static final ObjectMapper JSON = new ObjectMapper();

  private SnapshotJson() {}

  /**
   * @param view the crawl
   * @param maxHosts host rows at most
   * @return the message
   */
  public static String of(CrawlView view, int maxHosts) {
    CrawlView.Snapshot s = view.snapshot(maxHosts);
    ObjectNode crawl = JSON.valueToTree(s);
    ArrayNode hosts = crawl.putArray("hosts");
    for (CrawlView.Host h : s.hosts()) {
      ObjectNode row = JSON.valueToTree(h);
      row.put("why", why(h, s.paused(), s.stoppedBy() != null));
      hosts.add(row);
    }
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
