package io.krill.httpd;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The router and path decoding, without sockets. */
class RouterTest {
  private static final Handler A = (q, r) -> { };
  private static final Handler B = (q, r) -> { };
  private static final Handler C = (q, r) -> { };

  private static Router router(Router.Route... routes) {
    return new Router(List.of(routes));
  }

  @Test
  void match_literalBeatsParameter_whateverTheOrder() {
    Router r = router(Router.Route.parse("GET", "/users/{id}", A), Router.Route.parse("GET", "/users/me", B));
    assertThat(r.match("GET", Paths.split("/users/me")).route.handler()).isSameAs(B);
    Router.Match m = r.match("GET", Paths.split("/users/42"));
    assertThat(m.route.handler()).isSameAs(A);
    assertThat(m.param("id")).isEqualTo("42");
    assertThat(m.param("other")).isNull();
  }

  @Test
  void match_wrongMethod_405ListsAllowedMethods() {
    Router r = router(Router.Route.parse("GET", "/x", A), Router.Route.parse("DELETE", "/x", B));
    Router.Match m = r.match("POST", Paths.split("/x"));
    assertThat(m.route).isNull();
    assertThat(m.allow).isEqualTo("DELETE, GET, HEAD");
  }

  @Test
  void match_head_fallsBackToGet() {
    Router r = router(Router.Route.parse("GET", "/x", A));
    assertThat(r.match("HEAD", Paths.split("/x")).route.handler()).isSameAs(A);
  }

  @Test
  void match_noPath_null() {
    Router r = router(Router.Route.parse("GET", "/x/{y}", A));
    assertThat(r.match("GET", Paths.split("/x"))).isNull();
    assertThat(r.match("GET", Paths.split("/x/"))).isNull();
    assertThat(r.match("GET", Paths.split("/x/1/2"))).isNull();
  }

  @Test
  void match_wildcard_capturesTheDecodedRest() {
    Router r = router(Router.Route.parse("GET", "/static/*", A), Router.Route.parse("GET", "/static/index", C));
    Router.Match m = r.match("GET", Paths.split("/static/css/a%20b.css"));
    assertThat(m.route.handler()).isSameAs(A);
    assertThat(m.param("*")).isEqualTo("css/a b.css");
    assertThat(r.match("GET", Paths.split("/static/index")).route.handler()).isSameAs(C);
    assertThat(r.match("GET", Paths.split("/static")).param("*")).isEmpty();
  }

  @Test
  void match_encodedSlash_staysInOneSegment() {
    Router r = router(Router.Route.parse("GET", "/files/{name}", A));
    assertThat(r.match("GET", Paths.split("/files/a%2Fb")).param("name")).isEqualTo("a/b");
  }

  @Test
  void decode_escapesAndPlus_decodedAsUtf8() {
    assertThat(Paths.decode("caf%C3%A9+x", true)).isEqualTo("café x");
    assertThat(Paths.decode("caf%C3%A9+x", false)).isEqualTo("café+x");
    assertThat(Paths.decode("100%", false)).isEqualTo("100%");
    assertThat(Paths.decode("%zz", false)).isEqualTo("%zz");
  }

  /* What the scan alone answers: the route's handler and parameters, or the 405's allow list, or null. */
  private static String describe(Router.Match m, String... params) {
    if (m == null) {
      return "none";
    }
    if (m.route == null) {
      return "405 " + m.allow;
    }
    StringBuilder b = new StringBuilder(m.route.toString());
    for (String p : params) {
      b.append(' ').append(p).append('=').append(m.param(p));
    }
    return b.toString();
  }

  @Test
  void matchRawPath_literalRoutesAndOthers_sameAnswerAsTheScan() {
    Router r = router(Router.Route.parse("GET", "/users/{id}", A), Router.Route.parse("GET", "/users/me", B),
        Router.Route.parse("POST", "/users/me", C), Router.Route.parse("GET", "/users/me", C),
        Router.Route.parse("GET", "/", A), Router.Route.parse("GET", "/a/", B), Router.Route.parse("GET", "/a%2Fb", C),
        Router.Route.parse("HEAD", "/{x}", A), Router.Route.parse("GET", "/static/*", B),
        Router.Route.parse("GET", "/static/index", C), Router.Route.parse("DELETE", "/x y", A));
    String[] paths = {"/users/me", "/users/42", "/users/m%65", "/", "/a/", "/a", "/a/b", "/a%2Fb", "/static",
        "/static/index", "/static/index/more", "/x y", "/x%20y", "/nope", "users/me", "*", "//"};
    String[] methods = {"GET", "HEAD", "POST", "DELETE", "PUT"};
    for (String path : paths) {
      for (String method : methods) {
        assertThat(describe(r.match(method, path), "id", "x", "*"))
            .as(method + " " + path)
            .isEqualTo(describe(r.match(method, Paths.split(path)), "id", "x", "*"));
      }
    }
    assertThat(r.match("GET", "/users/me").route.handler()).isSameAs(B); // the first of two equal routes
    assertThat(r.match("HEAD", "/users").route.handler()).isSameAs(A); // HEAD route beats the GET fallback
  }
}
