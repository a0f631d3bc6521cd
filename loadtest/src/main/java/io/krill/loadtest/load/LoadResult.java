package io.krill.loadtest.load;

import java.nio.ByteBuffer;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.zip.DataFormatException;
import org.HdrHistogram.Histogram;

/**
 * What a load-generator run measured: request counts of both phases, the measured time, every
 * error by kind, and two latency histograms in nanoseconds. In open-loop mode {@link #latency}
 * counts from each request's intended send time (coordinated-omission corrected) and
 * {@link #serviceTime} from its actual send; in the other modes both are from the actual send.
 *
 * <p>Errors are never folded into the latency figures: {@link #errors()} is their sum and the
 * report prints every non-zero kind. Results of several generator processes combine with
 * {@link #merge}. A result crosses process boundaries as one {@code result k=v ...} line
 * ({@link #toLine()} / {@link #parse(String)}). Not thread-safe.
 */
public final class LoadResult {
  /** Largest latency recorded; longer ones are clamped to it. */
  public static final long HIGHEST_TRACKABLE_NANOS = TimeUnit.SECONDS.toNanos(120);

  /** Connections that were open when the measured phase began. */
  public long connections;
  /** Requests answered in the warm-up. */
  public long warmupRequests;
  /** Requests answered in the measured phase (any status). */
  public long requests;
  /** Length of the measured phase, from its start to its last answer, in nanoseconds. */
  public long measuredNanos;
  /** Connects that failed (refused, timed out). */
  public long connectErrors;
  /** Connections reset or closed by the server while a request was outstanding. */
  public long resetErrors;
  /** Answers that did not come within the request timeout. */
  public long timeoutErrors;
  /** HTTP answers with a status outside 200..299 (also counted in {@link #requests}). */
  public long non2xx;
  /** Answers that did not parse or, for echo, differed from what was sent. */
  public long badResponses;
  /** Requests still outstanding when the run ended and the generator closed their connections. */
  public long unfinished;
  /** The first error's description, or empty. */
  public String firstError = "";
  /** Latency from the intended send time (open loop) or the send (other modes). */
  public final Histogram latency;
  /** Latency from the actual send. */
  public final Histogram serviceTime;

  /** Creates an empty result. */
  public LoadResult() {
    latency = new Histogram(HIGHEST_TRACKABLE_NANOS, 3);
    serviceTime = new Histogram(HIGHEST_TRACKABLE_NANOS, 3);
  }

  private LoadResult(Histogram latency, Histogram serviceTime) {
    this.latency = latency;
    this.serviceTime = serviceTime;
  }

  /** @return the sum of every error kind, non-2xx answers included */
  public long errors() {
    return connectErrors + resetErrors + timeoutErrors + non2xx + badResponses;
  }

  /** @return measured requests per second, or 0 when nothing was measured */
  public double throughput() {
    return measuredNanos <= 0 ? 0 : requests * 1e9 / measuredNanos;
  }

  /** @return the latency at {@code percentile} in microseconds */
  public double latencyMicros(double percentile) {
    return latency.getTotalCount() == 0 ? Double.NaN : latency.getValueAtPercentile(percentile) / 1e3;
  }

  /** @return every non-zero error kind and its count, e.g. {@code {reset=3, non2xx=10}} */
  public Map<String, Long> errorsByKind() {
    Map<String, Long> m = new LinkedHashMap<>();
    put(m, "connect", connectErrors);
    put(m, "reset", resetErrors);
    put(m, "timeout", timeoutErrors);
    put(m, "non2xx", non2xx);
    put(m, "bad", badResponses);
    put(m, "unfinished", unfinished);
    return m;
  }

  private static void put(Map<String, Long> m, String k, long v) {
    if (v != 0) {
      m.put(k, v);
    }
  }

  /**
   * Adds {@code other} (another process of the same run) into this one: counts and histograms
   * add up, the measured time is the longer of the two.
   *
   * @param other the other part
   * @return this
   */
  public LoadResult merge(LoadResult other) {
    connections += other.connections;
    warmupRequests += other.warmupRequests;
    requests += other.requests;
    measuredNanos = Math.max(measuredNanos, other.measuredNanos);
    connectErrors += other.connectErrors;
    resetErrors += other.resetErrors;
    timeoutErrors += other.timeoutErrors;
    non2xx += other.non2xx;
    badResponses += other.badResponses;
    unfinished += other.unfinished;
    if (firstError.isEmpty()) {
      firstError = other.firstError;
    }
    latency.add(other.latency);
    serviceTime.add(other.serviceTime);
    return this;
  }

  /** @return this result as one line starting with {@code "result "} */
  public String toLine() {
    return String.format(Locale.ROOT,
        "result connections=%d warmup=%d requests=%d nanos=%d connect=%d reset=%d timeout=%d non2xx=%d bad=%d"
            + " unfinished=%d rps=%.1f p50us=%.1f p99us=%.1f latency=%s service=%s first=%s",
        connections, warmupRequests, requests, measuredNanos, connectErrors, resetErrors, timeoutErrors, non2xx,
        badResponses, unfinished, throughput(), latencyMicros(50), latencyMicros(99), encode(latency),
        encode(serviceTime), Base64.getUrlEncoder().encodeToString(firstError.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
  }

  /**
   * Parses a line written by {@link #toLine()}.
   *
   * @param line the line
   * @return the result
   * @throws IllegalArgumentException if the line is not a result line
   */
  public static LoadResult parse(String line) {
    if (!line.startsWith("result ")) {
      throw new IllegalArgumentException("line: " + line + " (expected: starts with 'result ')");
    }
    Map<String, String> f = new LinkedHashMap<>();
    for (String kv : line.substring(7).split(" ")) {
      int i = kv.indexOf('=');
      if (i > 0) {
        f.put(kv.substring(0, i), kv.substring(i + 1));
      }
    }
    LoadResult r = new LoadResult(decode(f.get("latency")), decode(f.get("service")));
    r.connections = num(f, "connections");
    r.warmupRequests = num(f, "warmup");
    r.requests = num(f, "requests");
    r.measuredNanos = num(f, "nanos");
    r.connectErrors = num(f, "connect");
    r.resetErrors = num(f, "reset");
    r.timeoutErrors = num(f, "timeout");
    r.non2xx = num(f, "non2xx");
    r.badResponses = num(f, "bad");
    r.unfinished = num(f, "unfinished");
    String first = f.getOrDefault("first", "");
    r.firstError = new String(Base64.getUrlDecoder().decode(first), java.nio.charset.StandardCharsets.UTF_8);
    return r;
  }

  private static long num(Map<String, String> f, String key) {
    String v = f.get(key);
    if (v == null) {
      throw new IllegalArgumentException("result line: no '" + key + "' field");
    }
    return Long.parseLong(v);
  }

  private static String encode(Histogram h) {
    ByteBuffer buf = ByteBuffer.allocate(h.getNeededByteBufferCapacity());
    int len = h.encodeIntoCompressedByteBuffer(buf);
    return Base64.getEncoder().encodeToString(java.util.Arrays.copyOf(buf.array(), len));
  }

  private static Histogram decode(String s) {
    if (s == null) {
      throw new IllegalArgumentException("result line: no histogram field");
    }
    try {
      return Histogram.decodeFromCompressedByteBuffer(ByteBuffer.wrap(Base64.getDecoder().decode(s)), 0);
    } catch (DataFormatException e) {
      throw new IllegalArgumentException("result line: bad histogram: " + e.getMessage(), e);
    }
  }

  @Override
  public String toString() {
    return String.format(Locale.ROOT, "%d requests in %.2f s (%.0f/s), p50 %.0f us, p99 %.0f us, errors %s",
        requests, measuredNanos / 1e9, throughput(), latencyMicros(50), latencyMicros(99), errorsByKind());
  }
}
