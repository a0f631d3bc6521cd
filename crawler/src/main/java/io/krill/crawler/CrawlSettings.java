package io.krill.crawler;

import io.krill.config.ConfigBinding;
import io.krill.config.Setting;
import io.krill.crawler.fetch.HttpFetcher;
import io.krill.crawler.frontier.Frontier;
import io.krill.crawler.frontier.Scope;
import io.krill.crawler.frontier.SeenSet;
import io.krill.crawler.output.WarcOutput;
import io.krill.fibers.ExecutionMode;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * The crawl settings: one schema from which {@code krill crawl}'s flags, its {@code --help}, the
 * {@code KRILL_CRAWL_*} environment variables and the docs' flag table all derive, each bound to
 * the {@link CrawlConfig.Builder} setter that checks it.
 *
 * <p>Immutable and thread-safe.
 */
public final class CrawlSettings {
  /** The output directory. */
  public static final Setting<Path> OUT = Setting.ofPath("crawl.out").defaultValue(CrawlConfig.DEFAULT_OUT)
      .paramLabel("DIR").doc("output directory").build();

  /** The maximum link depth from a seed. */
  public static final Setting<Integer> MAX_DEPTH = Setting.ofInt("crawl.max-depth")
      .defaultValue(CrawlConfig.DEFAULT_MAX_DEPTH).doc("links from a seed").build();

  /** Skip TLS certificate verification. */
  public static final Setting<Boolean> INSECURE = Setting.ofBoolean("crawl.insecure").defaultValue(false)
      .doc("do not verify TLS certificates (prints a warning)").build();

  /** DNS servers, {@code HOST} or {@code HOST:PORT}. */
  public static final Setting<List<String>> DNS = Setting.ofStringList("crawl.dns").defaultValue(List.of())
      .paramLabel("HOST:PORT").doc("DNS server (repeatable; default: the system's)").build();

  /** Every crawl setting, bound to its builder setter. */
  public static final ConfigBinding<CrawlConfig, CrawlConfig.Builder> BINDING =
      ConfigBinding.<CrawlConfig, CrawlConfig.Builder>builder()
          .bind(OUT, CrawlConfig.Builder::out)
          .bind(Setting.ofString("crawl.mode").defaultValue(ExecutionMode.FIBER.alias())
              .paramLabel("fibers|threads|virtual")
              .oneOf(List.of(ExecutionMode.FIBER.alias(), ExecutionMode.PLATFORM.alias(), ExecutionMode.VIRTUAL.alias()))
              .doc("how fetches run: a fiber each, a pool of platform threads, or a virtual thread each").build(),
              (b, m) -> b.mode(ExecutionMode.parse(m)))
          .bind(Setting.ofInt("crawl.threads").defaultValue(CrawlConfig.DEFAULT_THREADS)
              .doc("platform threads for --mode threads").build(), CrawlConfig.Builder::threads)
          .bind(Setting.ofBoolean("crawl.naive").defaultValue(false)
              .doc("a new fiber/thread per URL with no pool and no in-flight cap (the Piranha program)").build(),
              CrawlConfig.Builder::naive)
          .bind(Setting.ofInt("crawl.max-in-flight").defaultValue(CrawlConfig.DEFAULT_MAX_IN_FLIGHT)
              .doc("fetches in flight at once").build(), CrawlConfig.Builder::maxInFlight)
          .bind(Setting.ofInt("crawl.carriers").optional().doc("event-loop threads (default: number of cores)").build(),
              CrawlConfig.Builder::carriers)
          .bind(Setting.ofEnum("crawl.order", Frontier.Order.class).defaultValue(Frontier.Order.BFS)
              .doc("crawl order").build(), CrawlConfig.Builder::order)
          .bind(Setting.ofEnum("crawl.scope", Scope.Kind.class).defaultValue(Scope.Kind.HOST)
              .doc("how far from the seeds' hosts").build(), CrawlConfig.Builder::scope)
          .bind(list("crawl.allow-domain", "DOMAIN", "only crawl these domains and their subdomains (repeatable)"),
              (b, l) -> l.forEach(b::allowDomain))
          .bind(list("crawl.include", "REGEX", "only crawl URLs matching one of these (repeatable)"),
              (b, l) -> l.forEach(b::include))
          .bind(list("crawl.exclude", "REGEX", "skip URLs matching any of these (repeatable)"),
              (b, l) -> l.forEach(b::exclude))
          .bind(MAX_DEPTH, CrawlConfig.Builder::maxDepth)
          .bind(Setting.ofLong("crawl.max-pages").defaultValue(CrawlConfig.DEFAULT_MAX_PAGES)
              .doc("pages to fetch at most").build(), CrawlConfig.Builder::maxPages)
          .bind(Setting.ofBytes("crawl.max-bytes").defaultValue(CrawlConfig.DEFAULT_MAX_BYTES)
              .doc("bytes to receive at most").build(), CrawlConfig.Builder::maxBytes)
          .bind(duration("crawl.max-duration", CrawlConfig.DEFAULT_MAX_DURATION, "crawl time at most"),
              CrawlConfig.Builder::maxDuration)
          .bind(duration("crawl.delay", CrawlConfig.DEFAULT_DELAY,
              "wait before each request to a host, counted from the previous one's start and end"),
              CrawlConfig.Builder::delay)
          .bind(Setting.ofInt("crawl.per-host").defaultValue(CrawlConfig.DEFAULT_PER_HOST)
              .doc("requests in flight per host").build(), CrawlConfig.Builder::perHost)
          .bind(Setting.ofInt("crawl.per-ip").defaultValue(CrawlConfig.DEFAULT_PER_IP)
              .doc("requests in flight per IP address").build(), CrawlConfig.Builder::perIp)
          .bind(duration("crawl.max-crawl-delay", CrawlConfig.DEFAULT_MAX_CRAWL_DELAY, "cap on a robots.txt Crawl-delay"),
              CrawlConfig.Builder::maxCrawlDelay)
          .bind(duration("crawl.backoff-base", CrawlConfig.DEFAULT_BACKOFF_BASE,
              "first back-off after 429/503 or a failed connection"), CrawlConfig.Builder::backoffBase)
          .bind(duration("crawl.backoff-max", CrawlConfig.DEFAULT_BACKOFF_MAX, "longest back-off"),
              CrawlConfig.Builder::backoffMax)
          .bind(Setting.ofInt("crawl.max-retries").defaultValue(CrawlConfig.DEFAULT_MAX_RETRIES)
              .doc("retries of a URL answered 429/503").build(), CrawlConfig.Builder::maxRetries)
          .bind(duration("crawl.robots-retry", CrawlConfig.DEFAULT_ROBOTS_RETRY,
              "wait before fetching an unreachable robots.txt again"), CrawlConfig.Builder::robotsRetry)
          .bind(Setting.ofInt("crawl.robots-attempts").defaultValue(CrawlConfig.DEFAULT_ROBOTS_ATTEMPTS)
              .doc("robots.txt attempts before a host's URLs are given up").build(), CrawlConfig.Builder::robotsAttempts)
          .bind(Setting.ofString("crawl.robots-agent").defaultValue(CrawlConfig.DEFAULT_ROBOTS_AGENT).paramLabel("TOKEN")
              .doc("robots.txt product token").build(), CrawlConfig.Builder::robotsAgent)
          .bind(Setting.ofBoolean("crawl.sitemaps").defaultValue(true)
              .doc("follow sitemaps listed in robots.txt").build(), CrawlConfig.Builder::sitemaps)
          .bind(Setting.ofString("crawl.user-agent").defaultValue(HttpFetcher.DEFAULT_USER_AGENT).paramLabel("UA")
              .doc("User-Agent header").build(), (b, v) -> b.fetch(f -> f.userAgent(v)))
          .bind(duration("crawl.connect-timeout", HttpFetcher.DEFAULT_CONNECT_TIMEOUT, "TCP connect and TLS handshake"),
              (b, v) -> b.fetch(f -> f.connectTimeout(v)))
          .bind(duration("crawl.read-timeout", HttpFetcher.DEFAULT_READ_TIMEOUT,
              "longest silence while a response is due"), (b, v) -> b.fetch(f -> f.readTimeout(v)))
          .bind(duration("crawl.total-timeout", HttpFetcher.DEFAULT_TOTAL_TIMEOUT, "one whole request/response"),
              (b, v) -> b.fetch(f -> f.totalTimeout(v)))
          .bind(Setting.ofBytes("crawl.min-rate").defaultValue(HttpFetcher.DEFAULT_MIN_BYTES_PER_SECOND)
              .doc("slow-drip guard: minimum bytes per second after --slow-grace, 0 off").build(),
              (b, v) -> b.fetch(f -> f.minBytesPerSecond(v)))
          .bind(duration("crawl.slow-grace", HttpFetcher.DEFAULT_SLOW_GRACE, "time before the slow-drip guard applies"),
              (b, v) -> b.fetch(f -> f.slowGrace(v)))
          .bind(Setting.ofBytes("crawl.max-body").defaultValue(HttpFetcher.DEFAULT_MAX_BODY_BYTES)
              .doc("body bytes as received").build(), (b, v) -> b.fetch(f -> f.maxBodyBytes(v)))
          .bind(Setting.ofBytes("crawl.max-decompressed").defaultValue(HttpFetcher.DEFAULT_MAX_DECOMPRESSED_BYTES)
              .doc("body after gzip/deflate, the bomb guard").build(), (b, v) -> b.fetch(f -> f.maxDecompressedBytes(v)))
          .bind(Setting.ofInt("crawl.max-redirects").defaultValue(HttpFetcher.DEFAULT_MAX_REDIRECTS)
              .doc("redirects followed").build(), (b, v) -> b.fetch(f -> f.maxRedirects(v)))
          .bind(INSECURE, (b, on) -> b.fetch(f -> f.insecure(on)))
          .bind(Setting.ofBoolean("crawl.allow-private").defaultValue(false)
              .doc("allow private, loopback and link-local addresses (tests, the demo)").build(),
              CrawlConfig.Builder::allowPrivate)
          .bind(DNS, (b, l) -> l.forEach(d -> b.dnsServer(hostPort(d))))
          .bind(Setting.ofBytes("crawl.warc-max-size").defaultValue(WarcOutput.DEFAULT_MAX_FILE_BYTES)
              .doc("start a new WARC file past this size").build(), CrawlConfig.Builder::warcMaxSize)
          .bind(Setting.ofBoolean("crawl.warc-gzip").defaultValue(true)
              .doc("write .warc.gz rather than .warc").build(), CrawlConfig.Builder::warcGzip)
          .bind(Setting.ofInt("crawl.warc-gzip-level").defaultValue(WarcOutput.DEFAULT_GZIP_LEVEL)
              .doc("deflate level of .warc.gz records, 1 (fastest) to 9 (smallest)").build(),
              CrawlConfig.Builder::warcGzipLevel)
          .bind(Setting.ofEnum("crawl.fsync", CrawlConfig.Fsync.class).defaultValue(CrawlConfig.Fsync.BATCH)
              .doc("when output is forced to disk").build(), CrawlConfig.Builder::fsync)
          .bind(duration("crawl.fsync-interval", CrawlConfig.DEFAULT_FSYNC_INTERVAL, "interval of --fsync batch"),
              CrawlConfig.Builder::fsyncInterval)
          .bind(Setting.ofLong("crawl.checkpoint-lines").defaultValue(CrawlConfig.DEFAULT_CHECKPOINT_LINES)
              .doc("journal lines between checkpoints").build(), CrawlConfig.Builder::checkpointLines)
          .bind(Setting.ofBytes("crawl.seen-memory").defaultValue(SeenSet.DEFAULT_MEMORY_BUDGET)
              .doc("memory for the exact seen-set before it becomes a Bloom filter").build(),
              CrawlConfig.Builder::seenMemory)
          .bind(Setting.ofLong("crawl.bloom-expected").defaultValue(SeenSet.DEFAULT_BLOOM_EXPECTED)
              .doc("URLs the Bloom filter is sized for").build(), CrawlConfig.Builder::bloomExpected)
          .bind(Setting.ofDouble("crawl.bloom-fpp").defaultValue(SeenSet.DEFAULT_BLOOM_FPP).paramLabel("P")
              .doc("Bloom false-positive rate").build(), CrawlConfig.Builder::bloomFpp)
          .bind(Setting.ofEnum("crawl.progress", CrawlConfig.Progress.class).defaultValue(CrawlConfig.Progress.AUTO)
              .doc("how progress is shown").build(), CrawlConfig.Builder::progress)
          .bind(duration("crawl.progress-interval", CrawlConfig.DEFAULT_PROGRESS_INTERVAL,
              "interval of plain progress lines"), CrawlConfig.Builder::progressInterval)
          .bind(Setting.ofInt("crawl.metrics-port").optional().paramLabel("PORT")
              .doc("serve OpenMetrics at http://127.0.0.1:PORT/metrics (default: off)").build(),
              CrawlConfig.Builder::metricsPort)
          .build();

  private CrawlSettings() {}

  private static Setting<Duration> duration(String key, Duration defaultValue, String doc) {
    return Setting.ofDuration(key).defaultValue(defaultValue).doc(doc).build();
  }

  private static Setting<List<String>> list(String key, String label, String doc) {
    return Setting.ofStringList(key).defaultValue(List.of()).paramLabel(label).doc(doc).build();
  }

  /** Reads {@code HOST} or {@code HOST:PORT}; port 53 when absent. */
  static InetSocketAddress hostPort(String s) {
    int colon = s.lastIndexOf(':');
    try {
      if (colon > 0) {
        return new InetSocketAddress(s.substring(0, colon), Integer.parseInt(s.substring(colon + 1)));
      }
      return new InetSocketAddress(s, 53);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("dns: " + s + " (expected: HOST or HOST:PORT)", e);
    }
  }
}
