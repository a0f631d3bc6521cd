package io.krill.crawler.robots;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class RobotsPolicyTest {
  private final RobotsPolicy policy = new RobotsPolicy("krill");

  private RobotsPolicy.Decision parse(int status, String body) {
    return policy.decide("http://a.test/robots.txt", status, body.getBytes(StandardCharsets.UTF_8), "text/plain");
  }

  @Test
  void decide_rulesForOurAgent_applied() {
    RobotsPolicy.Decision d = parse(200, "User-agent: *\nDisallow: /\n\nUser-agent: krill\nDisallow: /private/\n"
        + "Allow: /private/ok\nCrawl-delay: 2\nSitemap: http://a.test/sitemap.xml\n");
    assertThat(d.kind()).isEqualTo(RobotsPolicy.Kind.RULES);
    assertThat(d.allowed().test("http://a.test/public")).isTrue();
    assertThat(d.allowed().test("http://a.test/private/x")).isFalse();
    assertThat(d.allowed().test("http://a.test/private/ok")).isTrue();
    assertThat(d.crawlDelay()).isEqualTo(Duration.ofSeconds(2));
    assertThat(d.sitemaps()).containsExactly("http://a.test/sitemap.xml");
  }

  @Test
  void decide_wildcardGroup_appliesWhenNoOwnGroup() {
    RobotsPolicy.Decision d = parse(200, "User-agent: *\nDisallow: /tmp\n");
    assertThat(d.allowed().test("http://a.test/tmp/x")).isFalse();
    assertThat(d.allowed().test("http://a.test/x")).isTrue();
    assertThat(d.crawlDelay()).isZero();
  }

  @Test
  void decide_4xx_allowAll() {
    for (int status : new int[] {400, 401, 403, 404, 410}) {
      RobotsPolicy.Decision d = parse(status, "Disallow: /");
      assertThat(d.kind()).isEqualTo(RobotsPolicy.Kind.ALLOW_ALL);
      assertThat(d.allowed().test("http://a.test/anything")).isTrue();
    }
  }

  @Test
  void decide_5xx429AndNoResponse_disallowAll() {
    for (int status : new int[] {0, 429, 500, 503}) {
      RobotsPolicy.Decision d = parse(status, "");
      assertThat(d.kind()).isEqualTo(RobotsPolicy.Kind.UNREACHABLE);
      assertThat(d.allowed().test("http://a.test/")).isFalse();
    }
  }

  @Test
  void sitemaps_urlsetAndIndex_parsed() {
    String urlset = "<?xml version=\"1.0\"?><urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">"
        + "<url><loc>http://a.test/1</loc></url><url><loc>http://a.test/2</loc></url></urlset>";
    Sitemaps.Listing l = Sitemaps.parse("http://a.test/sitemap.xml", "text/xml", urlset.getBytes(StandardCharsets.UTF_8), 10);
    assertThat(l.pageUrls()).containsExactly("http://a.test/1", "http://a.test/2");
    String index = "<?xml version=\"1.0\"?><sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">"
        + "<sitemap><loc>http://a.test/s2.xml</loc></sitemap></sitemapindex>";
    Sitemaps.Listing i = Sitemaps.parse("http://a.test/sitemap.xml", "text/xml", index.getBytes(StandardCharsets.UTF_8), 10);
    assertThat(i.sitemapUrls()).containsExactly("http://a.test/s2.xml");
    assertThat(Sitemaps.parse("http://a.test/s.xml", "text/xml", "garbage<".getBytes(StandardCharsets.UTF_8), 10).pageUrls())
        .isEmpty();
  }

  @Test
  void sitemaps_parserReusedAfterBrokenAndHostileDocuments_sameAnswersAsFresh() throws Exception {
    String urlset = "<?xml version=\"1.0\"?><urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">"
        + "<url><loc>http://a.test/1</loc></url></urlset>";
    java.nio.file.Path secret = java.nio.file.Files.createTempFile("krill-sitemap-secret", ".txt");
    java.nio.file.Files.writeString(secret, "http://a.test/leaked");
    String xxe = "<?xml version=\"1.0\"?><!DOCTYPE urlset [<!ENTITY x SYSTEM \"" + secret.toUri() + "\">]>"
        + "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"><url><loc>&x;</loc></url></urlset>";
    try {
      for (int round = 0; round < 3; round++) {
        // a document cut off mid-element, then a DOCTYPE with an external entity: both list nothing
        assertThat(Sitemaps.parse("http://a.test/s.xml", "text/xml", urlset.substring(0, 90).getBytes(StandardCharsets.UTF_8), 10)
            .pageUrls()).isEmpty();
        assertThat(Sitemaps.parse("http://a.test/s.xml", "text/xml", xxe.getBytes(StandardCharsets.UTF_8), 10).pageUrls())
            .isEmpty();
        // and the pooled parser that saw them reads the next good one in full
        assertThat(Sitemaps.parse("http://a.test/s.xml", "text/xml", urlset.getBytes(StandardCharsets.UTF_8), 10).pageUrls())
            .containsExactly("http://a.test/1");
      }
    } finally {
      java.nio.file.Files.deleteIfExists(secret);
    }
  }
}
