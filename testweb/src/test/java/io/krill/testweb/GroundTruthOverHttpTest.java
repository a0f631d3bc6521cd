package io.krill.testweb;

import static org.assertj.core.api.Assertions.assertThat;

import crawlercommons.filters.basic.BasicURLNormalizer;
import crawlercommons.robots.BaseRobotRules;
import crawlercommons.robots.SimpleRobotRules;
import crawlercommons.robots.SimpleRobotRulesParser;
import crawlercommons.sitemaps.SiteMap;
import crawlercommons.sitemaps.SiteMapParser;
import crawlercommons.sitemaps.SiteMapURL;
import java.io.IOException;
import java.net.InetAddress;
import java.net.URI;
import java.net.URL;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Element;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The ground truth, computed from the model, equals what a plain breadth-first crawl of the
 * served web finds over real HTTP and real DNS: robots.txt and sitemaps parsed by
 * crawler-commons, links by jsoup, URLs normalized by crawler-commons.
 */
@Timeout(300)
class GroundTruthOverHttpTest {
  private static final String AGENT = "krill";

  static Stream<Arguments> scopes() {
    return Stream.of(
        Arguments.of("any host, depth 6", Scope.builder().maxDepth(6).build()),
        Arguments.of("same domain, depth 5, sid removed, robots ignored",
            Scope.builder().hosts(Scope.Hosts.SAME_DOMAIN).maxDepth(5).removeQueryParams("sid").honourRobots(false).build()),
        Arguments.of("no sitemaps, calendar excluded, depth 7",
            Scope.builder().maxDepth(7).followSitemaps(false).exclude("/calendar/").build()));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("scopes")
  void groundTruth_equalsABreadthFirstCrawlOverHttp(String name, Scope scope) throws Exception {
    TestWebConfig config = TestWebConfig.builder().latency(Duration.ZERO).bandwidth(0).slowDripDuration(Duration.ofSeconds(1))
        .gzipBombBytes(4L << 20).dnsFailureHosts(1).dnsTimeoutHosts(1).robotsErrorRate(0.1).build();
    try (TestWeb tw = TestWeb.start(config);
        TestHttpClient http = new TestHttpClient(io.krill.netio.dns.DnsResolver.builder().servers(List.of(tw.dnsServer()))
            .hostsFile(null).timeout(Duration.ofMillis(300)).retries(0).build(), Duration.ofSeconds(10))) {
      Crawl crawl = new Crawl(http, scope, tw.seedUrls());
      crawl.run();
      GroundTruth truth = tw.groundTruth(scope);

      Map<String, String> expected = new TreeMap<>();
      truth.fetches().values().forEach(f -> expected.put(f.url(), f.depth() + " " + f.outcome()));
      assertThat(crawl.fetched).isEqualTo(expected);
      assertThat(crawl.disallowed).isEqualTo(truth.disallowed());
      assertThat(crawl.unresolvable).isEqualTo(truth.unresolvable());
      assertThat(crawl.contacted).isEqualTo(truth.hostsContacted());
      assertThat(truth.pages()).hasSizeGreaterThan(100);
      if (scope.honourRobots()) {
        assertThat(truth.disallowed()).isNotEmpty();
      }

      AccessLog.Check check = tw.accessLog().check(truth); // the web's side: each expected URL requested once, nothing else
      assertThat(check.exact()).as(check.describe()).isTrue();
    }
  }

  /** A plain breadth-first crawl with the ground truth's depth rules, sequential and impolite. */
  private static final class Crawl {
    final TestHttpClient http;
    final Scope scope;
    final List<String> seeds;
    final BasicURLNormalizer normalizer;
    final Set<String> seedHosts = new HashSet<>();
    final ArrayDeque<Object[]> queue = new ArrayDeque<>();
    final Map<String, Integer> best = new HashMap<>();
    final Map<String, Integer> done = new HashMap<>();
    final Map<String, List<String>> outlinks = new HashMap<>();
    final Map<String, String> redirects = new HashMap<>();
    final Map<String, BaseRobotRules> robots = new HashMap<>();
    final Map<String, Boolean> resolvable = new HashMap<>();
    final Map<String, String> fetched = new TreeMap<>();
    final Set<String> disallowed = new LinkedHashSet<>();
    final Set<String> unresolvable = new LinkedHashSet<>();
    final Set<String> contacted = new LinkedHashSet<>();

    Crawl(TestHttpClient http, Scope scope, List<String> seeds) {
      this.http = http;
      this.scope = scope;
      this.seeds = seeds;
      this.normalizer = BasicURLNormalizer.newBuilder().queryParamsToRemove(scope.removeQueryParams()).build();
    }

    void run() throws Exception {
      for (String s : seeds) {
        seedHosts.add(URI.create(s).getHost());
      }
      for (String s : seeds) {
        offer(s, 0, false);
      }
      while (!queue.isEmpty()) {
        Object[] n = queue.pollFirst();
        String url = (String) n[0];
        int depth = (Integer) n[1];
        Integer expanded = done.get(url);
        if (best.get(url) == depth && (expanded == null || depth < expanded)) {
          done.put(url, depth);
          if (expanded == null) {
            visit(url, depth);
          } else if (fetched.containsKey(url)) { // met again closer to a seed: re-expand, do not refetch
            fetched.put(url, depth + fetched.get(url).substring(fetched.get(url).indexOf(' ')));
            expand(url, depth);
          }
        }
      }
    }

    void offer(String href, int depth, boolean front) {
      String url = normalizer.filter(href);
      if (url == null || (best.containsKey(url) && best.get(url) <= depth)) {
        return;
      }
      String host = URI.create(url).getHost();
      boolean hostOk = scope.hosts() == Scope.Hosts.ANY
          || scope.hosts() == Scope.Hosts.SAME_DOMAIN && seedHosts.stream().anyMatch(s -> Scope.domainOf(s).equals(Scope.domainOf(host)))
          || scope.hosts() == Scope.Hosts.SAME_HOST && seedHosts.contains(host);
      if (!hostOk || !scope.patternsAllow(url)) {
        return;
      }
      best.put(url, depth);
      if (front) {
        queue.addFirst(new Object[] {url, depth});
      } else {
        queue.addLast(new Object[] {url, depth});
      }
    }

    void visit(String url, int depth) throws Exception {
      URI uri = URI.create(url);
      String host = uri.getHost();
      if (!resolvable.computeIfAbsent(host, this::resolves)) {
        unresolvable.add(url);
        return;
      }
      String origin = uri.getScheme() + "://" + uri.getRawAuthority();
      if (contacted.add(host)) {
        robots.put(host, fetchRobots(origin));
      }
      if (scope.honourRobots() && !robots.get(host).isAllowed(url)) {
        disallowed.add(url);
        return;
      }
      TestHttpClient.Reply r = null;
      boolean throttled = false;
      try {
        for (int attempt = 0; attempt < 5; attempt++) {
          r = http.get(url);
          if (r.status() != 429) {
            break;
          }
          assertThat(r.header("retry-after")).isEqualTo("1");
          throttled = true;
        }
      } catch (IOException e) {
        fetched.put(url, depth + " RESET");
        return;
      }
      switch (r.status()) {
        case 200:
          if ("gzip".equals(r.header("content-encoding"))) {
            fetched.put(url, depth + " GZIP_BOMB");
          } else if (r.text().startsWith(new String(Pages.dripHead(), java.nio.charset.StandardCharsets.US_ASCII))) {
            fetched.put(url, depth + " SLOW_DRIP");
          } else {
            fetched.put(url, depth + (throttled ? " THROTTLED" : " OK"));
            List<String> links = new java.util.ArrayList<>();
            for (Element a : Jsoup.parse(r.text(), url).select("a[href]")) {
              links.add(a.absUrl("href"));
            }
            outlinks.put(url, links);
            expand(url, depth);
          }
          break;
        case 301:
        case 302:
          fetched.put(url, depth + " REDIRECT");
          redirects.put(url, uri.resolve(r.header("location")).toString());
          expand(url, depth);
          break;
        case 404:
          fetched.put(url, depth + " NOT_FOUND");
          break;
        case 500:
          fetched.put(url, depth + " SERVER_ERROR");
          break;
        default:
          fetched.put(url, depth + " status " + r.status());
      }
    }

    void expand(String url, int depth) {
      if (redirects.containsKey(url)) {
        offer(redirects.get(url), depth, true);
      }
      if (depth < scope.maxDepth()) {
        for (String link : outlinks.getOrDefault(url, List.of())) {
          offer(link, depth + 1, false);
        }
      }
    }

    boolean resolves(String host) {
      try {
        InetAddress a = http.resolve(host);
        return a != null;
      } catch (Exception e) { // callOnThread rethrows the resolver's UnknownHostException undeclared
        if (e instanceof UnknownHostException) {
          return false;
        }
        throw e;
      }
    }

    BaseRobotRules fetchRobots(String origin) throws Exception {
      TestHttpClient.Reply r = http.get(origin + "/robots.txt");
      SimpleRobotRulesParser parser = new SimpleRobotRulesParser();
      if (r.status() != 200) {
        return parser.failedFetch(r.status());
      }
      SimpleRobotRules rules = parser.parseContent(origin + "/robots.txt", r.body(), "text/plain", List.of(AGENT));
      if (scope.followSitemaps() && Scope.SITEMAP_DEPTH <= scope.maxDepth()) {
        for (String sitemap : rules.getSitemaps()) {
          TestHttpClient.Reply s = http.get(sitemap);
          assertThat(s.status()).isEqualTo(200);
          SiteMap map = (SiteMap) new SiteMapParser().parseSiteMap(s.body(), new URL(sitemap));
          for (SiteMapURL u : map.getSiteMapUrls()) {
            offer(u.getUrl().toString(), Scope.SITEMAP_DEPTH, false);
          }
        }
      }
      return rules;
    }
  }
}
