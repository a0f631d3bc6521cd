package io.krill.crawler;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a finished crawl did. Immutable. The counts are this run's; after {@code --resume},
 * {@link #earlier()} holds what the earlier runs made durable, and the text and JSON forms
 * give the whole crawl first with this run's share beside it.
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
 * @param earlier what the earlier runs of a resumed crawl made durable, or null for a first run
 */
public record CrawlSummary(long pages, long requests, long bytes, Map<Integer, Long> statuses, Map<String, Long> errors,
    long robotsDisallowed, double seconds, String stoppedBy, String seenSet, String dns, int warcFiles, Path out,
    String mode, int peakInFlight, Totals earlier) {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** The summary of a first run. */
  public CrawlSummary(long pages, long requests, long bytes, Map<Integer, Long> statuses, Map<String, Long> errors,
      long robotsDisallowed, double seconds, String stoppedBy, String seenSet, String dns, int warcFiles, Path out,
      String mode, int peakInFlight) {
    this(pages, requests, bytes, statuses, errors, robotsDisallowed, seconds, stoppedBy, seenSet, dns, warcFiles, out, mode,
        peakInFlight, null);
  }

  /**
   * Counts of the pages a crawl's output holds.
   *
   * @param pages pages fetched (final answers)
   * @param statuses final HTTP statuses and counts
   * @param errors errors by kind
   * @param robotsDisallowed URLs not fetched because robots.txt disallows them
   */
  public record Totals(long pages, Map<Integer, Long> statuses, Map<String, Long> errors, long robotsDisallowed) {
    /**
     * Counts what a crawl's JSONL output holds: the durable record of every earlier run,
     * killed ones included (a page whose commit was lost is fetched again and counted then).
     *
     * @param jsonl the {@code crawl.jsonl} file, cut at the journal's last position
     * @return the counts
     * @throws IOException if it cannot be read
     */
    public static Totals read(Path jsonl) throws IOException {
      long pages = 0;
      long disallowed = 0;
      Map<Integer, Long> statuses = new TreeMap<>();
      Map<String, Long> errors = new TreeMap<>();
      if (!Files.exists(jsonl)) {
        return new Totals(0, statuses, errors, 0);
      }
      try (BufferedReader r = Files.newBufferedReader(jsonl, StandardCharsets.UTF_8)) {
        for (String line; (line = r.readLine()) != null; ) {
          JsonNode n = line.isBlank() ? null : JSON.readTree(line);
          if (n == null || "robots".equals(n.path("kind").asText())) {
            continue;
          }
          String error = n.path("error").isTextual() ? n.path("error").asText() : null;
          boolean fetched = n.has("timings"); // no timings: given up before any request (DNS, robots.txt)
          if (fetched) {
            pages++;
          }
          if (error == null) {
            statuses.merge(n.path("status").asInt(), 1L, Long::sum);
          } else {
            int colon = error.indexOf(':');
            errors.merge(colon < 0 ? error : error.substring(0, colon), 1L, Long::sum);
            if (error.startsWith("robots: disallowed")) {
              disallowed++;
            }
          }
        }
      }
      return new Totals(pages, statuses, errors, disallowed);
    }

    Totals plus(long p, Map<Integer, Long> s, Map<String, Long> e, long d) {
      Map<Integer, Long> st = new TreeMap<>(statuses);
      s.forEach((k, v) -> st.merge(k, v, Long::sum));
      Map<String, Long> er = new TreeMap<>(errors);
      e.forEach((k, v) -> er.merge(k, v, Long::sum));
      return new Totals(pages + p, st, er, robotsDisallowed + d);
    }
  }

  /** @return the whole crawl's counts: the earlier runs' and this one's */
  public Totals whole() {
    Totals none = new Totals(0, Map.of(), Map.of(), 0);
    return (earlier == null ? none : earlier).plus(pages, statuses, errors, robotsDisallowed);
  }

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
    if (earlier != null) {
      Totals w = whole();
      return String.format(Locale.ROOT,
          "crawl %s in %.1f s (%s): %d pages in all, this run %d (%.1f/s), %d requests, %d bytes%n"
              + "  statuses: %s (this run %s)%n  errors: %s (this run %s)%n  robots.txt disallowed: %d (this run %d)%n"
              + "  seen-set: %s%n  dns: %s%n  in flight: peak %d fetches%n"
              + "  output: %s (%d WARC file%s, crawl.jsonl, frontier.journal)%n",
          stoppedBy, seconds, mode, w.pages(), pages, pagesPerSecond(), requests, bytes, w.statuses(), statuses, w.errors(),
          errors, w.robotsDisallowed(), robotsDisallowed, seenSet, dns, peakInFlight, out, warcFiles, warcFiles == 1 ? "" : "s");
    }
    return String.format(Locale.ROOT,
        "crawl %s in %.1f s (%s): %d pages (%.1f/s), %d requests, %d bytes%n"
            + "  statuses: %s%n  errors: %s%n  robots.txt disallowed: %d%n  seen-set: %s%n  dns: %s%n"
            + "  in flight: peak %d fetches%n  output: %s (%d WARC file%s, crawl.jsonl, frontier.journal)%n",
        stoppedBy, seconds, mode, pages, pagesPerSecond(), requests, bytes, statuses, errors, robotsDisallowed, seenSet,
        dns, peakInFlight, out, warcFiles, warcFiles == 1 ? "" : "s");
  }

  /**
   * Returns the summary as one JSON object; its field names are the format of {@code summary.json}.
   * After a resume, {@code pages}, {@code statuses}, {@code errors} and {@code robots_disallowed}
   * count the whole crawl and {@code this_run} holds this run's share of them; requests, bytes
   * and times are this run's.
   *
   * @return the JSON text
   */
  public String toJson() {
    Totals w = whole();
    ObjectNode json = JSON.createObjectNode().put("stopped_by", stoppedBy).put("mode", mode).put("pages", w.pages())
        .put("requests", requests).put("bytes", bytes).put("seconds", seconds).put("pages_per_second", pagesPerSecond());
    json.set("statuses", JSON.valueToTree(w.statuses()));
    json.set("errors", JSON.valueToTree(w.errors()));
    json.put("robots_disallowed", w.robotsDisallowed()).put("seen_set", seenSet).put("dns", dns)
        .put("peak_in_flight", peakInFlight).put("warc_files", warcFiles).put("out", out.toString());
    if (earlier != null) {
      ObjectNode run = json.putObject("this_run").put("pages", pages);
      run.set("statuses", JSON.valueToTree(statuses));
      run.set("errors", JSON.valueToTree(errors));
      run.put("robots_disallowed", robotsDisallowed);
    }
    return json.toString();
  }
}
