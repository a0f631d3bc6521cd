package io.krill.crawler;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;

/**
 * What a finished crawl did. Immutable.
 *
 * @param pages pages fetched (final answers)
 * @param requests HTTP requests sent (robots.txt, redirects and retries included)
 * @param bytes bytes received
 * @param statuses final HTTP statuses and counts
 * @param errors errors by kind
 * @param robotsDisallowed URLs not fetched because robots.txt disallows them
 * @param seconds wall time
 * @param stoppedBy why the crawl ended: {@code done}, {@code max-pages}, {@code max-bytes},
 *     {@code max-duration}, {@code stopped} or {@code failed: ...}
 * @param seenSet the seen-set's description
 * @param dns DNS statistics
 * @param warcFiles WARC files written
 * @param out the output directory
 * @param mode the execution mode
 * @param peakInFlight the most HTTP fetches (robots.txt and pages, each with its redirects) in flight at once
 */
public record CrawlSummary(long pages, long requests, long bytes, Map<Integer, Long> statuses, Map<String, Long> errors,
    long robotsDisallowed, double seconds, String stoppedBy, String seenSet, String dns, int warcFiles, Path out,
    String mode, int peakInFlight) {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** @return pages per second */
  public double pagesPerSecond() {
    return seconds > 0 ? pages / seconds : 0;
  }

  /** @return true unless the crawl ended because output could not be written or a strand could not be started */
  public boolean succeeded() {
    return !stoppedBy.startsWith("failed");
  }

  /** @return a multi-line human summary */
  public String toText() {
    return String.format(Locale.ROOT,
        "crawl %s in %.1f s (%s): %d pages (%.1f/s), %d requests, %d bytes%n"
            + "  statuses: %s%n  errors: %s%n  robots.txt disallowed: %d%n  seen-set: %s%n  dns: %s%n"
            + "  in flight: peak %d fetches%n  output: %s (%d WARC file%s, crawl.jsonl, frontier.journal)%n",
        stoppedBy, seconds, mode, pages, pagesPerSecond(), requests, bytes, statuses, errors, robotsDisallowed, seenSet,
        dns, peakInFlight, out, warcFiles, warcFiles == 1 ? "" : "s");
  }

  /** @return the summary as one JSON object; its field names are the format of {@code summary.json} */
  public String toJson() {
    ObjectNode json = JSON.createObjectNode().put("stopped_by", stoppedBy).put("mode", mode).put("pages", pages)
        .put("requests", requests).put("bytes", bytes).put("seconds", seconds).put("pages_per_second", pagesPerSecond());
    json.set("statuses", JSON.valueToTree(statuses));
    json.set("errors", JSON.valueToTree(errors));
    json.put("robots_disallowed", robotsDisallowed).put("seen_set", seenSet).put("dns", dns)
        .put("peak_in_flight", peakInFlight).put("warc_files", warcFiles).put("out", out.toString());
    return json.toString();
  }
}
