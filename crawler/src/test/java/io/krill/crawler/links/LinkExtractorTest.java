package io.krill.crawler.links;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class LinkExtractorTest {
  private static LinkExtractor.Links extract(String html) {
    return LinkExtractor.extract("http://a.test/dir/page.html", html.getBytes(StandardCharsets.UTF_8),
        "text/html; charset=utf-8", 100);
  }

  @Test
  void extract_anchorsAndFrames_resolvedAgainstPage() {
    LinkExtractor.Links l = extract("<a href='x.html'>x</a><a href='/y'>y</a><iframe src='f.html'></iframe>"
        + "<a href='x.html'>again</a><a>no href</a><map><area href='m.html'></map>");
    assertThat(l.outlinks()).containsExactly("http://a.test/dir/x.html", "http://a.test/y", "http://a.test/dir/f.html",
        "http://a.test/dir/m.html");
    LinkExtractor.Links frames = extract("<html><head></head><frameset><frame src='g.html'><frame src='h.html'>"
        + "</frameset></html>");
    assertThat(frames.outlinks()).containsExactly("http://a.test/dir/g.html", "http://a.test/dir/h.html");
  }

  @Test
  void extract_baseHref_changesResolution() {
    LinkExtractor.Links l = extract("<html><head><base href='http://b.test/other/'></head>"
        + "<body><a href='x.html'>x</a></body></html>");
    assertThat(l.outlinks()).containsExactly("http://b.test/other/x.html");
  }

  @Test
  void extract_canonical_recordedNotFollowed() {
    LinkExtractor.Links l = extract("<head><link rel='canonical' href='/canon'></head><a href='a'>a</a>");
    assertThat(l.canonical()).isEqualTo("http://a.test/canon");
    assertThat(l.outlinks()).containsExactly("http://a.test/dir/a");
  }

  @Test
  void extract_cap_limitsLinks() {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < 50; i++) {
      sb.append("<a href='p").append(i).append("'>p</a>");
    }
    assertThat(LinkExtractor.extract("http://a.test/", sb.toString().getBytes(StandardCharsets.UTF_8), null, 10)
        .outlinks()).hasSize(10);
  }

  @Test
  void isHtml_types() {
    assertThat(LinkExtractor.isHtml("text/html")).isTrue();
    assertThat(LinkExtractor.isHtml("application/xhtml+xml")).isTrue();
    assertThat(LinkExtractor.isHtml("image/png")).isFalse();
    assertThat(LinkExtractor.isHtml(null)).isFalse();
  }
}
