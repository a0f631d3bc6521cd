package io.krill.loadtest.harness;

import io.krill.loadtest.internal.Reports;
import io.krill.testkit.TestTools;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * h2load (Debian's {@code nghttp2-client}, installed through {@link TestTools}) as the HTTP/2
 * generator of the static and h2-hello scenarios: its command line and what its output gives. h2load
 * reports no latency percentiles: its "time for request" line gives min, max, mean and standard
 * deviation, of which a cell keeps the mean and the max.
 */
final class H2load {
  private static final Pattern RPS = Pattern.compile("finished in [0-9.]+m?s, ([0-9.]+) req/s");
  private static final Pattern REQUESTS = Pattern.compile(
      "requests: (\\d+) total, (\\d+) started, (\\d+) done, (\\d+) succeeded, (\\d+) failed, (\\d+) errored");
  private static final Pattern STATUS = Pattern.compile("status codes: (\\d+) 2xx, (\\d+) 3xx, (\\d+) 4xx, (\\d+) 5xx");
  /* min, max, mean, sd; each a number and us, ms or s (h2load's own duration format). */
  private static final String DURATION = "([0-9.]+)(us|ms|s)";
  private static final Pattern REQUEST_TIME = Pattern.compile(
      "time for request:\\s+" + DURATION + "\\s+" + DURATION + "\\s+" + DURATION);

  private H2load() {}

  /**
   * @param url the URL every stream requests ({@code http://} for h2c by prior knowledge, {@code https://} for ALPN)
   * @param connections HTTP/2 connections ({@code -c})
   * @param streams concurrent streams per connection ({@code -m})
   * @param warmSeconds h2load's warm-up ({@code --warm-up-time}), not counted
   * @param measureSeconds the measured phase ({@code -D})
   * @return h2load in one thread, under {@code timeout} a minute past its planned end
   * @throws IOException if h2load cannot be installed
   * @throws InterruptedException if interrupted while installing it
   */
  static List<String> command(String url, int connections, int streams, long warmSeconds, long measureSeconds)
      throws IOException, InterruptedException {
    Path h2load = TestTools.require("h2load");
    return List.of("timeout", String.valueOf(warmSeconds + measureSeconds + 60), h2load.toString(), "-t", "1", "-c",
        String.valueOf(connections), "-m", String.valueOf(streams), "--warm-up-time", warmSeconds + "s", "-D",
        measureSeconds + "s", url);
  }

  /**
   * Reads requests/s and the request time's mean and max into {@code c}; any failed or errored
   * request, a 4xx or 5xx answer, or fewer requests succeeded than done fails the cell.
   */
  static void parse(List<String> lines, Cell c) {
    long done = -1;
    long succeeded = -1;
    long ok = -1;
    String requests = "";
    String status = "";
    for (String l : lines) {
      Matcher m = RPS.matcher(l);
      if (m.find()) {
        c.wrkRps = Double.parseDouble(m.group(1));
      }
      Matcher t = REQUEST_TIME.matcher(l);
      if (t.find()) {
        c.requestMaxMicros = Reports.micros(t.group(3), t.group(4));
        c.requestMeanMicros = Reports.micros(t.group(5), t.group(6));
      }
      Matcher r = REQUESTS.matcher(l);
      if (r.find()) {
        requests = l.trim();
        done = Long.parseLong(r.group(3));
        succeeded = Long.parseLong(r.group(4));
        if (Long.parseLong(r.group(5)) + Long.parseLong(r.group(6)) > 0) {
          c.error = "h2load: " + l.trim();
        }
      }
      Matcher s = STATUS.matcher(l);
      if (s.find()) {
        status = l.trim();
        ok = Long.parseLong(s.group(1));
        if (Long.parseLong(s.group(2)) + Long.parseLong(s.group(3)) + Long.parseLong(s.group(4)) > 0) {
          c.error = "h2load: " + status;
        }
      }
    }
    // The status counts straddle the warm-up's end (a few more or fewer than "done"): "succeeded"
    // (2xx or 3xx) is the measured phase's own count, and any 4xx or 5xx failed the cell above.
    if (c.error == null && (Double.isNaN(c.wrkRps) || done <= 0 || succeeded != done)) {
      c.error = "h2load: " + done + " requests done, " + succeeded + " succeeded, " + ok + " answered 2xx (" + requests
          + "; " + status + ")"
          + (requests.isEmpty() ? ": " + String.join(" | ", lines) : "");
    }
  }

  /** @return "request time mean M us, max X us (h2load: no percentiles)", with "—" for a figure not read */
  static String latency(Cell c) {
    return String.format(Locale.ROOT, "request time mean %s us, max %s us (h2load: no percentiles)",
        Reports.fmt(c.requestMeanMicros), Reports.fmt(c.requestMaxMicros));
  }
}
