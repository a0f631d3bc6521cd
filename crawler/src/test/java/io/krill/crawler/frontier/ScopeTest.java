package io.krill.crawler.frontier;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class ScopeTest {
  @Test
  void refusal_hostScope_onlySeedHostAndPort() {
    Scope s = new Scope(Scope.Kind.HOST, 3, List.of(), List.of(), List.of());
    s.addSeed("http://www.a.com/");
    assertThat(s.refusal("http://www.a.com/x", 1)).isNull();
    assertThat(s.refusal("http://b.a.com/x", 1)).contains("not a seed host");
    assertThat(s.refusal("http://www.a.com:81/x", 1)).contains("not a seed host");
    assertThat(s.refusal("http://www.a.com/x", 4)).isEqualTo("depth 4 > maxDepth 3");
  }

  @Test
  void refusal_domainScope_registrableDomain() {
    Scope s = new Scope(Scope.Kind.DOMAIN, 3, List.of(), List.of(), List.of());
    s.addSeed("http://www.a.co.uk/");
    assertThat(s.refusal("http://b.a.co.uk/", 1)).isNull();
    assertThat(s.refusal("http://other.co.uk/", 1)).contains("not a seed domain");
  }

  @Test
  void refusal_allowListAndPatterns() {
    Scope s = new Scope(Scope.Kind.ANY, 3, List.of("a.test"), List.of(Pattern.compile("/docs/")),
        List.of(Pattern.compile("\\.pdf$")));
    assertThat(s.refusal("http://x.a.test/docs/1", 1)).isNull();
    assertThat(s.refusal("http://b.test/docs/1", 1)).contains("not in the allowed domains");
    assertThat(s.refusal("http://a.test/blog/1", 1)).contains("--include");
    assertThat(s.refusal("http://a.test/docs/1.pdf", 1)).contains("--exclude");
  }

  @Test
  void normalize_variants_sameUrl() {
    assertThat(UrlNormalizer.normalize("HTTP://Example.COM:80/a/../b/./c#frag"))
        .isEqualTo(UrlNormalizer.normalize("http://example.com/b/c"));
    assertThat(UrlNormalizer.normalize("ftp://example.com/")).isNull();
    assertThat(UrlNormalizer.normalize("not a url")).isNull();
    assertThat(UrlNormalizer.hostKey("https://Example.com/x")).isEqualTo("https://example.com:443");
  }
}
