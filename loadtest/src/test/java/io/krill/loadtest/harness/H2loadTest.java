package io.krill.loadtest.harness;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * h2load's output read into a cell: requests/s, the request time's mean and max (it gives no
 * percentiles), and every way a run fails its cell; the console line of an HTTP/2 cell.
 */
class H2loadTest {
  /** What h2load 1.52 (Debian's nghttp2-client) prints for a timed run with a warm-up, as captured. */
  static final List<String> CAPTURED = List.of(
      "starting benchmark...",
      "spawning thread #0: 10 total client(s). Timing-based test with 1s warm-up time and 2s main duration for each client.",
      "Warm-up started for thread #0.",
      "progress: 10% of clients started",
      "Warm-up phase is over for thread #0.",
      "Main benchmark duration is started for thread #0.",
      "Main benchmark duration is over for thread #0. Stopping all clients.",
      "Stopped all clients for thread #0",
      "",
      "finished in 3.00s, 41234.50 req/s, 4.05MB/s",
      "requests: 82469 total, 82569 started, 82469 done, 82469 succeeded, 0 failed, 0 errored, 0 timeout",
      "status codes: 82470 2xx, 0 3xx, 0 4xx, 0 5xx",
      "traffic: 8.10MB (8493907) total, 1.18MB (1237035) headers (space savings 95.24%), 989.63KB (1013388) data",
      "                     min         max         mean         sd        +/- sd",
      "time for request:   141.00us     12.03ms      2.41ms    940.00us    71.69%",
      "time for connect:   167.00us    471.00us    301.00us    103.00us    60.00%",
      "time to 1st byte:     1.77ms      2.71ms      2.14ms    314.00us    60.00%",
      "req/s           :    4101.01     4148.99     4123.45       15.12    60.00%");

  private static Cell parsed(String variant, List<String> lines) {
    Cell c = new Cell(variant.startsWith("httpd") || variant.startsWith("netty") ? "h2-hello" : "static", variant, 10, 1);
    H2load.parse(lines, c);
    return c;
  }

  /* The captured output with its three result lines replaced. */
  private static List<String> results(String finished, String requests, String status) {
    List<String> l = new ArrayList<>(CAPTURED);
    l.set(l.indexOf(CAPTURED.get(9)), finished);
    l.set(l.indexOf(CAPTURED.get(10)), requests);
    l.set(l.indexOf(CAPTURED.get(11)), status);
    return l;
  }

  @Test
  void parse_capturedOutput_readsRequestsPerSecondAndRequestTimeMeanAndMax() {
    Cell c = parsed("krill-h2-12B", CAPTURED);
    assertThat(c.error).isNull();
    assertThat(c.rps()).isEqualTo(41234.5);
    assertThat(c.requestMeanMicros).isEqualTo(2410.0);
    assertThat(c.requestMaxMicros).isEqualTo(12030.0);
    assertThat(c.wrkP50Micros).isNaN(); // h2load prints no percentile to read
    c.serverCpuPercent = 87;
    assertThat(StaticScenario.summary(c))
        .isEqualTo("41235 rps request time mean 2,410 us, max 12,030 us (h2load: no percentiles) server cpu 87.0%")
        .doesNotContain("NaN");
  }

  @Test
  void parse_requestTimeInSecondsAndMicroseconds_convertedToMicroseconds() {
    List<String> l = new ArrayList<>(CAPTURED);
    l.set(l.indexOf(CAPTURED.get(14)), "time for request:   900.00us      1.50s    850.25us     10.00us    99.00%");
    Cell c = parsed("httpd-h2", l);
    assertThat(c.requestMaxMicros).isEqualTo(1_500_000.0);
    assertThat(c.requestMeanMicros).isEqualTo(850.25);
  }

  @Test
  void summary_http2CellWithoutRequestTimeOrCpu_saysNotMeasuredNotNaN() {
    List<String> l = new ArrayList<>(CAPTURED);
    l.remove(CAPTURED.get(14));
    Cell c = parsed("nginx-h2-1MiB", l);
    assertThat(c.error).isNull();
    assertThat(StaticScenario.summary(c))
        .isEqualTo("41235 rps request time mean — us, max — us (h2load: no percentiles) server cpu —%");
    assertThat(Http2WebSocketScenario.summary(parsed("httpd-h2", l))).isEqualTo("41235 requests/s request time mean"
        + " — us, max — us (h2load: no percentiles) server cpu —% (— us per request)");
  }

  @Test
  void parse_onlyAllRequestsAnswered2xxCounts() {
    String finished = CAPTURED.get(9);
    assertThat(parsed("krill-h2-12B", results(finished,
        "requests: 10000 total, 10000 started, 10000 done, 0 succeeded, 10000 failed, 0 errored, 0 timeout",
        "status codes: 0 2xx, 0 3xx, 10000 4xx, 0 5xx")).error).contains("10000 4xx");
    assertThat(parsed("krill-h2-12B", results("finished in 2.05s, 0.00 req/s, 42B/s",
        "requests: 0 total, 0 started, 0 done, 0 succeeded, 0 failed, 0 errored, 0 timeout",
        "status codes: 0 2xx, 0 3xx, 0 4xx, 0 5xx")).error).contains("0 requests done");
    // The status counts straddle the warm-up's end: a few 2xx fewer than "done" is no failure.
    assertThat(parsed("nginx-h2-12B", results(finished,
        "requests: 10000 total, 10000 started, 10000 done, 10000 succeeded, 0 failed, 0 errored, 0 timeout",
        "status codes: 9993 2xx, 0 3xx, 0 4xx, 0 5xx")).error).isNull();
    assertThat(parsed("nginx-h2-12B", results(finished,
        "requests: 10000 total, 10000 started, 10000 done, 10000 succeeded, 0 failed, 0 errored, 0 timeout",
        "status codes: 10000 2xx, 0 3xx, 1 4xx, 0 5xx")).error).contains("1 4xx");
    assertThat(parsed("nginx-h2-12B", results(finished,
        "requests: 100 total, 100 started, 90 done, 90 succeeded, 10 failed, 10 errored, 0 timeout",
        "status codes: 90 2xx, 0 3xx, 0 4xx, 0 5xx")).error).contains("10 failed");
    assertThat(parsed("httpd-h2-tls", List.of("TLS handshake failed")).error)
        .contains("-1 requests done").contains("TLS handshake failed");
  }
}
