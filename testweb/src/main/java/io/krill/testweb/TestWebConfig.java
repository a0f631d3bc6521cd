package io.krill.testweb;

import io.krill.fibers.Checks;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.RecordComponent;
import java.net.InetAddress;
import java.time.Duration;

/**
 * The knobs of the synthetic web, composed of one value per concern: its {@link WebShape shape},
 * {@link WebSpeed speed}, {@link WebFaults faults}, {@link WebRobots robots.txt and sitemaps},
 * {@link WebTraps traps} and {@link WebDns DNS}, plus the access log's size. Every knob has a
 * named default ({@code DEFAULT_*}, in the type of its concern), is checked when set (an
 * {@link IllegalArgumentException} naming the knob), and is a flag of {@code krill testweb}. Two
 * configurations that are {@link #equals equal} generate the same web.
 *
 * <pre>{@code
 * TestWebConfig c = TestWebConfig.builder().hosts(5000).latency(Duration.ofMillis(50)).latencyJitter(0).build();
 * }</pre>
 *
 * <p>Threading: immutable and thread-safe; the {@link Builder} is not thread-safe.
 */
public final class TestWebConfig {
  /** Default most entries the access log keeps (a few hundred bytes each); later requests are counted, not kept. */
  public static final int DEFAULT_ACCESS_LOG_LIMIT = 200_000;

  private static final TestWebConfig DEFAULTS = new Builder().build();

  private final WebShape shape;
  private final WebSpeed speed;
  private final WebFaults faults;
  private final WebRobots robots;
  private final WebTraps traps;
  private final WebDns dns;
  private final int accessLogLimit;

  private TestWebConfig(Builder b) {
    shape = b.shape;
    speed = b.speed;
    faults = b.faults;
    robots = b.robots;
    traps = b.traps;
    dns = b.dns;
    accessLogLimit = b.accessLogLimit;
  }

  /** @return a builder holding the defaults */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Returns a builder for a web where a crawl finds long paths first: clean pages (no faults,
   * traps, disallowed paths or sitemaps), fast hosts, and {@code slowHosts} hosts that answer
   * after {@code slowLatency}, so the short paths through them turn up after longer ones through
   * the fast hosts. The shortest-path depths come from its {@link GroundTruth}.
   *
   * @param hosts virtual hosts
   * @param pagesPerHost pages per host
   * @param slowHosts of them, slow
   * @param slowLatency their latency
   * @return the builder
   */
  public static Builder longPathsFirst(int hosts, int pagesPerHost, int slowHosts, Duration slowLatency) {
    return builder().hosts(hosts).pagesPerHost(pagesPerHost).slowHosts(slowHosts).slowLatency(slowLatency)
        .latency(Duration.ofMillis(2)).latencyJitter(0).crossHostRate(0.4).notFoundRate(0).deadHostRate(0).serverErrorRate(0)
        .throttleRate(0).resetRate(0).slowDripRate(0).redirectRate(0).disallowedRate(0).sitemapOnlyRate(0).robotsMissingRate(0)
        .robotsErrorRate(0).crawlDelay(Duration.ZERO).sitemaps(false).calendarHosts(0).sessionIdHosts(0).deepPathHosts(0)
        .redirectLoopHosts(0).gzipBombHosts(0);
  }

  /** @return the default configuration: the demo web */
  public static TestWebConfig defaults() {
    return DEFAULTS;
  }

  /** @return a builder holding this configuration's values */
  public Builder toBuilder() {
    return TestWebSettings.BINDING.copy(this, new Builder());
  }

  /** @return the web's shape: seed, hosts, addresses, ports, pages and links */
  public WebShape shape() {
    return shape;
  }

  /** @return the web's speed: latency, bandwidth and slow drip */
  public WebSpeed speed() {
    return speed;
  }

  /** @return the web's faults: error answers, throttling, resets, slow pages and redirects */
  public WebFaults faults() {
    return faults;
  }

  /** @return what robots.txt and the sitemaps say */
  public WebRobots robots() {
    return robots;
  }

  /** @return the crawler traps */
  public WebTraps traps() {
    return traps;
  }

  /** @return the DNS answers */
  public WebDns dns() {
    return dns;
  }

  // Accessors: one per knob, named like it, reading the group that holds it.

  /** @return the generator seed */
  public long seed() {
    return shape.seed();
  }

  /** @return the number of virtual hosts */
  public int hosts() {
    return shape.hosts();
  }

  /** @return the number of registrable domains */
  public int domains() {
    return shape.domains();
  }

  /** @return the number of loopback addresses */
  public int ips() {
    return shape.ips();
  }

  /** @return the first loopback address */
  public InetAddress firstIp() {
    return shape.firstIp();
  }

  /** @return the HTTP port (0: a free one) */
  public int port() {
    return shape.port();
  }

  /** @return the DNS port (0: a free one) */
  public int dnsPort() {
    return shape.dnsPort();
  }

  /** @return the number of seed URLs */
  public int seeds() {
    return shape.seeds();
  }

  /** @return the pages per host */
  public int pagesPerHost() {
    return shape.pagesPerHost();
  }

  /** @return the links per page */
  public int outDegree() {
    return shape.outDegree();
  }

  /** @return the share of cross-host links */
  public double crossHostRate() {
    return shape.crossHostRate();
  }

  /** @return the mean page size in bytes */
  public long pageBytes() {
    return shape.pageBytes();
  }

  /** @return the mean server latency */
  public Duration latency() {
    return speed.latency();
  }

  /** @return hosts (never a seed) that answer after {@link #slowLatency()} */
  public int slowHosts() {
    return speed.slowHosts();
  }

  /** @return the latency of the slow hosts */
  public Duration slowLatency() {
    return speed.slowLatency();
  }

  /** @return the spread of latency and bandwidth between hosts */
  public double latencyJitter() {
    return speed.latencyJitter();
  }

  /** @return bytes per second of one response, 0 for unlimited */
  public long bandwidth() {
    return speed.bandwidth();
  }

  /** @return the share of links to missing pages */
  public double notFoundRate() {
    return faults.notFoundRate();
  }

  /** @return the share of links to hosts without DNS */
  public double deadHostRate() {
    return faults.deadHostRate();
  }

  /** @return the share of pages answering 500 */
  public double serverErrorRate() {
    return faults.serverErrorRate();
  }

  /** @return the share of pages that first answer 429 */
  public double throttleRate() {
    return faults.throttleRate();
  }

  /** @return the 429 answers before a throttled page answers 200 */
  public int throttleCount() {
    return faults.throttleCount();
  }

  /** @return the Retry-After of a 429 */
  public Duration retryAfter() {
    return faults.retryAfter();
  }

  /** @return the share of pages whose connection is reset */
  public double resetRate() {
    return faults.resetRate();
  }

  /** @return the share of slowly dripping pages */
  public double slowDripRate() {
    return faults.slowDripRate();
  }

  /** @return the drip speed in bytes per second */
  public long slowDripBandwidth() {
    return speed.slowDripBandwidth();
  }

  /** @return how long a slow page drips */
  public Duration slowDripDuration() {
    return speed.slowDripDuration();
  }

  /** @return the share of redirecting pages */
  public double redirectRate() {
    return faults.redirectRate();
  }

  /** @return the share of pages robots.txt disallows */
  public double disallowedRate() {
    return robots.disallowedRate();
  }

  /** @return the share of pages only the sitemap lists */
  public double sitemapOnlyRate() {
    return robots.sitemapOnlyRate();
  }

  /** @return the share of hosts without robots.txt */
  public double robotsMissingRate() {
    return robots.robotsMissingRate();
  }

  /** @return the share of hosts whose robots.txt answers 503 */
  public double robotsErrorRate() {
    return robots.robotsErrorRate();
  }

  /** @return the Crawl-delay in robots.txt, zero for none */
  public Duration crawlDelay() {
    return robots.crawlDelay();
  }

  /** @return whether robots.txt lists a sitemap */
  public boolean sitemaps() {
    return robots.sitemaps();
  }

  /** @return the hosts with a calendar trap */
  public int calendarHosts() {
    return traps.calendarHosts();
  }

  /** @return the hosts with a session-id trap */
  public int sessionIdHosts() {
    return traps.sessionIdHosts();
  }

  /** @return the hosts with an infinitely deep path */
  public int deepPathHosts() {
    return traps.deepPathHosts();
  }

  /** @return the hosts with a redirect loop */
  public int redirectLoopHosts() {
    return traps.redirectLoopHosts();
  }

  /** @return the URLs in a redirect loop */
  public int redirectLoopLength() {
    return traps.redirectLoopLength();
  }

  /** @return the hosts with a gzip bomb */
  public int gzipBombHosts() {
    return traps.gzipBombHosts();
  }

  /** @return the size a gzip bomb inflates to */
  public long gzipBombBytes() {
    return traps.gzipBombBytes();
  }

  /** @return the TTL of DNS answers */
  public Duration dnsTtl() {
    return dns.dnsTtl();
  }

  /** @return the hosts whose DNS answer is SERVFAIL */
  public int dnsFailureHosts() {
    return dns.dnsFailureHosts();
  }

  /** @return the hosts whose DNS queries go unanswered */
  public int dnsTimeoutHosts() {
    return dns.dnsTimeoutHosts();
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
    private WebShape shape = WebShape.DEFAULTS;
    private WebSpeed speed = WebSpeed.DEFAULTS;
    private WebFaults faults = WebFaults.DEFAULTS;
    private WebRobots robots = WebRobots.DEFAULTS;
    private WebTraps traps = WebTraps.DEFAULTS;
    private WebDns dns = WebDns.DEFAULTS;
    private int accessLogLimit = DEFAULT_ACCESS_LOG_LIMIT;

    private Builder() {}

    /** @param seed the generator seed: the same seed and knobs give the same web @return this */
    public Builder seed(long seed) {
      shape = with(shape, "seed", seed);
      return this;
    }

    /** @param hosts virtual hosts, 1..{@value WebShape#MAX_HOSTS} @return this */
    public Builder hosts(int hosts) {
      shape = with(shape, "hosts", hosts);
      return this;
    }

    /** @param domains registrable domains ({@code krill.test}, {@code krill-1.test}, ...; host i is in domain i % domains), 1..{@value WebShape#MAX_HOSTS} @return this */
    public Builder domains(int domains) {
      shape = with(shape, "domains", domains);
      return this;
    }

    /** @param ips loopback addresses the hosts are spread over, 1..{@value WebShape#MAX_IPS} @return this */
    public Builder ips(int ips) {
      shape = with(shape, "ips", ips);
      return this;
    }

    /** @param firstIp the first loopback address, an IPv4 literal in 127.0.0.0/8 @return this */
    public Builder firstIp(String firstIp) {
      shape = with(shape, "firstIp", Loopback.parse(firstIp));
      return this;
    }

    /** @param port the HTTP port of every address, 0..65535 (0: a free one) @return this */
    public Builder port(int port) {
      shape = with(shape, "port", port);
      return this;
    }

    /** @param dnsPort the DNS port on 127.0.0.1, 0..65535 (0: a free one) @return this */
    public Builder dnsPort(int dnsPort) {
      shape = with(shape, "dnsPort", dnsPort);
      return this;
    }

    /** @param seeds seed URLs, the roots of hosts 0..seeds-1, 1..hosts @return this */
    public Builder seeds(int seeds) {
      shape = with(shape, "seeds", seeds);
      return this;
    }

    /** @param pages pages per host including the root, 1..{@value WebShape#MAX_PAGES_PER_HOST} @return this */
    public Builder pagesPerHost(int pages) {
      shape = with(shape, "pagesPerHost", pages);
      return this;
    }

    /** @param links links per page, 0..1000 @return this */
    public Builder outDegree(int links) {
      shape = with(shape, "outDegree", links);
      return this;
    }

    /** @param rate share of links to another host, 0..1 @return this */
    public Builder crossHostRate(double rate) {
      shape = with(shape, "crossHostRate", rate);
      return this;
    }

    /** @param bytes mean page size, 256..16MiB @return this */
    public Builder pageBytes(long bytes) {
      shape = with(shape, "pageBytes", bytes);
      return this;
    }

    /** @param latency server time before the first byte, 0..60s @return this */
    public Builder latency(Duration latency) {
      speed = with(speed, "latency", latency);
      return this;
    }

    /** @param hosts hosts (never a seed) that answer after the slow latency, 0..hosts minus seeds @return this */
    public Builder slowHosts(int hosts) {
      speed = with(speed, "slowHosts", hosts);
      return this;
    }

    /** @param latency the slow hosts' latency, 0..60s @return this */
    public Builder slowLatency(Duration latency) {
      speed = with(speed, "slowLatency", latency);
      return this;
    }

    /** @param jitter spread of latency and bandwidth between hosts, 0..0.9 @return this */
    public Builder latencyJitter(double jitter) {
      speed = with(speed, "latencyJitter", jitter);
      return this;
    }

    /** @param bytesPerSecond speed of one response, 0 (unlimited) or 1KiB..1GiB @return this */
    public Builder bandwidth(long bytesPerSecond) {
      speed = with(speed, "bandwidth", bytesPerSecond);
      return this;
    }

    /** @param rate share of links to missing pages, 0..1 @return this */
    public Builder notFoundRate(double rate) {
      faults = with(faults, "notFoundRate", rate);
      return this;
    }

    /** @param rate share of links to hosts without DNS, 0..1 @return this */
    public Builder deadHostRate(double rate) {
      faults = with(faults, "deadHostRate", rate);
      return this;
    }

    /** @param rate share of pages answering 500, 0..1 @return this */
    public Builder serverErrorRate(double rate) {
      faults = with(faults, "serverErrorRate", rate);
      return this;
    }

    /** @param rate share of pages first answering 429, 0..1 @return this */
    public Builder throttleRate(double rate) {
      faults = with(faults, "throttleRate", rate);
      return this;
    }

    /** @param count 429 answers before a throttled page answers 200, 1..100 @return this */
    public Builder throttleCount(int count) {
      faults = with(faults, "throttleCount", count);
      return this;
    }

    /** @param retryAfter the Retry-After of a 429, whole seconds 1s..1h @return this */
    public Builder retryAfter(Duration retryAfter) {
      faults = with(faults, "retryAfter", retryAfter);
      return this;
    }

    /** @param rate share of pages whose connection is reset, 0..1 @return this */
    public Builder resetRate(double rate) {
      faults = with(faults, "resetRate", rate);
      return this;
    }

    /** @param rate share of slowly dripping pages, 0..1 @return this */
    public Builder slowDripRate(double rate) {
      faults = with(faults, "slowDripRate", rate);
      return this;
    }

    /** @param bytesPerSecond drip speed, 1..1024 @return this */
    public Builder slowDripBandwidth(long bytesPerSecond) {
      speed = with(speed, "slowDripBandwidth", bytesPerSecond);
      return this;
    }

    /** @param duration how long a slow page drips before completing, 1s..10m @return this */
    public Builder slowDripDuration(Duration duration) {
      speed = with(speed, "slowDripDuration", duration);
      return this;
    }

    /** @param rate share of pages redirecting (301) to another page, 0..1 @return this */
    public Builder redirectRate(double rate) {
      faults = with(faults, "redirectRate", rate);
      return this;
    }

    /** @param rate share of pages under /private/, 0..1 @return this */
    public Builder disallowedRate(double rate) {
      robots = with(robots, "disallowedRate", rate);
      return this;
    }

    /** @param rate share of pages listed only in the sitemap, 0..1 @return this */
    public Builder sitemapOnlyRate(double rate) {
      robots = with(robots, "sitemapOnlyRate", rate);
      return this;
    }

    /** @param rate share of hosts without robots.txt, 0..1 @return this */
    public Builder robotsMissingRate(double rate) {
      robots = with(robots, "robotsMissingRate", rate);
      return this;
    }

    /** @param rate share of hosts whose robots.txt answers 503, 0..1 @return this */
    public Builder robotsErrorRate(double rate) {
      robots = with(robots, "robotsErrorRate", rate);
      return this;
    }

    /** @param delay the Crawl-delay of robots.txt, 0 (no line) or 1ms..60s @return this */
    public Builder crawlDelay(Duration delay) {
      robots = with(robots, "crawlDelay", delay);
      return this;
    }

    /** @param sitemaps whether robots.txt lists a sitemap @return this */
    public Builder sitemaps(boolean sitemaps) {
      robots = with(robots, "sitemaps", sitemaps);
      return this;
    }

    /** @param hosts hosts with a calendar trap, 0..hosts @return this */
    public Builder calendarHosts(int hosts) {
      traps = with(traps, "calendarHosts", hosts);
      return this;
    }

    /** @param hosts hosts with a session-id trap, 0..hosts @return this */
    public Builder sessionIdHosts(int hosts) {
      traps = with(traps, "sessionIdHosts", hosts);
      return this;
    }

    /** @param hosts hosts with an infinitely deep path, 0..hosts @return this */
    public Builder deepPathHosts(int hosts) {
      traps = with(traps, "deepPathHosts", hosts);
      return this;
    }

    /** @param hosts hosts with a redirect loop, 0..hosts @return this */
    public Builder redirectLoopHosts(int hosts) {
      traps = with(traps, "redirectLoopHosts", hosts);
      return this;
    }

    /** @param length URLs in a redirect loop, 1..100 @return this */
    public Builder redirectLoopLength(int length) {
      traps = with(traps, "redirectLoopLength", length);
      return this;
    }

    /** @param hosts hosts with a gzip bomb, 0..hosts @return this */
    public Builder gzipBombHosts(int hosts) {
      traps = with(traps, "gzipBombHosts", hosts);
      return this;
    }

    /** @param bytes size the bomb inflates to, 1MiB..1GiB @return this */
    public Builder gzipBombBytes(long bytes) {
      traps = with(traps, "gzipBombBytes", bytes);
      return this;
    }

    /** @param ttl TTL of DNS answers, whole seconds 0..1d @return this */
    public Builder dnsTtl(Duration ttl) {
      dns = with(dns, "dnsTtl", ttl);
      return this;
    }

    /** @param hosts hosts whose DNS answer is SERVFAIL, 0..hosts-1 @return this */
    public Builder dnsFailureHosts(int hosts) {
      dns = with(dns, "dnsFailureHosts", hosts);
      return this;
    }

    /** @param hosts hosts whose DNS queries go unanswered, 0..hosts-1 @return this */
    public Builder dnsTimeoutHosts(int hosts) {
      dns = with(dns, "dnsTimeoutHosts", hosts);
      return this;
    }

    /** @param entries most entries the access log keeps, 0..10,000,000 @return this */
    public Builder accessLogLimit(int entries) {
      this.accessLogLimit = Checks.inRange("accessLogLimit", entries, 0, 10_000_000);
      return this;
    }

    /*
     * One knob of a group set: the group's record made again with that component replaced. Its
     * canonical constructor checks every component, so the knob is checked when set and the
     * exception names it.
     */
    private static <R extends Record> R with(R group, String component, Object value) {
      RecordComponent[] components = group.getClass().getRecordComponents();
      Object[] values = new Object[components.length];
      Class<?>[] types = new Class<?>[components.length];
      boolean found = false;
      try {
        for (int i = 0; i < components.length; i++) {
          types[i] = components[i].getType();
          found |= components[i].getName().equals(component);
          values[i] = components[i].getName().equals(component) ? value : components[i].getAccessor().invoke(group);
        }
        if (!found) {
          throw new IllegalStateException(group.getClass().getSimpleName() + " has no component " + component);
        }
        @SuppressWarnings("unchecked")
        Constructor<R> canonical = (Constructor<R>) group.getClass().getDeclaredConstructor(types);
        return canonical.newInstance(values);
      } catch (InvocationTargetException e) {
        if (e.getCause() instanceof RuntimeException r) {
          throw r;
        }
        throw new IllegalStateException(e.getCause());
      } catch (ReflectiveOperationException e) {
        throw new IllegalStateException(e);
      }
    }

    /**
     * Checks the knobs against each other and builds the configuration.
     *
     * @return the configuration
     * @throws IllegalArgumentException naming the first knob out of its range
     */
    public TestWebConfig build() {
      shape.check();
      traps.check(shape.hosts());
      dns.check(shape.hosts(), shape.seeds());
      faults.check();
      robots.check();
      return new TestWebConfig(this);
    }
  }
}
