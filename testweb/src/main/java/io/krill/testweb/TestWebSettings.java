package io.krill.testweb;

import io.krill.config.ConfigBinding;
import io.krill.config.Setting;
import java.time.Duration;

/**
 * The test-web settings: one schema from which {@code krill testweb}'s flags, its {@code --help},
 * the {@code KRILL_TESTWEB_*} environment variables, the docs' flag table, and
 * {@link TestWebConfig#toString()} and {@link TestWebConfig#toBuilder()} all derive, each bound
 * to the {@link TestWebConfig.Builder} setter that checks it.
 *
 * <p>Immutable and thread-safe.
 */
public final class TestWebSettings {
  private static final TestWebConfig D = TestWebConfig.defaults();

  /** Depth of the printed crawl command and of the ground-truth line: a number or {@code unlimited}. */
  public static final Setting<String> MAX_DEPTH = Setting.ofString("testweb.max-depth")
      .defaultValue(Integer.toString(TestWeb.DEMO_MAX_DEPTH)).paramLabel("N")
      .check(TestWebSettings::isDepth, "a number 0..1000000 or unlimited")
      .doc("depth of the printed crawl command and of the ground-truth line").build();

  /** How long {@code krill testweb} serves; absent: until Ctrl-C. */
  public static final Setting<Duration> DURATION = Setting.ofDuration("testweb.duration").optional()
      .doc("stop after this long, e.g. 30s (default: run until Ctrl-C)").build();

  /** Every knob of the web, bound to its builder setter and accessor, then the command's own settings. */
  public static final ConfigBinding<TestWebConfig, TestWebConfig.Builder> BINDING =
      ConfigBinding.<TestWebConfig, TestWebConfig.Builder>builder()
          .bind(Setting.ofLong("testweb.seed").defaultValue(D.seed())
              .doc("generator seed: the same seed and knobs give the same web").build(),
              TestWebConfig::seed, TestWebConfig.Builder::seed)
          .bind(Setting.ofInt("testweb.hosts").defaultValue(D.hosts())
              .doc("virtual hosts h0.krill.test, h1.krill-1.test, ...").build(),
              TestWebConfig::hosts, TestWebConfig.Builder::hosts)
          .bind(Setting.ofInt("testweb.domains").defaultValue(D.domains())
              .doc("registrable domains the hosts are spread over (krill.test, krill-1.test, ...)").build(),
              TestWebConfig::domains, TestWebConfig.Builder::domains)
          .bind(Setting.ofInt("testweb.ips").defaultValue(D.ips())
              .doc("loopback addresses the hosts are spread over (round robin)").build(),
              TestWebConfig::ips, TestWebConfig.Builder::ips)
          .bind(Setting.ofString("testweb.first-ip").defaultValue(D.firstIp().getHostAddress()).paramLabel("IP")
              .doc("first loopback address; the others follow it").build(),
              c -> c.firstIp().getHostAddress(), TestWebConfig.Builder::firstIp)
          .bind(Setting.ofInt("testweb.port").defaultValue(D.port())
              .doc("HTTP port shared by every address (0: a free one)").build(),
              TestWebConfig::port, TestWebConfig.Builder::port)
          .bind(Setting.ofInt("testweb.dns-port").defaultValue(D.dnsPort())
              .doc("DNS port on 127.0.0.1, UDP and TCP (0: a free one)").build(),
              TestWebConfig::dnsPort, TestWebConfig.Builder::dnsPort)
          .bind(Setting.ofInt("testweb.seeds").defaultValue(D.seeds())
              .doc("seed URLs: the root pages of the first hosts").build(),
              TestWebConfig::seeds, TestWebConfig.Builder::seeds)
          .bind(Setting.ofInt("testweb.pages-per-host").defaultValue(D.pagesPerHost())
              .doc("pages per host, the root page included").build(),
              TestWebConfig::pagesPerHost, TestWebConfig.Builder::pagesPerHost)
          .bind(Setting.ofInt("testweb.out-degree").defaultValue(D.outDegree())
              .doc("links per page (the root page adds a link to the next host and to its traps)").build(),
              TestWebConfig::outDegree, TestWebConfig.Builder::outDegree)
          .bind(Setting.ofDouble("testweb.cross-host-rate").defaultValue(D.crossHostRate())
              .doc("share of links to another host").build(),
              TestWebConfig::crossHostRate, TestWebConfig.Builder::crossHostRate)
          .bind(Setting.ofBytes("testweb.page-bytes").defaultValue(D.pageBytes())
              .doc("mean page size; pages vary from 0.5x to 1.5x").build(),
              TestWebConfig::pageBytes, TestWebConfig.Builder::pageBytes)
          .bind(Setting.ofDuration("testweb.latency").defaultValue(D.latency())
              .doc("server time before the first byte of each response").build(),
              TestWebConfig::latency, TestWebConfig.Builder::latency)
          .bind(Setting.ofDouble("testweb.latency-jitter").defaultValue(D.latencyJitter())
              .doc("spread between hosts: each gets latency and bandwidth times 1 +- jitter").build(),
              TestWebConfig::latencyJitter, TestWebConfig.Builder::latencyJitter)
          .bind(Setting.ofInt("testweb.slow-hosts").defaultValue(D.slowHosts())
              .doc("hosts (never a seed) that answer after --slow-latency: short paths through them are found last").build(),
              TestWebConfig::slowHosts, TestWebConfig.Builder::slowHosts)
          .bind(Setting.ofDuration("testweb.slow-latency").defaultValue(D.slowLatency())
              .doc("latency of the slow hosts").build(),
              TestWebConfig::slowLatency, TestWebConfig.Builder::slowLatency)
          .bind(Setting.ofBytes("testweb.bandwidth").defaultValue(D.bandwidth())
              .doc("bytes per second of one response (0: unlimited)").build(),
              TestWebConfig::bandwidth, TestWebConfig.Builder::bandwidth)
          .bind(Setting.ofDouble("testweb.not-found-rate").defaultValue(D.notFoundRate())
              .doc("share of links to missing pages (404)").build(),
              TestWebConfig::notFoundRate, TestWebConfig.Builder::notFoundRate)
          .bind(Setting.ofDouble("testweb.dead-host-rate").defaultValue(D.deadHostRate())
              .doc("share of links to hosts with no DNS record (NXDOMAIN)").build(),
              TestWebConfig::deadHostRate, TestWebConfig.Builder::deadHostRate)
          .bind(Setting.ofDouble("testweb.server-error-rate").defaultValue(D.serverErrorRate())
              .doc("share of pages that always answer 500").build(),
              TestWebConfig::serverErrorRate, TestWebConfig.Builder::serverErrorRate)
          .bind(Setting.ofDouble("testweb.throttle-rate").defaultValue(D.throttleRate())
              .doc("share of pages that first answer 429 with Retry-After").build(),
              TestWebConfig::throttleRate, TestWebConfig.Builder::throttleRate)
          .bind(Setting.ofInt("testweb.throttle-count").defaultValue(D.throttleCount())
              .doc("429 answers a throttled page gives before it answers 200").build(),
              TestWebConfig::throttleCount, TestWebConfig.Builder::throttleCount)
          .bind(Setting.ofDuration("testweb.retry-after").defaultValue(D.retryAfter())
              .doc("Retry-After of a 429 answer (whole seconds)").build(),
              TestWebConfig::retryAfter, TestWebConfig.Builder::retryAfter)
          .bind(Setting.ofDouble("testweb.reset-rate").defaultValue(D.resetRate())
              .doc("share of pages whose connection is reset (TCP RST) instead of answered").build(),
              TestWebConfig::resetRate, TestWebConfig.Builder::resetRate)
          .bind(Setting.ofDouble("testweb.slow-drip-rate").defaultValue(D.slowDripRate())
              .doc("share of pages that drip their body slowly").build(),
              TestWebConfig::slowDripRate, TestWebConfig.Builder::slowDripRate)
          .bind(Setting.ofBytes("testweb.slow-drip-bandwidth").defaultValue(D.slowDripBandwidth())
              .doc("bytes per second of a dripping page").build(),
              TestWebConfig::slowDripBandwidth, TestWebConfig.Builder::slowDripBandwidth)
          .bind(Setting.ofDuration("testweb.slow-drip-duration").defaultValue(D.slowDripDuration())
              .doc("how long a dripping page drips before it completes").build(),
              TestWebConfig::slowDripDuration, TestWebConfig.Builder::slowDripDuration)
          .bind(Setting.ofDouble("testweb.redirect-rate").defaultValue(D.redirectRate())
              .doc("share of pages that redirect (301) to another page").build(),
              TestWebConfig::redirectRate, TestWebConfig.Builder::redirectRate)
          .bind(Setting.ofDouble("testweb.disallowed-rate").defaultValue(D.disallowedRate())
              .doc("share of pages under /private/, which robots.txt disallows").build(),
              TestWebConfig::disallowedRate, TestWebConfig.Builder::disallowedRate)
          .bind(Setting.ofDouble("testweb.sitemap-only-rate").defaultValue(D.sitemapOnlyRate())
              .doc("share of pages no page links to: only the sitemap lists them").build(),
              TestWebConfig::sitemapOnlyRate, TestWebConfig.Builder::sitemapOnlyRate)
          .bind(Setting.ofDouble("testweb.robots-missing-rate").defaultValue(D.robotsMissingRate())
              .doc("share of hosts without robots.txt (404: all allowed)").build(),
              TestWebConfig::robotsMissingRate, TestWebConfig.Builder::robotsMissingRate)
          .bind(Setting.ofDouble("testweb.robots-error-rate").defaultValue(D.robotsErrorRate())
              .doc("share of hosts whose robots.txt answers 503 (RFC 9309: nothing allowed)").build(),
              TestWebConfig::robotsErrorRate, TestWebConfig.Builder::robotsErrorRate)
          .bind(Setting.ofDuration("testweb.crawl-delay").defaultValue(D.crawlDelay())
              .doc("Crawl-delay in robots.txt (0: no such line)").build(),
              TestWebConfig::crawlDelay, TestWebConfig.Builder::crawlDelay)
          .bind(Setting.ofBoolean("testweb.sitemaps").defaultValue(D.sitemaps())
              .doc("robots.txt lists /sitemap.xml").build(),
              TestWebConfig::sitemaps, TestWebConfig.Builder::sitemaps)
          .bind(Setting.ofInt("testweb.calendar-hosts").defaultValue(D.calendarHosts())
              .doc("hosts with a calendar trap: /calendar/YYYY/MM.html links to the next and previous month, forever").build(),
              TestWebConfig::calendarHosts, TestWebConfig.Builder::calendarHosts)
          .bind(Setting.ofInt("testweb.session-id-hosts").defaultValue(D.sessionIdHosts())
              .doc("hosts with a session-id trap: /shop/ pages whose links carry a new ?sid= every other hop").build(),
              TestWebConfig::sessionIdHosts, TestWebConfig.Builder::sessionIdHosts)
          .bind(Setting.ofInt("testweb.deep-path-hosts").defaultValue(D.deepPathHosts())
              .doc("hosts with an infinitely deep path: /deep/1/2/3/...").build(),
              TestWebConfig::deepPathHosts, TestWebConfig.Builder::deepPathHosts)
          .bind(Setting.ofInt("testweb.redirect-loop-hosts").defaultValue(D.redirectLoopHosts())
              .doc("hosts with a redirect loop: /loop/0 -> /loop/1 -> ... -> /loop/0 (302)").build(),
              TestWebConfig::redirectLoopHosts, TestWebConfig.Builder::redirectLoopHosts)
          .bind(Setting.ofInt("testweb.redirect-loop-length").defaultValue(D.redirectLoopLength())
              .doc("URLs in a redirect loop").build(),
              TestWebConfig::redirectLoopLength, TestWebConfig.Builder::redirectLoopLength)
          .bind(Setting.ofInt("testweb.gzip-bomb-hosts").defaultValue(D.gzipBombHosts())
              .doc("hosts with a gzip bomb at /bomb.html").build(),
              TestWebConfig::gzipBombHosts, TestWebConfig.Builder::gzipBombHosts)
          .bind(Setting.ofBytes("testweb.gzip-bomb-bytes").defaultValue(D.gzipBombBytes())
              .doc("size the gzip bomb inflates to (it is about 1/1000 of that on the wire)").build(),
              TestWebConfig::gzipBombBytes, TestWebConfig.Builder::gzipBombBytes)
          .bind(Setting.ofDuration("testweb.dns-ttl").defaultValue(D.dnsTtl())
              .doc("TTL of the DNS answers (whole seconds)").build(),
              TestWebConfig::dnsTtl, TestWebConfig.Builder::dnsTtl)
          .bind(Setting.ofInt("testweb.dns-failure-hosts").defaultValue(D.dnsFailureHosts())
              .doc("hosts whose DNS answer is SERVFAIL (never a seed host)").build(),
              TestWebConfig::dnsFailureHosts, TestWebConfig.Builder::dnsFailureHosts)
          .bind(Setting.ofInt("testweb.dns-timeout-hosts").defaultValue(D.dnsTimeoutHosts())
              .doc("hosts whose DNS queries get no answer (never a seed host)").build(),
              TestWebConfig::dnsTimeoutHosts, TestWebConfig.Builder::dnsTimeoutHosts)
          .bind(Setting.ofInt("testweb.access-log-limit").defaultValue(D.accessLogLimit())
              .doc("most entries the access log keeps (a few hundred bytes each); later requests are only counted").build(),
              TestWebConfig::accessLogLimit, TestWebConfig.Builder::accessLogLimit)
          .add(MAX_DEPTH)
          .add(DURATION)
          .build();

  private TestWebSettings() {}

  /** @return the depth a {@link #MAX_DEPTH} value stands for: {@link Scope#UNLIMITED} for {@code unlimited} */
  static int depth(String text) {
    return text.equals("unlimited") ? Scope.UNLIMITED : Integer.parseInt(text.trim());
  }

  private static boolean isDepth(String text) {
    try {
      int d = depth(text);
      return d == Scope.UNLIMITED || d >= 0 && d <= 1_000_000;
    } catch (NumberFormatException e) {
      return false;
    }
  }
}
