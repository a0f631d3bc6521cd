package io.krill.testweb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import crawlercommons.filters.basic.BasicURLNormalizer;
import crawlercommons.robots.BaseRobotRules;
import crawlercommons.robots.SimpleRobotRulesParser;
import crawlercommons.sitemaps.AbstractSiteMap;
import crawlercommons.sitemaps.SiteMap;
import crawlercommons.sitemaps.SiteMapParser;
import crawlercommons.sitemaps.SiteMapURL;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SyntheticWebTest {
  private static final int PORT = 41234;

  private static List<String> renderAll(SyntheticWeb web) {
    List<String> out = new ArrayList<>();
    for (String host : web.hosts()) {
      out.add(host + " " + web.addressOf(host).getHostAddress());
      for (int k = 0; k < web.config().pagesPerHost(); k++) {
        Resource r = web.resolve(host, web.pagePath(web.host(host).index, k));
        out.add(r + " " + r.links + " " + r.location);
        if (r.hasContent()) {
          out.add(new String(Pages.html(web, r, PORT), StandardCharsets.UTF_8));
        }
      }
      out.add(new String(Pages.sitemap(web, web.host(host), PORT), StandardCharsets.UTF_8));
    }
    return out;
  }

  @Test
  void of_sameConfigTwice_generatesTheSameWeb() {
    TestWebConfig c = TestWebConfig.builder().hosts(30).pagesPerHost(25).build();
    SyntheticWeb a = SyntheticWeb.of(c);
    SyntheticWeb b = SyntheticWeb.of(TestWebConfig.builder().hosts(30).pagesPerHost(25).build());

    assertThat(renderAll(a)).isEqualTo(renderAll(b));
    Scope scope = Scope.builder().maxDepth(6).build();
    assertThat(a.groundTruth(scope, PORT).fetches()).isEqualTo(b.groundTruth(scope, PORT).fetches());
    for (Trap t : Trap.values()) {
      assertThat(a.hostsWith(t)).isEqualTo(b.hostsWith(t)).hasSize(1);
    }
  }

  @Test
  void of_otherSeed_generatesAnotherWeb() {
    SyntheticWeb a = SyntheticWeb.of(TestWebConfig.builder().seed(1).build());
    SyntheticWeb b = SyntheticWeb.of(TestWebConfig.builder().seed(2).build());

    assertThat(renderAll(a)).isNotEqualTo(renderAll(b));
  }

  @Test
  void hosts_spreadRoundRobinOverTheLoopbackAddresses() {
    SyntheticWeb web = SyntheticWeb.of(TestWebConfig.builder().hosts(10).ips(3).firstIp("127.0.9.254").domains(3).build());

    assertThat(web.addresses()).extracting(a -> a.getHostAddress()).containsExactly("127.0.9.254", "127.0.9.255", "127.0.10.0");
    assertThat(web.hosts()).startsWith("h0.krill.test", "h1.krill-1.test", "h2.krill-2.test", "h3.krill.test");
    assertThat(web.addressOf("H4.KRILL-1.TEST.").getHostAddress()).isEqualTo("127.0.9.255");
    assertThat(web.addressOf("h10.krill.test")).isNull();
    assertThat(web.addressOf("example.com")).isNull();
  }

  @Test
  void urls_areFixedPointsOfTheCrawlerCommonsNormalizer() {
    SyntheticWeb web = SyntheticWeb.of(TestWebConfig.defaults());
    BasicURLNormalizer normalizer = new BasicURLNormalizer();
    GroundTruth truth = web.groundTruth(Scope.builder().maxDepth(8).build(), PORT);

    assertThat(truth.urls()).hasSizeGreaterThan(100);
    for (String url : truth.urls()) {
      assertThat(normalizer.filter(url)).isEqualTo(url);
    }
    for (String url : truth.disallowed()) {
      assertThat(normalizer.filter(url)).isEqualTo(url);
    }
  }

  @Test
  void html_linksResolvedByJsoup_equalTheModelsLinks() {
    SyntheticWeb web = SyntheticWeb.of(TestWebConfig.defaults());
    GroundTruth truth = web.groundTruth(Scope.builder().maxDepth(6).build(), PORT);
    int checked = 0;
    for (GroundTruth.Fetch f : truth.fetches().values()) {
      if (f.outcome() != GroundTruth.Outcome.OK) {
        continue;
      }
      java.net.URI u = java.net.URI.create(f.url());
      String target = u.getRawPath() + (u.getRawQuery() == null ? "" : "?" + u.getRawQuery());
      Resource r = web.resolve(u.getHost(), target);
      Document doc = Jsoup.parse(new String(Pages.html(web, r, PORT), StandardCharsets.UTF_8), f.url());
      List<String> hrefs = new ArrayList<>();
      for (Element a : doc.select("a[href]")) {
        hrefs.add(a.absUrl("href"));
      }
      List<String> model = new ArrayList<>();
      for (Link l : r.links) {
        model.add(l.url(PORT));
      }
      assertThat(hrefs).as(f.url()).isEqualTo(model);
      checked++;
    }
    assertThat(checked).isGreaterThan(100);
  }

  @Test
  void pages_sizesVaryAroundPageBytes() {
    SyntheticWeb web = SyntheticWeb.of(TestWebConfig.builder().pageBytes(8192).build());
    for (int k = 0; k < 15; k++) {
      Resource r = web.resolve("h0.krill.test", web.pagePath(0, k));
      if (r.hasContent()) {
        assertThat(Pages.html(web, r, PORT).length).isBetween(8192 / 2 - 100, 8192 * 3 / 2 + 1500);
      }
    }
  }

  @Test
  void kinds_largeWeb_occurAtTheirConfiguredRates() {
    TestWebConfig c = TestWebConfig.builder().hosts(200).pagesPerHost(101).sitemapOnlyRate(0)
        .serverErrorRate(0.05).throttleRate(0.1).resetRate(0.02).slowDripRate(0.03).redirectRate(0.15).disallowedRate(0.2).build();
    SyntheticWeb web = SyntheticWeb.of(c);
    Map<SyntheticWeb.PageKind, Integer> counts = new EnumMap<>(SyntheticWeb.PageKind.class);
    int privates = 0;
    int n = 0;
    for (int h = 0; h < 200; h++) {
      for (int k = 1; k < 101; k++) {
        counts.merge(web.kind(h, k), 1, Integer::sum);
        privates += web.isPrivate(h, k) ? 1 : 0;
        n++;
      }
    }
    // n = 20,000 draws: four standard deviations of a binomial share p is 4 * sqrt(p (1-p) / n) <= 0.0142.
    assertThat(share(counts, SyntheticWeb.PageKind.SERVER_ERROR, n)).isCloseTo(0.05, org.assertj.core.data.Offset.offset(0.007));
    assertThat(share(counts, SyntheticWeb.PageKind.THROTTLED, n)).isCloseTo(0.1, org.assertj.core.data.Offset.offset(0.009));
    assertThat(share(counts, SyntheticWeb.PageKind.RESET, n)).isCloseTo(0.02, org.assertj.core.data.Offset.offset(0.005));
    assertThat(share(counts, SyntheticWeb.PageKind.SLOW_DRIP, n)).isCloseTo(0.03, org.assertj.core.data.Offset.offset(0.006));
    assertThat(share(counts, SyntheticWeb.PageKind.REDIRECT, n)).isCloseTo(0.15, org.assertj.core.data.Offset.offset(0.011));
    assertThat(privates / (double) n).isCloseTo(0.2, org.assertj.core.data.Offset.offset(0.012));
    int robotsError = web.hostsWithRobotsError().size();
    int robotsMissing = web.hostsWithoutRobots().size();
    assertThat(robotsError).isBetween(2, 25);
    assertThat(robotsMissing).isBetween(5, 40);
  }

  private static double share(Map<SyntheticWeb.PageKind, Integer> counts, SyntheticWeb.PageKind kind, int n) {
    return counts.getOrDefault(kind, 0) / (double) n;
  }

  @Test
  void links_largeWeb_brokenAndCrossHostAtTheirRates() {
    TestWebConfig c = TestWebConfig.builder().hosts(100).pagesPerHost(50).outDegree(10).notFoundRate(0.1).deadHostRate(0.05)
        .crossHostRate(0.3).serverErrorRate(0).throttleRate(0).resetRate(0).slowDripRate(0).redirectRate(0).sitemapOnlyRate(0).build();
    SyntheticWeb web = SyntheticWeb.of(c);
    int missing = 0;
    int dead = 0;
    int cross = 0;
    int n = 0;
    for (int h = 0; h < 100; h++) {
      for (int k = 1; k < 50; k++) {
        Resource r = web.resolve(web.hosts().get(h), web.pagePath(h, k));
        for (Link l : r.links) {
          n++;
          if (l.pathAndQuery.startsWith(SyntheticWeb.MISSING_PREFIX)) {
            missing++;
            assertThat(web.resolve(l.host, l.pathAndQuery).kind).isEqualTo(Resource.Kind.NOT_FOUND);
          } else if (web.addressOf(l.host) == null) {
            dead++;
          } else if (!l.host.equals(web.hosts().get(h))) {
            cross++;
          }
        }
      }
    }
    assertThat(n).isEqualTo(100 * 49 * 10);
    assertThat(missing / (double) n).isCloseTo(0.1, org.assertj.core.data.Offset.offset(0.02));
    assertThat(dead / (double) n).isCloseTo(0.05, org.assertj.core.data.Offset.offset(0.015));
    assertThat(cross / (double) (n - missing - dead)).isCloseTo(0.3, org.assertj.core.data.Offset.offset(0.025));
  }

  @Test
  void robots_parsedByCrawlerCommons_disallowPrivateAndCarryDelayAndSitemap() {
    SyntheticWeb web = SyntheticWeb.of(TestWebConfig.builder().crawlDelay(java.time.Duration.ofMillis(1500)).build());
    SyntheticWeb.Host h0 = web.host("h0.krill.test");
    byte[] robots = Pages.robots(web, h0, PORT);
    SimpleRobotRulesParser parser = new SimpleRobotRulesParser();

    BaseRobotRules rules = parser.parseContent("http://h0.krill.test:41234/robots.txt", robots, "text/plain", List.of("krill"));
    BaseRobotRules excluded = parser.parseContent("http://h0.krill.test:41234/robots.txt", robots, "text/plain",
        List.of(Pages.EXCLUDED_AGENT));

    assertThat(rules.isAllowed("http://h0.krill.test:41234/private/3.html")).isFalse();
    assertThat(rules.isAllowed("http://h0.krill.test:41234/page/3.html")).isTrue();
    assertThat(rules.getCrawlDelay()).isEqualTo(1500);
    assertThat(rules.getSitemaps()).containsExactly("http://h0.krill.test:41234/sitemap.xml");
    assertThat(excluded.isAllowed("http://h0.krill.test:41234/page/3.html")).isFalse();
  }

  @Test
  void sitemap_parsedByCrawlerCommons_listsPublicPagesAndOrphans() throws Exception {
    SyntheticWeb web = SyntheticWeb.of(TestWebConfig.builder().pagesPerHost(40).sitemapOnlyRate(0.25).build());
    SyntheticWeb.Host h0 = web.host("h0.krill.test");
    AbstractSiteMap parsed = new SiteMapParser().parseSiteMap(Pages.sitemap(web, h0, PORT),
        new URL("http://h0.krill.test:41234/sitemap.xml"));

    List<String> urls = new ArrayList<>();
    for (SiteMapURL u : ((SiteMap) parsed).getSiteMapUrls()) {
      urls.add(u.getUrl().toString());
    }
    assertThat(urls).contains("http://h0.krill.test:41234/", "http://h0.krill.test:41234/page/39.html")
        .noneMatch(u -> u.contains("/private/"));
    assertThat(web.linkable()).isEqualTo(30);
    // Orphans (pages 30..39) are in the sitemap, and no page links to them.
    GroundTruth noSitemaps = web.groundTruth(Scope.builder().hosts(Scope.Hosts.SAME_HOST).maxDepth(20).followSitemaps(false).build(), PORT);
    GroundTruth withSitemaps = web.groundTruth(Scope.builder().hosts(Scope.Hosts.SAME_HOST).maxDepth(20).build(), PORT);
    assertThat(noSitemaps.urls()).noneMatch(u -> u.matches(".*/page/3\\d\\.html"));
    assertThat(withSitemaps.urls()).contains("http://h0.krill.test:41234/page/39.html");
    assertThat(withSitemaps.fetches().get("http://h0.krill.test:41234/page/39.html").depth()).isEqualTo(1);
  }

  @ParameterizedTest
  @ValueSource(longs = {1L << 20, (5L << 20) + 12_345, 16L << 20})
  void gzipBomb_inflatesAThousandTimesBeyondItsSize(long size) throws Exception {
    byte[] bomb = Pages.gzipBomb(size);
    long inflated = 0;
    byte[] first = new byte[32];
    boolean onlySpacesAfterHead = true;
    try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(bomb))) {
      assertThat(in.readNBytes(first, 0, first.length)).isEqualTo(32);
      inflated = 32;
      byte[] buf = new byte[1 << 16];
      for (int n; (n = in.read(buf)) > 0;) {
        inflated += n;
        for (int i = 0; i < n && onlySpacesAfterHead; i++) {
          onlySpacesAfterHead = buf[i] == ' ';
        }
      }
    }

    assertThat(inflated).isEqualTo(size);
    assertThat(new String(first, StandardCharsets.US_ASCII)).startsWith("<!DOCTYPE html>\n<html><body>\n");
    assertThat(onlySpacesAfterHead).isTrue();
    assertThat(bomb.length).isLessThan((int) (size / 500));
  }

  @Test
  void gzipBomb_nettysGzipDecoder_inflatesItWhole() {
    byte[] bomb = Pages.gzipBomb(8L << 20);
    io.netty.channel.embedded.EmbeddedChannel ch = new io.netty.channel.embedded.EmbeddedChannel(
        io.netty.handler.codec.compression.ZlibCodecFactory.newZlibDecoder(io.netty.handler.codec.compression.ZlibWrapper.GZIP));
    ch.writeInbound(io.netty.buffer.Unpooled.wrappedBuffer(bomb));
    long inflated = 0;
    for (io.netty.buffer.ByteBuf b; (b = ch.readInbound()) != null;) {
      inflated += b.readableBytes();
      b.release();
    }
    ch.finishAndReleaseAll();

    assertThat(inflated).isEqualTo(8L << 20);
  }

  @Test
  void resolve_unknownPathsAndNonCanonicalForms_areNotFound() {
    SyntheticWeb web = SyntheticWeb.of(TestWebConfig.builder().pagesPerHost(10).disallowedRate(0).build());
    String h = "h0.krill.test";

    assertThat(web.resolve(h, "/page/3.html").kind).isNotEqualTo(Resource.Kind.NOT_FOUND);
    for (String path : List.of("/page/03.html", "/page/10.html", "/page/0.html", "/page/3.html?x=1", "/private/3.html",
        "/nothing", "/page/-1.html", "/page/99999999999.html", "/deep/1/", "/loop/0", "/calendar/2026/01.html")) {
      if (!web.host(h).traps.isEmpty()) {
        continue;
      }
      assertThat(web.resolve(h, path).kind).as(path).isEqualTo(Resource.Kind.NOT_FOUND);
    }
    assertThat(web.resolve("nope.krill.test", "/")).isNull();
  }

  @Test
  void traps_answerEachRequestBoundedAndLinkOnwardForever() {
    TestWebConfig c = TestWebConfig.builder().hosts(1).calendarHosts(1).sessionIdHosts(1).deepPathHosts(1).redirectLoopHosts(1)
        .gzipBombHosts(1).redirectLoopLength(4).build();
    SyntheticWeb web = SyntheticWeb.of(c);
    String h = "h0.krill.test";

    String path = "/calendar/2026/01.html";
    for (int i = 0; i < 200; i++) {
      Resource r = web.resolve(h, path);
      assertThat(r.trap).isEqualTo(Trap.CALENDAR);
      assertThat(Pages.html(web, r, PORT).length).isLessThan(1024);
      path = r.links.get(r.links.size() - 2).pathAndQuery; // next month
    }
    assertThat(path).isEqualTo("/calendar/2042/09.html");

    path = "/deep/1/";
    for (int i = 0; i < 200; i++) {
      Resource r = web.resolve(h, path);
      assertThat(r.trap).isEqualTo(Trap.DEEP_PATH);
      assertThat(Pages.html(web, r, PORT).length).isLessThan(2048);
      path = r.links.get(0).pathAndQuery;
    }
    assertThat(path).endsWith("/199/200/201/");

    path = "/shop/";
    java.util.Set<String> sessions = new java.util.HashSet<>();
    for (int i = 0; i < 100; i++) {
      Resource index = web.resolve(h, path);
      assertThat(index.trap).isEqualTo(Trap.SESSION_IDS);
      Resource item = web.resolve(h, index.links.get(1).pathAndQuery);
      assertThat(item.trap).isEqualTo(Trap.SESSION_IDS);
      path = item.links.get(0).pathAndQuery;
      sessions.add(path);
    }
    assertThat(sessions).hasSize(100);

    assertThat(web.resolve(h, "/loop/3").location.pathAndQuery).isEqualTo("/loop/0");
    assertThat(web.resolve(h, "/loop/4").kind).isEqualTo(Resource.Kind.NOT_FOUND);
    assertThat(web.resolve(h, "/bomb.html").kind).isEqualTo(Resource.Kind.GZIP_BOMB);
  }
}
