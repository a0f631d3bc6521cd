package io.krill.testweb;

import io.krill.config.Units;
import io.krill.fibers.Checks;
import java.net.InetAddress;
import java.time.Duration;

/**
 * The knobs of the synthetic web: its size, shape, speed, faults and traps. Every knob has a
 * named default ({@code DEFAULT_*}), is checked when set (an {@link IllegalArgumentException}
 * naming the knob), and is a flag of {@code krill testweb}. Two configurations that are
 * {@link #equals equal} generate the same web.
 *
 * <pre>{@code
 * TestWebConfig c = TestWebConfig.builder().hosts(5000).latency(Duration.ofMillis(50)).latencyJitter(0).build();
 * }</pre>
 *
 * <p>Threading: immutable and thread-safe; the {@link Builder} is not thread-safe.
 */
public final class TestWebConfig {
  /** Default generator seed. */
  public static final long DEFAULT_SEED = 42;
  /** Default number of virtual hosts. */
  public static final int DEFAULT_HOSTS = 20;
  /** Default number of registrable domains the hosts are spread over. */
  public static final int DEFAULT_DOMAINS = 2;
  /** Default number of loopback addresses the hosts are spread over. */
  public static final int DEFAULT_IPS = 4;
  /** Default first loopback address; the others follow it. */
  public static final String DEFAULT_FIRST_IP = "127.0.1.1";
  /** Default HTTP port, shared by every address; 0 picks a free one. */
  public static final int DEFAULT_PORT = 0;
  /** Default DNS port on 127.0.0.1 (UDP and TCP); 0 picks a free one. */
  public static final int DEFAULT_DNS_PORT = 0;
  /** Default number of seed URLs (the roots of the first hosts). */
  public static final int DEFAULT_SEEDS = 1;
  /** Default pages per host, the root page included. */
  public static final int DEFAULT_PAGES_PER_HOST = 15;
  /** Default links per page. */
  public static final int DEFAULT_OUT_DEGREE = 6;
  /** Default share of links that point to another host. */
  public static final double DEFAULT_CROSS_HOST_RATE = 0.2;
  /** Default mean page size in bytes; pages vary from half to one and a half times it. */
  public static final long DEFAULT_PAGE_BYTES = 4096;
  /** Default server latency per request, before the first byte. */
  public static final Duration DEFAULT_LATENCY = Duration.ofMillis(20);
  /** Default spread of latency and bandwidth between hosts: each host gets {@code value * (1 +- jitter)}. */
  public static final double DEFAULT_LATENCY_JITTER = 0.5;
  /** Default bytes per second of one response; 0 for unlimited. */
  public static final long DEFAULT_BANDWIDTH = 1L << 20;
  /** Default share of links that point to a missing page (404). */
  public static final double DEFAULT_NOT_FOUND_RATE = 0.03;
  /** Default share of links that point to a host with no DNS record (NXDOMAIN). */
  public static final double DEFAULT_DEAD_HOST_RATE = 0.01;
  /** Default share of pages that always answer 500. */
  public static final double DEFAULT_SERVER_ERROR_RATE = 0.02;
  /** Default share of pages that first answer 429 with Retry-After. */
  public static final double DEFAULT_THROTTLE_RATE = 0.03;
  /** Default number of 429 answers a throttled page gives before it answers 200. */
  public static final int DEFAULT_THROTTLE_COUNT = 1;
  /** Default Retry-After of a 429 answer. */
  public static final Duration DEFAULT_RETRY_AFTER = Duration.ofSeconds(1);
  /** Default share of pages whose connection is reset instead of answered. */
  public static final double DEFAULT_RESET_RATE = 0.01;
  /** Default share of pages that drip their body slowly. */
  public static final double DEFAULT_SLOW_DRIP_RATE = 0.01;
  /** Default drip speed of a slow page, bytes per second. */
  public static final long DEFAULT_SLOW_DRIP_BANDWIDTH = 16;
  /** Default time a slow page drips before it completes. */
  public static final Duration DEFAULT_SLOW_DRIP_DURATION = Duration.ofSeconds(30);
  /** Default share of pages that redirect (301) to another page. */
  public static final double DEFAULT_REDIRECT_RATE = 0.03;
  /** Default share of pages under {@code /private/}, which robots.txt disallows. */
  public static final double DEFAULT_DISALLOWED_RATE = 0.1;
  /** Default share of pages no page links to: only the sitemap lists them. */
  public static final double DEFAULT_SITEMAP_ONLY_RATE = 0.1;
  /** Default share of hosts without robots.txt (404: everything allowed). */
  public static final double DEFAULT_ROBOTS_MISSING_RATE = 0.1;
  /** Default share of hosts whose robots.txt answers 503 (RFC 9309: nothing allowed). */
  public static final double DEFAULT_ROBOTS_ERROR_RATE = 0.05;
  /** Default Crawl-delay in robots.txt; 0 leaves the line out. */
  public static final Duration DEFAULT_CRAWL_DELAY = Duration.ofMillis(300);
  /** Default: robots.txt lists a sitemap. */
  public static final boolean DEFAULT_SITEMAPS = true;
  /** Default number of hosts with a calendar trap (endless next-month links). */
  public static final int DEFAULT_CALENDAR_HOSTS = 1;
  /** Default number of hosts with a session-id trap (a new {@code sid} in every link). */
  public static final int DEFAULT_SESSION_ID_HOSTS = 1;
  /** Default number of hosts with an infinitely deep path. */
  public static final int DEFAULT_DEEP_PATH_HOSTS = 1;
  /** Default number of hosts with a redirect loop. */
  public static final int DEFAULT_REDIRECT_LOOP_HOSTS = 1;
  /** Default number of URLs in a redirect loop. */
  public static final int DEFAULT_REDIRECT_LOOP_LENGTH = 3;
  /** Default number of hosts with a gzip bomb. */
  public static final int DEFAULT_GZIP_BOMB_HOSTS = 1;
  /** Default size a gzip bomb inflates to. */
  public static final long DEFAULT_GZIP_BOMB_BYTES = 64L << 20;
  /** Default TTL of the DNS answers. */
  public static final Duration DEFAULT_DNS_TTL = Duration.ofMinutes(5);
  /** Default number of hosts whose DNS answer is SERVFAIL. */
  public static final int DEFAULT_DNS_FAILURE_HOSTS = 0;
  /** Default number of hosts whose DNS queries get no answer. */
  public static final int DEFAULT_DNS_TIMEOUT_HOSTS = 0;
  /** Default most entries the access log keeps (a few hundred bytes each); later requests are counted, not kept. */
  public static final int DEFAULT_ACCESS_LOG_LIMIT = 200_000;

  /** The most hosts. */
  public static final int MAX_HOSTS = 100_000;
  /** The most loopback addresses. */
  public static final int MAX_IPS = 4096;
  /** The most pages per host. */
  public static final int MAX_PAGES_PER_HOST = 100_000;

  private static final TestWebConfig DEFAULTS = new Builder().build();

  final long seed;
  final int hosts;
  final int domains;
  final int ips;
  final InetAddress firstIp;
  final int port;
  final int dnsPort;
  final int seeds;
  final int pagesPerHost;
  final int outDegree;
  final double crossHostRate;
  final long pageBytes;
  final Duration latency;
  final double latencyJitter;
  final long bandwidth;
  final double notFoundRate;
  final double deadHostRate;
  final double serverErrorRate;
  final double throttleRate;
  final int throttleCount;
  final Duration retryAfter;
  final double resetRate;
  final double slowDripRate;
  final long slowDripBandwidth;
  final Duration slowDripDuration;
  final double redirectRate;
  final double disallowedRate;
  final double sitemapOnlyRate;
  final double robotsMissingRate;
  final double robotsErrorRate;
  final Duration crawlDelay;
  final boolean sitemaps;
  final int calendarHosts;
  final int sessionIdHosts;
  final int deepPathHosts;
  final int redirectLoopHosts;
  final int redirectLoopLength;
  final int gzipBombHosts;
  final long gzipBombBytes;
  final Duration dnsTtl;
  final int dnsFailureHosts;
  final int dnsTimeoutHosts;
  final int accessLogLimit;

  private TestWebConfig(Builder b) {
    seed = b.seed;
    hosts = b.hosts;
    domains = b.domains;
    ips = b.ips;
    firstIp = b.firstIp;
    port = b.port;
    dnsPort = b.dnsPort;
    seeds = b.seeds;
    pagesPerHost = b.pagesPerHost;
    outDegree = b.outDegree;
    crossHostRate = b.crossHostRate;
    pageBytes = b.pageBytes;
    latency = b.latency;
    latencyJitter = b.latencyJitter;
    bandwidth = b.bandwidth;
    notFoundRate = b.notFoundRate;
    deadHostRate = b.deadHostRate;
    serverErrorRate = b.serverErrorRate;
    throttleRate = b.throttleRate;
    throttleCount = b.throttleCount;
    retryAfter = b.retryAfter;
    resetRate = b.resetRate;
    slowDripRate = b.slowDripRate;
    slowDripBandwidth = b.slowDripBandwidth;
    slowDripDuration = b.slowDripDuration;
    redirectRate = b.redirectRate;
    disallowedRate = b.disallowedRate;
    sitemapOnlyRate = b.sitemapOnlyRate;
    robotsMissingRate = b.robotsMissingRate;
    robotsErrorRate = b.robotsErrorRate;
    crawlDelay = b.crawlDelay;
    sitemaps = b.sitemaps;
    calendarHosts = b.calendarHosts;
    sessionIdHosts = b.sessionIdHosts;
    deepPathHosts = b.deepPathHosts;
    redirectLoopHosts = b.redirectLoopHosts;
    redirectLoopLength = b.redirectLoopLength;
    gzipBombHosts = b.gzipBombHosts;
    gzipBombBytes = b.gzipBombBytes;
    dnsTtl = b.dnsTtl;
    dnsFailureHosts = b.dnsFailureHosts;
    dnsTimeoutHosts = b.dnsTimeoutHosts;
    accessLogLimit = b.accessLogLimit;
  }

  /** @return a builder holding the defaults */
  public static Builder builder() {
    return new Builder();
  }

  /** @return the default configuration: the demo web */
  public static TestWebConfig defaults() {
    return DEFAULTS;
  }

  /** @return a builder holding this configuration's values */
  public Builder toBuilder() {
    return TestWebSettings.BINDING.copy(this, new Builder());
  }

  // Accessors: one per knob, named like it.

  /** @return the generator seed */
  public long seed() {
    return seed;
  }

  /** @return the number of virtual hosts */
  public int hosts() {
    return hosts;
  }

  /** @return the number of registrable domains */
  public int domains() {
    return domains;
  }

  /** @return the number of loopback addresses */
  public int ips() {
    return ips;
  }

  /** @return the first loopback address */
  public InetAddress firstIp() {
    return firstIp;
  }

  /** @return the HTTP port (0: a free one) */
  public int port() {
    return port;
  }

  /** @return the DNS port (0: a free one) */
  public int dnsPort() {
    return dnsPort;
  }

  /** @return the number of seed URLs */
  public int seeds() {
    return seeds;
  }

  /** @return the pages per host */
  public int pagesPerHost() {
    return pagesPerHost;
  }

  /** @return the links per page */
  public int outDegree() {
    return outDegree;
  }

  /** @return the share of cross-host links */
  public double crossHostRate() {
    return crossHostRate;
  }

  /** @return the mean page size in bytes */
  public long pageBytes() {
    return pageBytes;
  }

  /** @return the mean server latency */
  public Duration latency() {
    return latency;
  }

  /** @return the spread of latency and bandwidth between hosts */
  public double latencyJitter() {
    return latencyJitter;
  }

  /** @return bytes per second of one response, 0 for unlimited */
  public long bandwidth() {
    return bandwidth;
  }

  /** @return the share of links to missing pages */
  public double notFoundRate() {
    return notFoundRate;
  }

  /** @return the share of links to hosts without DNS */
  public double deadHostRate() {
    return deadHostRate;
  }

  /** @return the share of pages answering 500 */
  public double serverErrorRate() {
    return serverErrorRate;
  }

  /** @return the share of pages that first answer 429 */
  public double throttleRate() {
    return throttleRate;
  }

  /** @return the 429 answers before a throttled page answers 200 */
  public int throttleCount() {
    return throttleCount;
  }

  /** @return the Retry-After of a 429 */
  public Duration retryAfter() {
    return retryAfter;
  }

  /** @return the share of pages whose connection is reset */
  public double resetRate() {
    return resetRate;
  }

  /** @return the share of slowly dripping pages */
  public double slowDripRate() {
    return slowDripRate;
  }

  /** @return the drip speed in bytes per second */
  public long slowDripBandwidth() {
    return slowDripBandwidth;
  }

  /** @return how long a slow page drips */
  public Duration slowDripDuration() {
    return slowDripDuration;
  }

  /** @return the share of redirecting pages */
  public double redirectRate() {
    return redirectRate;
  }

  /** @return the share of pages robots.txt disallows */
  public double disallowedRate() {
    return disallowedRate;
  }

  /** @return the share of pages only the sitemap lists */
  public double sitemapOnlyRate() {
    return sitemapOnlyRate;
  }

  /** @return the share of hosts without robots.txt */
  public double robotsMissingRate() {
    return robotsMissingRate;
  }

  /** @return the share of hosts whose robots.txt answers 503 */
  public double robotsErrorRate() {
    return robotsErrorRate;
  }

  /** @return the Crawl-delay in robots.txt, zero for none */
  public Duration crawlDelay() {
    return crawlDelay;
  }

  /** @return whether robots.txt lists a sitemap */
  public boolean sitemaps() {
    return sitemaps;
  }

  /** @return the hosts with a calendar trap */
  public int calendarHosts() {
    return calendarHosts;
  }

  /** @return the hosts with a session-id trap */
  public int sessionIdHosts() {
    return sessionIdHosts;
  }

  /** @return the hosts with an infinitely deep path */
  public int deepPathHosts() {
    return deepPathHosts;
  }

  /** @return the hosts with a redirect loop */
  public int redirectLoopHosts() {
    return redirectLoopHosts;
  }

  /** @return the URLs in a redirect loop */
  public int redirectLoopLength() {
    return redirectLoopLength;
  }

  /** @return the hosts with a gzip bomb */
  public int gzipBombHosts() {
    return gzipBombHosts;
  }

  /** @return the size a gzip bomb inflates to */
  public long gzipBombBytes() {
    return gzipBombBytes;
  }

  /** @return the TTL of DNS answers */
  public Duration dnsTtl() {
    return dnsTtl;
  }

  /** @return the hosts whose DNS answer is SERVFAIL */
  public int dnsFailureHosts() {
    return dnsFailureHosts;
  }

  /** @return the hosts whose DNS queries go unanswered */
  public int dnsTimeoutHosts() {
    return dnsTimeoutHosts;
  }

  /** @return the most entries the access log keeps */
  public int accessLogLimit() {
    return accessLogLimit;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof TestWebConfig && describe().equals(((TestWebConfig) o).describe());
  }

  @Override
  public int hashCode() {
    return describe().hashCode();
  }

  /** @return every knob as {@code --flag=value}, in the order of the table */
  @Override
  public String toString() {
    return describe();
  }

  private String describe() {
    return TestWebSettings.BINDING.describe(this);
  }

  /** Collects and checks knob values. Each setter throws {@link IllegalArgumentException} naming the knob. */
  public static final class Builder {
    private static final Duration SECOND = Duration.ofSeconds(1);
    private static final Duration MILLISECOND = Duration.ofMillis(1);

    private long seed = DEFAULT_SEED;
    private int hosts = DEFAULT_HOSTS;
    private int domains = DEFAULT_DOMAINS;
    private int ips = DEFAULT_IPS;
    private InetAddress firstIp = Loopback.parse(DEFAULT_FIRST_IP);
    private int port = DEFAULT_PORT;
    private int dnsPort = DEFAULT_DNS_PORT;
    private int seeds = DEFAULT_SEEDS;
    private int pagesPerHost = DEFAULT_PAGES_PER_HOST;
    private int outDegree = DEFAULT_OUT_DEGREE;
    private double crossHostRate = DEFAULT_CROSS_HOST_RATE;
    private long pageBytes = DEFAULT_PAGE_BYTES;
    private Duration latency = DEFAULT_LATENCY;
    private double latencyJitter = DEFAULT_LATENCY_JITTER;
    private long bandwidth = DEFAULT_BANDWIDTH;
    private double notFoundRate = DEFAULT_NOT_FOUND_RATE;
    private double deadHostRate = DEFAULT_DEAD_HOST_RATE;
    private double serverErrorRate = DEFAULT_SERVER_ERROR_RATE;
    private double throttleRate = DEFAULT_THROTTLE_RATE;
    private int throttleCount = DEFAULT_THROTTLE_COUNT;
    private Duration retryAfter = DEFAULT_RETRY_AFTER;
    private double resetRate = DEFAULT_RESET_RATE;
    private double slowDripRate = DEFAULT_SLOW_DRIP_RATE;
    private long slowDripBandwidth = DEFAULT_SLOW_DRIP_BANDWIDTH;
    private Duration slowDripDuration = DEFAULT_SLOW_DRIP_DURATION;
    private double redirectRate = DEFAULT_REDIRECT_RATE;
    private double disallowedRate = DEFAULT_DISALLOWED_RATE;
    private double sitemapOnlyRate = DEFAULT_SITEMAP_ONLY_RATE;
    private double robotsMissingRate = DEFAULT_ROBOTS_MISSING_RATE;
    private double robotsErrorRate = DEFAULT_ROBOTS_ERROR_RATE;
    private Duration crawlDelay = DEFAULT_CRAWL_DELAY;
    private boolean sitemaps = DEFAULT_SITEMAPS;
    private int calendarHosts = DEFAULT_CALENDAR_HOSTS;
    private int sessionIdHosts = DEFAULT_SESSION_ID_HOSTS;
    private int deepPathHosts = DEFAULT_DEEP_PATH_HOSTS;
    private int redirectLoopHosts = DEFAULT_REDIRECT_LOOP_HOSTS;
    private int redirectLoopLength = DEFAULT_REDIRECT_LOOP_LENGTH;
    private int gzipBombHosts = DEFAULT_GZIP_BOMB_HOSTS;
    private long gzipBombBytes = DEFAULT_GZIP_BOMB_BYTES;
    private Duration dnsTtl = DEFAULT_DNS_TTL;
    private int dnsFailureHosts = DEFAULT_DNS_FAILURE_HOSTS;
    private int dnsTimeoutHosts = DEFAULT_DNS_TIMEOUT_HOSTS;
    private int accessLogLimit = DEFAULT_ACCESS_LOG_LIMIT;

    private Builder() {}

    /** @param seed the generator seed: the same seed and knobs give the same web @return this */
    public Builder seed(long seed) {
      this.seed = seed;
      return this;
    }

    /** @param hosts virtual hosts, 1..{@value #MAX_HOSTS} @return this */
    public Builder hosts(int hosts) {
      this.hosts = Checks.inRange("hosts", hosts, 1, MAX_HOSTS);
      return this;
    }

    /** @param domains registrable domains ({@code krill.test}, {@code krill-1.test}, ...; host i is in domain i % domains), 1..{@value #MAX_HOSTS} @return this */
    public Builder domains(int domains) {
      this.domains = Checks.inRange("domains", domains, 1, MAX_HOSTS);
      return this;
    }

    /** @param ips loopback addresses the hosts are spread over, 1..{@value #MAX_IPS} @return this */
    public Builder ips(int ips) {
      this.ips = Checks.inRange("ips", ips, 1, MAX_IPS);
      return this;
    }

    /** @param firstIp the first loopback address, an IPv4 literal in 127.0.0.0/8 @return this */
    public Builder firstIp(String firstIp) {
      this.firstIp = Loopback.parse(firstIp);
      return this;
    }

    /** @param port the HTTP port of every address, 0..65535 (0: a free one) @return this */
    public Builder port(int port) {
      this.port = Checks.inRange("port", port, 0, 65535);
      return this;
    }

    /** @param dnsPort the DNS port on 127.0.0.1, 0..65535 (0: a free one) @return this */
    public Builder dnsPort(int dnsPort) {
      this.dnsPort = Checks.inRange("dnsPort", dnsPort, 0, 65535);
      return this;
    }

    /** @param seeds seed URLs, the roots of hosts 0..seeds-1, 1..hosts @return this */
    public Builder seeds(int seeds) {
      this.seeds = Checks.inRange("seeds", seeds, 1, MAX_HOSTS);
      return this;
    }

    /** @param pages pages per host including the root, 1..{@value #MAX_PAGES_PER_HOST} @return this */
    public Builder pagesPerHost(int pages) {
      this.pagesPerHost = Checks.inRange("pagesPerHost", pages, 1, MAX_PAGES_PER_HOST);
      return this;
    }

    /** @param links links per page, 0..1000 @return this */
    public Builder outDegree(int links) {
      this.outDegree = Checks.inRange("outDegree", links, 0, 1000);
      return this;
    }

    /** @param rate share of links to another host, 0..1 @return this */
    public Builder crossHostRate(double rate) {
      this.crossHostRate = Checks.rate("crossHostRate", rate);
      return this;
    }

    /** @param bytes mean page size, 256..16MiB @return this */
    public Builder pageBytes(long bytes) {
      this.pageBytes = Checks.inRange("pageBytes", bytes, 256, 16L << 20);
      return this;
    }

    /** @param latency server time before the first byte, 0..60s @return this */
    public Builder latency(Duration latency) {
      this.latency = Checks.inRange("latency", latency, Duration.ZERO, Duration.ofSeconds(60));
      return this;
    }

    /** @param jitter spread of latency and bandwidth between hosts, 0..0.9 @return this */
    public Builder latencyJitter(double jitter) {
      if (!(jitter >= 0 && jitter <= 0.9)) {
        throw Checks.bad("latencyJitter", jitter, "0..0.9");
      }
      this.latencyJitter = jitter;
      return this;
    }

    /** @param bytesPerSecond speed of one response, 0 (unlimited) or 1KiB..1GiB @return this */
    public Builder bandwidth(long bytesPerSecond) {
      if (bytesPerSecond != 0) {
        Checks.inRange("bandwidth", bytesPerSecond, 1024, 1L << 30);
      }
      this.bandwidth = bytesPerSecond;
      return this;
    }

    /** @param rate share of links to missing pages, 0..1 @return this */
    public Builder notFoundRate(double rate) {
      this.notFoundRate = Checks.rate("notFoundRate", rate);
      return this;
    }

    /** @param rate share of links to hosts without DNS, 0..1 @return this */
    public Builder deadHostRate(double rate) {
      this.deadHostRate = Checks.rate("deadHostRate", rate);
      return this;
    }

    /** @param rate share of pages answering 500, 0..1 @return this */
    public Builder serverErrorRate(double rate) {
      this.serverErrorRate = Checks.rate("serverErrorRate", rate);
      return this;
    }

    /** @param rate share of pages first answering 429, 0..1 @return this */
    public Builder throttleRate(double rate) {
      this.throttleRate = Checks.rate("throttleRate", rate);
      return this;
    }

    /** @param count 429 answers before a throttled page answers 200, 1..100 @return this */
    public Builder throttleCount(int count) {
      this.throttleCount = Checks.inRange("throttleCount", count, 1, 100);
      return this;
    }

    /** @param retryAfter the Retry-After of a 429, whole seconds 1s..1h @return this */
    public Builder retryAfter(Duration retryAfter) {
      this.retryAfter = whole("retryAfter", retryAfter, Duration.ofSeconds(1), Duration.ofHours(1), SECOND);
      return this;
    }

    /** @param rate share of pages whose connection is reset, 0..1 @return this */
    public Builder resetRate(double rate) {
      this.resetRate = Checks.rate("resetRate", rate);
      return this;
    }

    /** @param rate share of slowly dripping pages, 0..1 @return this */
    public Builder slowDripRate(double rate) {
      this.slowDripRate = Checks.rate("slowDripRate", rate);
      return this;
    }

    /** @param bytesPerSecond drip speed, 1..1024 @return this */
    public Builder slowDripBandwidth(long bytesPerSecond) {
      this.slowDripBandwidth = Checks.inRange("slowDripBandwidth", bytesPerSecond, 1, 1024);
      return this;
    }

    /** @param duration how long a slow page drips before completing, 1s..10m @return this */
    public Builder slowDripDuration(Duration duration) {
      this.slowDripDuration = Checks.inRange("slowDripDuration", duration, Duration.ofSeconds(1), Duration.ofMinutes(10));
      return this;
    }

    /** @param rate share of pages redirecting (301) to another page, 0..1 @return this */
    public Builder redirectRate(double rate) {
      this.redirectRate = Checks.rate("redirectRate", rate);
      return this;
    }

    /** @param rate share of pages under /private/, 0..1 @return this */
    public Builder disallowedRate(double rate) {
      this.disallowedRate = Checks.rate("disallowedRate", rate);
      return this;
    }

    /** @param rate share of pages listed only in the sitemap, 0..1 @return this */
    public Builder sitemapOnlyRate(double rate) {
      this.sitemapOnlyRate = Checks.rate("sitemapOnlyRate", rate);
      return this;
    }

    /** @param rate share of hosts without robots.txt, 0..1 @return this */
    public Builder robotsMissingRate(double rate) {
      this.robotsMissingRate = Checks.rate("robotsMissingRate", rate);
      return this;
    }

    /** @param rate share of hosts whose robots.txt answers 503, 0..1 @return this */
    public Builder robotsErrorRate(double rate) {
      this.robotsErrorRate = Checks.rate("robotsErrorRate", rate);
      return this;
    }

    /** @param delay the Crawl-delay of robots.txt, 0 (no line) or 1ms..60s @return this */
    public Builder crawlDelay(Duration delay) {
      this.crawlDelay = whole("crawlDelay", delay, Duration.ZERO, Duration.ofSeconds(60), MILLISECOND);
      return this;
    }

    /** @param sitemaps whether robots.txt lists a sitemap @return this */
    public Builder sitemaps(boolean sitemaps) {
      this.sitemaps = sitemaps;
      return this;
    }

    /** @param hosts hosts with a calendar trap, 0..hosts @return this */
    public Builder calendarHosts(int hosts) {
      this.calendarHosts = Checks.inRange("calendarHosts", hosts, 0, MAX_HOSTS);
      return this;
    }

    /** @param hosts hosts with a session-id trap, 0..hosts @return this */
    public Builder sessionIdHosts(int hosts) {
      this.sessionIdHosts = Checks.inRange("sessionIdHosts", hosts, 0, MAX_HOSTS);
      return this;
    }

    /** @param hosts hosts with an infinitely deep path, 0..hosts @return this */
    public Builder deepPathHosts(int hosts) {
      this.deepPathHosts = Checks.inRange("deepPathHosts", hosts, 0, MAX_HOSTS);
      return this;
    }

    /** @param hosts hosts with a redirect loop, 0..hosts @return this */
    public Builder redirectLoopHosts(int hosts) {
      this.redirectLoopHosts = Checks.inRange("redirectLoopHosts", hosts, 0, MAX_HOSTS);
      return this;
    }

    /** @param length URLs in a redirect loop, 1..100 @return this */
    public Builder redirectLoopLength(int length) {
      this.redirectLoopLength = Checks.inRange("redirectLoopLength", length, 1, 100);
      return this;
    }

    /** @param hosts hosts with a gzip bomb, 0..hosts @return this */
    public Builder gzipBombHosts(int hosts) {
      this.gzipBombHosts = Checks.inRange("gzipBombHosts", hosts, 0, MAX_HOSTS);
      return this;
    }

    /** @param bytes size the bomb inflates to, 1MiB..1GiB @return this */
    public Builder gzipBombBytes(long bytes) {
      this.gzipBombBytes = Checks.inRange("gzipBombBytes", bytes, 1L << 20, 1L << 30);
      return this;
    }

    /** @param ttl TTL of DNS answers, whole seconds 0..1d @return this */
    public Builder dnsTtl(Duration ttl) {
      this.dnsTtl = whole("dnsTtl", ttl, Duration.ZERO, Duration.ofDays(1), SECOND);
      return this;
    }

    /** @param hosts hosts whose DNS answer is SERVFAIL, 0..hosts-1 @return this */
    public Builder dnsFailureHosts(int hosts) {
      this.dnsFailureHosts = Checks.inRange("dnsFailureHosts", hosts, 0, MAX_HOSTS);
      return this;
    }

    /** @param hosts hosts whose DNS queries go unanswered, 0..hosts-1 @return this */
    public Builder dnsTimeoutHosts(int hosts) {
      this.dnsTimeoutHosts = Checks.inRange("dnsTimeoutHosts", hosts, 0, MAX_HOSTS);
      return this;
    }

    /** @param entries most entries the access log keeps, 0..10,000,000 @return this */
    public Builder accessLogLimit(int entries) {
      this.accessLogLimit = Checks.inRange("accessLogLimit", entries, 0, 10_000_000);
      return this;
    }

    /** @return {@code d}, checked to lie in {@code min..max} and to be a whole number of {@code unit} */
    private static Duration whole(String name, Duration d, Duration min, Duration max, Duration unit) {
      Checks.inRange(name, d, min, max);
      if (d.toNanos() % unit.toNanos() != 0) {
        throw Checks.bad(name, Units.format(d), unit.equals(SECOND) ? "whole seconds" : "whole milliseconds");
      }
      return d;
    }

    /**
     * Checks the knobs against each other and builds the configuration.
     *
     * @return the configuration
     * @throws IllegalArgumentException naming the first knob out of its range
     */
    public TestWebConfig build() {
      Checks.inRange("seeds", seeds, 1, hosts);
      long lastIp = Loopback.ipv4(firstIp) + ips - 1;
      if (lastIp > 0x7fff_fffeL) {
        throw Checks.bad("ips", ips, "<= " + (0x7fff_fffeL - Loopback.ipv4(firstIp) + 1) + " addresses after firstIp " + firstIp.getHostAddress()
            + ", to stay in 127.0.0.0/8");
      }
      for (String[] t : new String[][] {
          {"calendarHosts", "" + calendarHosts}, {"sessionIdHosts", "" + sessionIdHosts}, {"deepPathHosts", "" + deepPathHosts},
          {"redirectLoopHosts", "" + redirectLoopHosts}, {"gzipBombHosts", "" + gzipBombHosts}}) {
        Checks.inRange(t[0], Integer.parseInt(t[1]), 0, hosts);
      }
      if (dnsFailureHosts + dnsTimeoutHosts > hosts - seeds) {
        throw Checks.bad("dnsFailureHosts + dnsTimeoutHosts", dnsFailureHosts + dnsTimeoutHosts,
            "<= hosts - seeds = " + (hosts - seeds) + ": seed hosts always resolve");
      }
      sumAtMostOne("serverErrorRate + throttleRate + resetRate + slowDripRate + redirectRate",
          serverErrorRate + throttleRate + resetRate + slowDripRate + redirectRate);
      sumAtMostOne("notFoundRate + deadHostRate", notFoundRate + deadHostRate);
      sumAtMostOne("robotsMissingRate + robotsErrorRate", robotsMissingRate + robotsErrorRate);
      return new TestWebConfig(this);
    }

    private static void sumAtMostOne(String name, double sum) {
      if (sum > 1 + 1e-9) {
        throw Checks.bad(name, sum, "<= 1");
      }
    }
  }
}
