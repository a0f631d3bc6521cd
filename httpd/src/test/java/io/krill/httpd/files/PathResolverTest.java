package io.krill.httpd.files;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class PathResolverTest {
  @TempDir
  Path tmp;

  private Path root;
  private PathResolver resolver;

  @BeforeEach
  void setUp() throws IOException {
    root = tmp.toRealPath();
    resolver = new PathResolver(root, "", false);
  }

  /** Request targets that must never resolve; the loopback test sends them too. */
  static final String[] HOSTILE = {
    "/..", "/../", "/../etc/passwd", "/a/../../etc/passwd", "/a/..", "/./index.html",
    "/%2e%2e/etc/passwd", "/%2E%2E/etc/passwd", "/.%2e/etc/passwd", "/%2e./etc/passwd",
    "/a%2f..%2f..%2fetc%2fpasswd", "/a%2F..", "/..%2fetc", "/..%5cetc%5cpasswd", "/a\\..\\..\\etc",
    "/%5c..%5c..", "/%00", "/index.html%00.txt", "/a%00", "/%0d%0aX:1", "/%7f",
    "/%c0%ae%c0%ae/etc/passwd", "/%e0%80%ae", "/%ff", "/%", "/%2", "/%zz", "/%g0",
    "/.hidden", "/.git/config", "/a/.env", "/%2ehidden",
    "/C:/Windows/win.ini", "/c%3a/x", "relative/path", "", "*", "index.html",
    "http://example.com/../etc/passwd", "/caf\u00e9.txt",
  };

  @ParameterizedTest
  @MethodSource("hostile")
  void resolve_hostileTarget_refused(String target) {
    assertThat(resolver.resolve(target)).isNull();
  }

  static String[] hostile() {
    return HOSTILE.clone();
  }

  @Test
  void resolve_plainTargets_underRoot() {
    assertThat(resolver.resolve("/").path).isEqualTo(root);
    assertThat(resolver.resolve("/").directorySyntax).isTrue();
    assertThat(resolver.resolve("/index.html").path).isEqualTo(root.resolve("index.html"));
    assertThat(resolver.resolve("/index.html").directorySyntax).isFalse();
    assertThat(resolver.resolve("/a/b%20c.txt").path).isEqualTo(root.resolve("a").resolve("b c.txt"));
    assertThat(resolver.resolve("/caf%C3%A9.txt").path).isEqualTo(root.resolve("caf\u00e9.txt"));
    assertThat(resolver.resolve("/dir/").directorySyntax).isTrue();
    assertThat(resolver.resolve("//a//b").path).isEqualTo(root.resolve("a/b"));
    assertThat(resolver.resolve("/a?x=/../../etc").path).isEqualTo(root.resolve("a"));
    assertThat(resolver.resolve("/a#../..").path).isEqualTo(root.resolve("a"));
    assertThat(resolver.resolve("http://example.com/a/b").path).isEqualTo(root.resolve("a/b"));
    assertThat(resolver.resolve("http://example.com").path).isEqualTo(root);
  }

  @Test
  void resolve_doubleEncoding_decodedOnceIntoALiteralName() {
    assertThat(resolver.resolve("/%252e%252e/x").path).isEqualTo(root.resolve("%2e%2e").resolve("x"));
  }

  @Test
  void resolve_hiddenAllowed_servesDotFilesButNeverDotSegments() {
    PathResolver lenient = new PathResolver(root, "", true);
    assertThat(lenient.resolve("/.well-known/x").path).isEqualTo(root.resolve(".well-known/x"));
    assertThat(lenient.resolve("/..")).isNull();
    assertThat(lenient.resolve("/%2e%2e/x")).isNull();
    assertThat(lenient.resolve("/.")).isNull();
  }

  @Test
  void resolve_mountPrefix_strippedAndRequired() {
    PathResolver mounted = new PathResolver(root, "/static", false);
    assertThat(mounted.resolve("/static/a.css").path).isEqualTo(root.resolve("a.css"));
    assertThat(mounted.resolve("/static").path).isEqualTo(root);
    assertThat(mounted.resolve("/staticx/a.css")).isNull();
    assertThat(mounted.resolve("/a.css")).isNull();
    assertThat(mounted.resolve("/static/../a.css")).isNull();
  }

  @Test
  void decode_strict_rejectsMalformedAndNonAscii() {
    assertThat(PathResolver.decode("a%20b")).isEqualTo("a b");
    assertThat(PathResolver.decode("%E2%82%AC")).isEqualTo("\u20ac");
    assertThat(PathResolver.decode("%E2%82")).isNull();
    assertThat(PathResolver.decode("%2")).isNull();
    assertThat(PathResolver.decode("\u00e9")).isNull();
  }
}
