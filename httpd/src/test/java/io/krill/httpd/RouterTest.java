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
    assertThat(r.match("GET", Paths.split("/users/me")).route.handler).isSameAs(B);
    Router.Match m = r.match("GET", Paths.split("/users/42"));
    assertThat(m.route.handler).isSameAs(A);
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
    assertThat(r.match("HEAD", Paths.split("/x")).route.handler).isSameAs(A);
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
    assertThat(m.route.handler).isSameAs(A);
    assertThat(m.param("*")).isEqualTo("css/a b.css");
    assertThat(r.match("GET", Paths.split("/static/index")).route.handler).isSameAs(C);
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
}
