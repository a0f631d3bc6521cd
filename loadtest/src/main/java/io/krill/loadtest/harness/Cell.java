package io.krill.loadtest.harness;

import io.krill.loadtest.load.LoadResult;

/**
 * One measured cell: a variant at a connection count in one round, with what the generator(s)
 * measured, the server's CPU, and for the idle scenario its memory. A cell that could not run
 * carries {@link #skipped} (a reason, not a failure: e.g. no JDK 21+) or {@link #error}.
 */
final class Cell {
  final String scenario;
  final String variant;
  final int connections;
  final int round;
  LoadResult result;
  /**
   * Second generator: wrk's requests per second, or NaN; where an outside generator is the only
   * one: wrk's or h2load's (static, h2-hello) or the WebSocket echo client's messages per second.
   */
  double wrkRps = Double.NaN;
  double wrkP50Micros = Double.NaN;
  double wrkP99Micros = Double.NaN;
  /**
   * h2load's "time for request" (static HTTP/2 cells, h2-hello), mean and max over the measured
   * phase, in µs: h2load gives no percentiles.
   */
  double requestMeanMicros = Double.NaN;
  double requestMaxMicros = Double.NaN;
  double serverCpuPercent = Double.NaN;
  /** h2-hello and websocket-echo: the server's CPU time per request (or echoed message) in the measured phase, in µs. */
  double serverCpuMicrosPerRequest = Double.NaN;
  /** hello-wrk: requests per second the server answered in the measured window (its connections all open). */
  double windowRps = Double.NaN;
  /** hello-wrk: wrk's CPU over the measured window, in % of one CPU. */
  double wrkCpuPercent = Double.NaN;
  /** hello-wrk: the fewest connections the server held at the window's two ends. */
  int openConnections;
  /** hello-wrk: seconds from the measured wrk run's start to the server holding all its connections. */
  double leadInSeconds = Double.NaN;
  /** hello-wrk: seconds from every connection open to the window's start (warm-up, then quiet compilers). */
  double warmSeconds = Double.NaN;
  /** hello-wrk: the server's JIT compiler threads' CPU over the window, in % of one CPU (part of its CPU). */
  double jitCpuPercent = Double.NaN;
  /** hello-wrk: wrk's read, write and timeout errors over its whole measured run, or "none". */
  String wrkSocketErrors = "none";
  /** Idle scenario: heap and RSS growth per held connection, in bytes. */
  double heapPerConnection = Double.NaN;
  double rssPerConnection = Double.NaN;
  /** Idle scenario: connections held, and the active clients' throughput without and with them. */
  long held;
  double activeRpsBefore = Double.NaN;
  double activeRpsDuring = Double.NaN;
  /** Crawl scenario: pages per second over the warm window (a quick run: the whole crawl). */
  double pagesPerSecond = Double.NaN;
  /** Crawl scenario: pages per second over the whole crawl, JIT warm-up included (the crawl summary's). */
  double crawlPagesPerSecond = Double.NaN;
  /** Crawl scenario: the second its warm window started from; -1 if it had none (a quick run). */
  int warmFromSecond = -1;
  /** Crawl scenario: the crawler JVM's CPU (user + system, JIT and GC included) per page over the warm window, in ms. */
  double cpuMsPerPage = Double.NaN;
  /** Crawl scenario: the same over the whole crawl. */
  double crawlCpuMsPerPage = Double.NaN;
  /** Crawl scenario: heap after a full collection requested at a fixed page count, in MiB. */
  double liveHeapMiB = Double.NaN;
  /** Crawl scenario: the crawler JVM's largest heap after a collection, in MiB. */
  double peakHeapMiB = Double.NaN;
  /** Crawl scenario: the most work items in flight at once (the crawl summary's). */
  int peakInFlight;
  String skipped;
  String error;

  Cell(String scenario, String variant, int connections, int round) {
    this.scenario = scenario;
    this.variant = variant;
    this.connections = connections;
    this.round = round;
  }

  /** Fails the cell with what {@code e} says: its message, or the exception itself when it has none. */
  void fail(Throwable e) {
    error = e.getMessage() != null ? e.getMessage() : e.toString();
  }

  boolean ok() {
    return skipped == null && error == null;
  }

  /** @return the cell's headline figure: requests (or pages) per second, or NaN */
  double rps() {
    if (!ok()) {
      return Double.NaN;
    }
    if (!Double.isNaN(pagesPerSecond)) {
      return pagesPerSecond;
    }
    if (!Double.isNaN(windowRps)) {
      return windowRps;
    }
    if (!Double.isNaN(activeRpsDuring)) {
      return activeRpsDuring;
    }
    return result == null ? wrkRps : result.throughput();
  }
}
