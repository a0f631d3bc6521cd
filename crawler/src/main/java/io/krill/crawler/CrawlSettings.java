package io.krill.crawler;

import io.krill.config.ConfigBinding;
import io.krill.config.HostPort;
import io.krill.config.Setting;
import io.krill.crawler.fetch.HttpFetcher;
import io.krill.crawler.frontier.Frontier;
import io.krill.crawler.frontier.Scope;
import io.krill.crawler.frontier.SeenSet;
import io.krill.crawler.output.WarcOutput;
import io.krill.fibers.ExecutionMode;
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

  /** The port of a {@link #DNS} server given without one. */
  private static final int DNS_PORT = 53;

  /** DNS servers, {@code HOST} or {@code HOST:PORT}. */
  public static final Setting<List<String>> DNS = Setting.ofStringList("crawl.dns").defaultValue(List.of())
      .paramLabel("HOST:PORT").doc("DNS server (repeatable; default: the system's)").build();

  /** Where the live web console listens, {@code HOST:PORT}; absent: no console. */
  public static final Setting<String> CONSOLE = Setting.ofString("crawl.console").optional().paramLabel("HOST:PORT")
      .doc("serve a live web console of the crawl at http://HOST:PORT/; an address other than loopback needs "
          + "--console-token (default: off)")
      .build();

  /** The console's control token; absent: a random one, printed at start. Never written to the output directory. */
  public static final Setting<String> CONSOLE_TOKEN = Setting.ofString("crawl.console-token").optional()
      .paramLabel("TOKEN").doc("token the console's controls require; not saved for --resume, so give it again there "
          + "(or in KRILL_CRAWL_CONSOLE_TOKEN, which ps does not show) (default: a random one, printed at start)").build();

  /** Every crawl setting, bound to its builder setter. */
  public static final ConfigBinding<CrawlConfig, CrawlConfig.Builder> BINDING =
      ConfigBinding.<CrawlConfig, CrawlConfig.Builder>builder()
          .bind(OUT, CrawlConfig.Builder::out)
          .bind(Setting.ofString("crawl.mode").defaultValue(ExecutionMode.FIBER.alias())
              .paramLabel("fibers|threads|virtual")
              .oneOf(List.of(ExecutionMode.FIBER.alias(), ExecutionMode.PLATFORM.alias(), ExecutionMode.VIRTUAL.alias()))
              .doc("how fetches run: a fiber each, a pool of platform threads, or a virtual thread each").build(),
              (b, m) -> b.mode(ExecutionMode.parse(m)))
          .bind(integer("crawl.threads", CrawlConfig.DEFAULT_THREADS, "platform threads for --mode threads"),
              CrawlConfig.Builder::threads)
          .bind(Setting.ofBoolean("crawl.naive").defaultValue(false)
              .doc("a new fiber/thread per URL with no pool and no in-flight cap (the Piranha program)").build(),
              CrawlConfig.Builder::naive)
          .bind(integer("crawl.max-in-flight", CrawlConfig.DEFAULT_MAX_IN_FLIGHT, "fetches in flight at once"),
              CrawlConfig.Builder::maxInFlight)
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
          .bind(longValue("crawl.max-pages", CrawlConfig.DEFAULT_MAX_PAGES, "pages to fetch at most"),
              CrawlConfig.Builder::maxPages)
          .bind(bytes("crawl.max-bytes", CrawlConfig.DEFAULT_MAX_BYTES, "bytes to receive at most"),
              CrawlConfig.Builder::maxBytes)
          .bind(duration("crawl.max-duration", CrawlConfig.DEFAULT_MAX_DURATION, "crawl time at most"),
              CrawlConfig.Builder::maxDuration)
          .bind(duration("crawl.delay", CrawlConfig.DEFAULT_DELAY,
              "wait before each request to a host, counted from the previous one's start and end"),
              CrawlConfig.Builder::delay)
          .bind(integer("crawl.per-host", CrawlConfig.DEFAULT_PER_HOST, "requests in flight per host"),
              CrawlConfig.Builder::perHost)
          .bind(integer("crawl.per-ip", CrawlConfig.DEFAULT_PER_IP, "requests in flight per IP address"),
              CrawlConfig.Builder::perIp)
          .bind(duration("crawl.max-crawl-delay", CrawlConfig.DEFAULT_MAX_CRAWL_DELAY, "cap on a robots.txt Crawl-delay"),
              CrawlConfig.Builder::maxCrawlDelay)
          .bind(duration("crawl.backoff-base", CrawlConfig.DEFAULT_BACKOFF_BASE,
              "first back-off after 429/503 or a failed connection"), CrawlConfig.Builder::backoffBase)
          .bind(duration("crawl.backoff-max", CrawlConfig.DEFAULT_BACKOFF_MAX, "longest back-off"),
              CrawlConfig.Builder::backoffMax)
          .bind(integer("crawl.max-retries", CrawlConfig.DEFAULT_MAX_RETRIES, "retries of a URL answered 429/503"),
              CrawlConfig.Builder::maxRetries)
          .bind(duration("crawl.robots-retry", CrawlConfig.DEFAULT_ROBOTS_RETRY,
              "wait before fetching an unreachable robots.txt again"), CrawlConfig.Builder::robotsRetry)
          .bind(integer("crawl.robots-attempts", CrawlConfig.DEFAULT_ROBOTS_ATTEMPTS, "robots.txt attempts before a host's URLs are given up"),
              CrawlConfig.Builder::robotsAttempts)
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
          .bind(bytes("crawl.min-rate", HttpFetcher.DEFAULT_MIN_BYTES_PER_SECOND, "slow-drip guard: minimum bytes per second after --slow-grace, 0 off"),
              (b, v) -> b.fetch(f -> f.minBytesPerSecond(v)))
          .bind(duration("crawl.slow-grace", HttpFetcher.DEFAULT_SLOW_GRACE, "time before the slow-drip guard applies"),
              (b, v) -> b.fetch(f -> f.slowGrace(v)))
          .bind(bytes("crawl.max-body", HttpFetcher.DEFAULT_MAX_BODY_BYTES, "body bytes as received"),
              (b, v) -> b.fetch(f -> f.maxBodyBytes(v)))
          .bind(bytes("crawl.max-decompressed", HttpFetcher.DEFAULT_MAX_DECOMPRESSED_BYTES, "body after gzip/deflate, the bomb guard"),
              (b, v) -> b.fetch(f -> f.maxDecompressedBytes(v)))
          .bind(integer("crawl.max-redirects", HttpFetcher.DEFAULT_MAX_REDIRECTS, "redirects followed"),
              (b, v) -> b.fetch(f -> f.maxRedirects(v)))
          .bind(INSECURE, (b, on) -> b.fetch(f -> f.insecure(on)))
          .bind(Setting.ofBoolean("crawl.allow-private").defaultValue(false)
              .doc("allow private, loopback and link-local addresses (tests, the demo)").build(),
              CrawlConfig.Builder::allowPrivate)
          .bind(DNS, (b, l) -> l.forEach(d -> b.dnsServer(HostPort.parse("dns", d, DNS_PORT).socketAddress())))
          .bind(bytes("crawl.warc-max-size", WarcOutput.DEFAULT_MAX_FILE_BYTES, "start a new WARC file past this size"),
              CrawlConfig.Builder::warcMaxSize)
          .bind(Setting.ofBoolean("crawl.warc-gzip").defaultValue(true)
              .doc("write .warc.gz rather than .warc").build(), CrawlConfig.Builder::warcGzip)
          .bind(integer("crawl.warc-gzip-level", WarcOutput.DEFAULT_GZIP_LEVEL, "deflate level of .warc.gz records, 1 (fastest) to 9 (smallest)"),
              CrawlConfig.Builder::warcGzipLevel)
          .bind(Setting.ofEnum("crawl.fsync", CrawlConfig.Fsync.class).defaultValue(CrawlConfig.Fsync.BATCH)
              .doc("when output is forced to disk").build(), CrawlConfig.Builder::fsync)
          .bind(duration("crawl.fsync-interval", CrawlConfig.DEFAULT_FSYNC_INTERVAL, "interval of --fsync batch"),
              CrawlConfig.Builder::fsyncInterval)
          .bind(longValue("crawl.checkpoint-lines", CrawlConfig.DEFAULT_CHECKPOINT_LINES, "journal lines between checkpoints"),
              CrawlConfig.Builder::checkpointLines)
          .bind(bytes("crawl.seen-memory", SeenSet.DEFAULT_MEMORY_BUDGET, "memory for the exact seen-set before it becomes a Bloom filter"),
              CrawlConfig.Builder::seenMemory)
          .bind(longValue("crawl.bloom-expected", SeenSet.DEFAULT_BLOOM_EXPECTED, "URLs the Bloom filter is sized for"),
              CrawlConfig.Builder::bloomExpected)
          .bind(Setting.ofDouble("crawl.bloom-fpp").defaultValue(SeenSet.DEFAULT_BLOOM_FPP).paramLabel("P")
              .doc("Bloom false-positive rate").build(), CrawlConfig.Builder::bloomFpp)
          .bind(Setting.ofEnum("crawl.progress", CrawlConfig.Progress.class).defaultValue(CrawlConfig.Progress.AUTO)
              .doc("how progress is shown").build(), CrawlConfig.Builder::progress)
          .bind(duration("crawl.progress-interval", CrawlConfig.DEFAULT_PROGRESS_INTERVAL,
              "interval of plain progress lines"), CrawlConfig.Builder::progressInterval)
          .bind(Setting.ofInt("crawl.metrics-port").optional().paramLabel("PORT")
              .doc("serve OpenMetrics at http://127.0.0.1:PORT/metrics (default: off)").build(),
              CrawlConfig.Builder::metricsPort)
          .add(CONSOLE)
          .add(CONSOLE_TOKEN)
          .build();

  private CrawlSettings() {}

  private static Setting<Duration> duration(String key, Duration defaultValue, String doc) {
    return Setting.ofDuration(key).defaultValue(defaultValue).doc(doc).build();
  }

  private static Setting<Integer> integer(String key, int defaultValue, String doc) {
    return Setting.ofInt(key).defaultValue(defaultValue).doc(doc).build();
  }

  private static Setting<Long> longValue(String key, long defaultValue, String doc) {
    return Setting.ofLong(key).defaultValue(defaultValue).doc(doc).build();
  }

  private static Setting<Long> bytes(String key, long defaultValue, String doc) {
    return Setting.ofBytes(key).defaultValue(defaultValue).doc(doc).build();
  }

  private static Setting<List<String>> list(String key, String label, String doc) {
    return Setting.ofStringList(key).defaultValue(List.of()).paramLabel(label).doc(doc).build();
  }
}
