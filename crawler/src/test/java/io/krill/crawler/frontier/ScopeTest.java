package io.krill.crawler.frontier;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ScopeTest {
  @ParameterizedTest(name = "{0} scope from {1}: {2} at depth {3} -> {4}")
  @CsvSource(delimiter = '|', nullValues = "null", textBlock = """
      HOST   | http://www.a.com/   | http://www.a.com/x    | 1 | null
      HOST   | http://www.a.com/   | http://b.a.com/x      | 1 | not a seed host
      HOST   | http://www.a.com/   | http://www.a.com:81/x | 1 | not a seed host
      HOST   | http://www.a.com/   | http://www.a.com/x    | 4 | depth 4 > maxDepth 3
      DOMAIN | http://www.a.co.uk/ | http://b.a.co.uk/     | 1 | null
      DOMAIN | http://www.a.co.uk/ | http://other.co.uk/   | 1 | not a seed domain
      """)
  void refusal_seedScope_refusesOutsideTheSeedsHostOrDomain(Scope.Kind kind, String seed, String url, int depth,
      String refusal) {
    Scope s = new Scope(kind, 3, List.of(), List.of(), List.of());
    s.addSeed(seed);
    if (refusal == null) {
      assertThat(s.refusal(url, depth)).isNull();
    } else {
      assertThat(s.refusal(url, depth)).contains(refusal);
    }
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
