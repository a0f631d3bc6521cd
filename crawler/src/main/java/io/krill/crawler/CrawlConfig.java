package io.krill.crawler;

import io.krill.crawler.fetch.HttpFetcher;
import io.krill.crawler.frontier.Frontier;
import io.krill.crawler.frontier.Scope;
import io.krill.crawler.frontier.SeenSet;
import io.krill.crawler.frontier.UrlNormalizer;
import io.krill.crawler.links.LinkExtractor;
import io.krill.crawler.output.WarcOutput;
import io.krill.fibers.Checks;
import io.krill.fibers.ExecutionMode;
import io.krill.netio.dns.DnsResolver;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.regex.Pattern;

/**
 * Everything a crawl is configured with. Every limit has a {@code DEFAULT_*} constant here or
 * in the class that enforces it, is checked by its builder method (an
 * {@link IllegalArgumentException} naming the field), and has a row in
 * {@code docs/readme/crawler.md}. Immutable; build with {@link #builder()}.
 */
public final class CrawlConfig {
  /** When output files are forced to disk. */
  public enum Fsync {
    /** After every commit: survives power loss, slowest. */
    ALWAYS,
    /** Every fsync interval: survives kill -9 always (data is in the OS), power loss up to the interval. */
    BATCH,
    /** Never explicitly: survives kill -9 (data is in the OS), not power loss. */
    NEVER
  }

  /** How progress is shown. */
  public enum Progress {
    /** A live line on a terminal, plain periodic lines otherwise. */
    AUTO,
    /** Always a live line (carriage return). */
    TTY,
    /** Always plain periodic lines. */
    PLAIN,
    /** No progress output. */
    OFF
  }

  /** Default output directory. */
  public static final Path DEFAULT_OUT = Paths.get("crawl-out");
  /** Default threads for {@link ExecutionMode#PLATFORM}. */
  public static final int DEFAULT_THREADS = 32;
  /** Default fetches in flight at once (fibers and virtual threads). */
  public static final int DEFAULT_MAX_IN_FLIGHT = 1000;
  /** Default maximum link depth from a seed. */
  public static final int DEFAULT_MAX_DEPTH = 5;
  /** Default maximum pages fetched. */
  public static final long DEFAULT_MAX_PAGES = 10_000;
  /** Default maximum bytes received. */
  public static final long DEFAULT_MAX_BYTES = 1L << 30;
  /** Default maximum crawl duration. */
  public static final Duration DEFAULT_MAX_DURATION = Duration.ofHours(1);
  /** Default delay between request starts to one host. */
  public static final Duration DEFAULT_DELAY = Duration.ofSeconds(1);
  /** Default requests in flight per host. */
  public static final int DEFAULT_PER_HOST = 1;
  /** Default requests in flight per IP address. */
  public static final int DEFAULT_PER_IP = 4;
  /** Default cap on a robots.txt Crawl-delay. */
  public static final Duration DEFAULT_MAX_CRAWL_DELAY = Duration.ofSeconds(30);
  /** Default first back-off after 429/503. */
  public static final Duration DEFAULT_BACKOFF_BASE = Duration.ofSeconds(1);
  /** Default longest back-off. */
  public static final Duration DEFAULT_BACKOFF_MAX = Duration.ofMinutes(5);
  /** Default fetch attempts of one URL answered with 429/503. */
  public static final int DEFAULT_MAX_RETRIES = 3;
  /** Default wait before fetching an unreachable robots.txt again. */
  public static final Duration DEFAULT_ROBOTS_RETRY = Duration.ofSeconds(60);
  /** Default robots.txt attempts before a host's URLs are given up. */
  public static final int DEFAULT_ROBOTS_ATTEMPTS = 3;
  /** Default robots.txt product token. */
  public static final String DEFAULT_ROBOTS_AGENT = "krill";
  /** Default interval of {@link Fsync#BATCH}. */
  public static final Duration DEFAULT_FSYNC_INTERVAL = Duration.ofSeconds(1);
  /** Default journal lines between checkpoints. */
  public static final long DEFAULT_CHECKPOINT_LINES = 200_000;
  /** Default commits waiting for the output writer. */
  public static final int DEFAULT_OUTPUT_QUEUE = 1024;
  /** Default interval of plain progress lines. */
  public static final Duration DEFAULT_PROGRESS_INTERVAL = Duration.ofSeconds(10);

  final List<String> seeds;
  final Path out;
  final boolean resume;
  final ExecutionMode mode;
  final int threads;
  final boolean naive;
  final int maxInFlight;
  final int carriers;
  final Frontier.Order order;
  final Scope.Kind scope;
  final List<String> allowDomains;
  final List<Pattern> include;
  final List<Pattern> exclude;
  final int maxDepth;
  final long maxPages;
  final long maxBytes;
  final Duration maxDuration;
  final Duration delay;
  final int perHost;
  final int perIp;
  final Duration maxCrawlDelay;
  final Duration backoffBase;
  final Duration backoffMax;
  final int maxRetries;
  final Duration robotsRetry;
  final int robotsAttempts;
  final String robotsAgent;
  final boolean sitemaps;
  final boolean allowPrivate;
  final Consumer<HttpFetcher.Builder> fetch;
  final DnsResolver resolver;
  final List<InetSocketAddress> dnsServers;
  final Duration dnsTimeout;
  final long warcMaxSize;
  final boolean warcGzip;
  final int warcGzipLevel;
  final Fsync fsync;
  final Duration fsyncInterval;
  final long checkpointLines;
  final int outputQueue;
  final long seenMemory;
  final long bloomExpected;
  final double bloomFpp;
  final int maxLinksPerPage;
  final Progress progress;
  final Duration progressInterval;
  final int metricsPort;
  final long randomSeed;

  private CrawlConfig(Builder b) {
    seeds = List.copyOf(b.seeds);
    out = b.out;
    resume = b.resume;
    mode = b.mode;
    threads = b.threads;
    naive = b.naive;
    maxInFlight = b.maxInFlight;
    carriers = b.carriers;
    order = b.order;
    scope = b.scope;
    allowDomains = List.copyOf(b.allowDomains);
    include = List.copyOf(b.include);
    exclude = List.copyOf(b.exclude);
    maxDepth = b.maxDepth;
    maxPages = b.maxPages;
    maxBytes = b.maxBytes;
    maxDuration = b.maxDuration;
    delay = b.delay;
    perHost = b.perHost;
    perIp = b.perIp;
    maxCrawlDelay = b.maxCrawlDelay;
    backoffBase = b.backoffBase;
    backoffMax = b.backoffMax;
    maxRetries = b.maxRetries;
    robotsRetry = b.robotsRetry;
    robotsAttempts = b.robotsAttempts;
    robotsAgent = b.robotsAgent;
    sitemaps = b.sitemaps;
    allowPrivate = b.allowPrivate;
    fetch = b.fetch;
    resolver = b.resolver;
    dnsServers = List.copyOf(b.dnsServers);
    dnsTimeout = b.dnsTimeout;
    warcMaxSize = b.warcMaxSize;
    warcGzip = b.warcGzip;
    warcGzipLevel = b.warcGzipLevel;
    fsync = b.fsync;
    fsyncInterval = b.fsyncInterval;
    checkpointLines = b.checkpointLines;
    outputQueue = b.outputQueue;
    seenMemory = b.seenMemory;
    bloomExpected = b.bloomExpected;
    bloomFpp = b.bloomFpp;
    maxLinksPerPage = b.maxLinksPerPage;
    progress = b.progress;
    progressInterval = b.progressInterval;
    metricsPort = b.metricsPort;
    randomSeed = b.randomSeed;
  }

  /** @return a builder with the defaults */
  public static Builder builder() {
    return new Builder();
  }

  /** @return the seeds, normalized */
  public List<String> seeds() {
    return seeds;
  }

  /** @return the output directory */
  public Path out() {
    return out;
  }

  /** @return the execution mode */
  public ExecutionMode mode() {
    return mode;
  }

  /** @return true for the naive (no pool, no in-flight cap) variant */
  public boolean naive() {
    return naive;
  }

  /** Configures a crawl; not thread-safe. Each setter checks its argument. */
  public static final class Builder {
    private final List<String> seeds = new ArrayList<>();
    private Path out = DEFAULT_OUT;
    private boolean resume;
    private ExecutionMode mode = ExecutionMode.FIBER;
    private int threads = DEFAULT_THREADS;
    private boolean naive;
    private int maxInFlight = DEFAULT_MAX_IN_FLIGHT;
    private int carriers = Runtime.getRuntime().availableProcessors();
    private Frontier.Order order = Frontier.Order.BFS;
    private Scope.Kind scope = Scope.Kind.HOST;
    private final List<String> allowDomains = new ArrayList<>();
    private final List<Pattern> include = new ArrayList<>();
    private final List<Pattern> exclude = new ArrayList<>();
    private int maxDepth = DEFAULT_MAX_DEPTH;
    private long maxPages = DEFAULT_MAX_PAGES;
    private long maxBytes = DEFAULT_MAX_BYTES;
    private Duration maxDuration = DEFAULT_MAX_DURATION;
    private Duration delay = DEFAULT_DELAY;
    private int perHost = DEFAULT_PER_HOST;
    private int perIp = DEFAULT_PER_IP;
    private Duration maxCrawlDelay = DEFAULT_MAX_CRAWL_DELAY;
    private Duration backoffBase = DEFAULT_BACKOFF_BASE;
    private Duration backoffMax = DEFAULT_BACKOFF_MAX;
    private int maxRetries = DEFAULT_MAX_RETRIES;
    private Duration robotsRetry = DEFAULT_ROBOTS_RETRY;
    private int robotsAttempts = DEFAULT_ROBOTS_ATTEMPTS;
    private String robotsAgent = DEFAULT_ROBOTS_AGENT;
    private boolean sitemaps = true;
    private boolean allowPrivate;
    private final HttpFetcher.Builder fetchProbe = HttpFetcher.builder();
    private Consumer<HttpFetcher.Builder> fetch = f -> { };
    private DnsResolver resolver;
    private final List<InetSocketAddress> dnsServers = new ArrayList<>();
    private Duration dnsTimeout = DnsResolver.DEFAULT_TIMEOUT;
    private long warcMaxSize = WarcOutput.DEFAULT_MAX_FILE_BYTES;
    private boolean warcGzip = true;
    private int warcGzipLevel = WarcOutput.DEFAULT_GZIP_LEVEL;
    private Fsync fsync = Fsync.BATCH;
    private Duration fsyncInterval = DEFAULT_FSYNC_INTERVAL;
    private long checkpointLines = DEFAULT_CHECKPOINT_LINES;
    private int outputQueue = DEFAULT_OUTPUT_QUEUE;
    private long seenMemory = SeenSet.DEFAULT_MEMORY_BUDGET;
    private long bloomExpected = SeenSet.DEFAULT_BLOOM_EXPECTED;
    private double bloomFpp = SeenSet.DEFAULT_BLOOM_FPP;
    private int maxLinksPerPage = LinkExtractor.DEFAULT_MAX_LINKS_PER_PAGE;
    private Progress progress = Progress.AUTO;
    private Duration progressInterval = DEFAULT_PROGRESS_INTERVAL;
    private int metricsPort = -1;
    private long randomSeed = 42;

    private Builder() {}

    /**
     * @param url a seed URL
     * @return this
     * @throws IllegalArgumentException naming the URL if it is not a valid http(s) URL
     */
    public Builder seed(String url) {
      String n = isAbsoluteHttp(Objects.requireNonNull(url, "seed")) ? UrlNormalizer.normalize(url) : null;
      if (n == null) {
        throw Checks.bad("seed", "\"" + url + "\"", "an absolute http or https URL");
      }
      seeds.add(n);
      return this;
    }

    private static boolean isAbsoluteHttp(String url) {
      try {
        java.net.URI u = new java.net.URI(url.trim());
        String scheme = u.getScheme() == null ? "" : u.getScheme().toLowerCase(java.util.Locale.ROOT);
        return (scheme.equals("http") || scheme.equals("https")) && u.getHost() != null;
      } catch (java.net.URISyntaxException e) {
        return false;
      }
    }

    /** @param dir the output directory @return this */
    public Builder out(Path dir) {
      this.out = Objects.requireNonNull(dir, "out");
      return this;
    }

    /** @param on continue the crawl journaled in the output directory @return this */
    public Builder resume(boolean on) {
      this.resume = on;
      return this;
    }

    /** @param m the execution mode @return this */
    public Builder mode(ExecutionMode m) {
      this.mode = Objects.requireNonNull(m, "mode");
      return this;
    }

    /** @param n platform threads for {@link ExecutionMode#PLATFORM} @return this */
    public Builder threads(int n) {
      this.threads = Checks.positive("threads", n);
      return this;
    }

    /** @param on a new strand per URL, no pool and no in-flight cap @return this */
    public Builder naive(boolean on) {
      this.naive = on;
      return this;
    }

    /** @param n fetches in flight at once (fibers, virtual) @return this */
    public Builder maxInFlight(int n) {
      this.maxInFlight = Checks.positive("maxInFlight", n);
      return this;
    }

    /** @param n event-loop carriers for I/O and fibers @return this */
    public Builder carriers(int n) {
      this.carriers = Checks.positive("carriers", n);
      return this;
    }

    /** @param o the crawl order @return this */
    public Builder order(Frontier.Order o) {
      this.order = Objects.requireNonNull(o, "order");
      return this;
    }

    /** @param k how far from the seeds' hosts @return this */
    public Builder scope(Scope.Kind k) {
      this.scope = Objects.requireNonNull(k, "scope");
      return this;
    }

    /** @param domain a domain the crawl may visit (with subdomains) @return this */
    public Builder allowDomain(String domain) {
      Objects.requireNonNull(domain, "allowDomain");
      if (domain.isBlank() || domain.contains("/")) {
        throw Checks.bad("allowDomain", "\"" + domain + "\"", "a domain name");
      }
      allowDomains.add(domain);
      return this;
    }

    /** @param regex URLs must match one include pattern (if any is given) @return this */
    public Builder include(String regex) {
      include.add(Checks.regex("include", regex));
      return this;
    }

    /** @param regex URLs matching it are skipped @return this */
    public Builder exclude(String regex) {
      exclude.add(Checks.regex("exclude", regex));
      return this;
    }

    /** @param n maximum link depth (0: seeds only) @return this */
    public Builder maxDepth(int n) {
      this.maxDepth = Checks.nonNegative("maxDepth", n);
      return this;
    }

    /** @param n maximum pages fetched @return this */
    public Builder maxPages(long n) {
      this.maxPages = Checks.positive("maxPages", n);
      return this;
    }

    /** @param n maximum bytes received @return this */
    public Builder maxBytes(long n) {
      this.maxBytes = Checks.positive("maxBytes", n);
      return this;
    }

    /** @param d maximum crawl duration @return this */
    public Builder maxDuration(Duration d) {
      this.maxDuration = Checks.positive("maxDuration", d);
      return this;
    }

    /** @param d delay between request starts to one host @return this */
    public Builder delay(Duration d) {
      this.delay = Checks.nonNegative("delay", d);
      return this;
    }

    /** @param n requests in flight per host @return this */
    public Builder perHost(int n) {
      this.perHost = Checks.positive("perHost", n);
      return this;
    }

    /** @param n requests in flight per IP address @return this */
    public Builder perIp(int n) {
      this.perIp = Checks.positive("perIp", n);
      return this;
    }

    /** @param d cap on robots.txt Crawl-delay @return this */
    public Builder maxCrawlDelay(Duration d) {
      this.maxCrawlDelay = Checks.nonNegative("maxCrawlDelay", d);
      return this;
    }

    /** @param d first back-off @return this */
    public Builder backoffBase(Duration d) {
      this.backoffBase = Checks.positive("backoffBase", d);
      return this;
    }

    /** @param d longest back-off @return this */
    public Builder backoffMax(Duration d) {
      this.backoffMax = Checks.positive("backoffMax", d);
      return this;
    }

    /** @param n attempts for a URL answered 429/503 @return this */
    public Builder maxRetries(int n) {
      this.maxRetries = Checks.nonNegative("maxRetries", n);
      return this;
    }

    /** @param d wait before fetching an unreachable robots.txt again @return this */
    public Builder robotsRetry(Duration d) {
      this.robotsRetry = Checks.positive("robotsRetry", d);
      return this;
    }

    /** @param n robots.txt attempts before the host's URLs are given up @return this */
    public Builder robotsAttempts(int n) {
      this.robotsAttempts = Checks.positive("robotsAttempts", n);
      return this;
    }

    /** @param token the robots.txt product token @return this */
    public Builder robotsAgent(String token) {
      Objects.requireNonNull(token, "robotsAgent");
      if (!token.matches("[A-Za-z_-]+")) {
        throw Checks.bad("robotsAgent", "\"" + token + "\"", "letters, '_' and '-'");
      }
      this.robotsAgent = token;
      return this;
    }

    /** @param on follow sitemaps listed in robots.txt @return this */
    public Builder sitemaps(boolean on) {
      this.sitemaps = on;
      return this;
    }

    /**
     * Sets fetch options: user agent, timeouts, slow-drip guard, body limits, redirects, TLS
     * trust. They are checked now and applied to the crawl's fetcher when it is built.
     *
     * <pre>{@code
     * CrawlConfig.builder().fetch(f -> f.connectTimeout(Duration.ofSeconds(5)).maxRedirects(3))
     * }</pre>
     *
     * @param options sets options on an {@link HttpFetcher.Builder}
     * @return this
     * @throws IllegalArgumentException naming the option the fetcher refuses
     */
    public Builder fetch(Consumer<HttpFetcher.Builder> options) {
      options.accept(fetchProbe);
      this.fetch = this.fetch.andThen(options);
      return this;
    }

    /** @param on allow private, loopback and link-local addresses @return this */
    public Builder allowPrivate(boolean on) {
      this.allowPrivate = on;
      return this;
    }

    /** @param r a resolver to use instead of one built from the DNS settings @return this */
    public Builder resolver(DnsResolver r) {
      this.resolver = Objects.requireNonNull(r, "resolver");
      return this;
    }

    /** @param server a DNS server (default: the system's) @return this */
    public Builder dnsServer(InetSocketAddress server) {
      dnsServers.add(Objects.requireNonNull(server, "dnsServer"));
      return this;
    }

    /** @param d DNS timeout per attempt @return this */
    public Builder dnsTimeout(Duration d) {
      this.dnsTimeout = Checks.positive("dnsTimeout", d);
      return this;
    }

    /** @param n WARC rotation size @return this */
    public Builder warcMaxSize(long n) {
      this.warcMaxSize = Checks.positive("warcMaxSize", n);
      return this;
    }

    /** @param on gzip WARC records @return this */
    public Builder warcGzip(boolean on) {
      this.warcGzip = on;
      return this;
    }

    /**
     * @param level deflate level of gzipped WARC records, 1 (fastest) to 9 (smallest); default
     *     {@link WarcOutput#DEFAULT_GZIP_LEVEL}
     * @return this
     * @throws IllegalArgumentException naming {@code warcGzipLevel} outside 1..9
     */
    public Builder warcGzipLevel(int level) {
      this.warcGzipLevel = Checks.inRange("warcGzipLevel", level, 1, 9);
      return this;
    }

    /** @param f the fsync policy @return this */
    public Builder fsync(Fsync f) {
      this.fsync = Objects.requireNonNull(f, "fsync");
      return this;
    }

    /** @param d interval of {@link Fsync#BATCH} @return this */
    public Builder fsyncInterval(Duration d) {
      this.fsyncInterval = Checks.positive("fsyncInterval", d);
      return this;
    }

    /** @param n journal lines between checkpoints @return this */
    public Builder checkpointLines(long n) {
      this.checkpointLines = Checks.positive("checkpointLines", n);
      return this;
    }

    /** @param n commits waiting for the output writer @return this */
    public Builder outputQueue(int n) {
      this.outputQueue = Checks.positive("outputQueue", n);
      return this;
    }

    /** @param bytes memory for the exact seen-set @return this */
    public Builder seenMemory(long bytes) {
      this.seenMemory = Checks.positive("seenMemory", bytes);
      return this;
    }

    /** @param n URLs the Bloom filter is sized for @return this */
    public Builder bloomExpected(long n) {
      this.bloomExpected = Checks.positive("bloomExpected", n);
      return this;
    }

    /** @param p Bloom false-positive rate @return this */
    public Builder bloomFpp(double p) {
      this.bloomFpp = Checks.probability("bloomFpp", p);
      return this;
    }

    /** @param n outlinks taken per page @return this */
    public Builder maxLinksPerPage(int n) {
      this.maxLinksPerPage = Checks.positive("maxLinksPerPage", n);
      return this;
    }

    /** @param p how progress is shown @return this */
    public Builder progress(Progress p) {
      this.progress = Objects.requireNonNull(p, "progress");
      return this;
    }

    /** @param d interval of plain progress lines @return this */
    public Builder progressInterval(Duration d) {
      this.progressInterval = Checks.positive("progressInterval", d);
      return this;
    }

    /** @param port serve OpenMetrics on 127.0.0.1:port (0: any free port; -1: off) @return this */
    public Builder metricsPort(int port) {
      this.metricsPort = Checks.inRange("metricsPort", port, -1, 65535);
      return this;
    }

    /** @param seed seeds the random order and back-off jitter @return this */
    public Builder randomSeed(long seed) {
      this.randomSeed = seed;
      return this;
    }

    /**
     * @return the configuration
     * @throws IllegalArgumentException if there is no seed and no resume
     */
    public CrawlConfig build() {
      if (seeds.isEmpty() && !resume) {
        throw new IllegalArgumentException("seeds: none (expected: at least one URL, or --resume DIR)");
      }
      return new CrawlConfig(this);
    }
  }
}
