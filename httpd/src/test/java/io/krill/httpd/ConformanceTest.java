package io.krill.httpd;

import io.krill.testkit.RawHttp;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Raw-socket requests with their expected outcomes, organised by the section of RFC 9112 they
 * exercise. Every request is sent whole and then in fragments of every size from 1 byte up,
 * each on a new connection, and must give the same outcome every time. A case that expects the
 * connection to stay open proves it with a second request on it.
 */
@Timeout(300)
class ConformanceTest {
  private static HttpServer server;

  @BeforeAll
  static void start() throws Exception {
    server = TestServers.withTestRoutes(TestServers.builder())
        .maxRequestLineBytes(64)
        .maxHeaderBytes(256)
        .maxHeaderCount(8)
        .maxBodyBytes(32)
        .headerReadTimeout(Duration.ofSeconds(20))
        .build().start();
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  /** One request and what must come back. */
  static final class Case {
    final String section;
    final String name;
    final String request;
    final int[] statuses;
    final boolean close;
    final String body;
    final String header;
    final String headerValue;

    Case(String section, String name, String request, int[] statuses, boolean close, String body, String header,
        String headerValue) {
      this.section = section;
      this.name = name;
      this.request = request;
      this.statuses = statuses;
      this.close = close;
      this.body = body;
      this.header = header;
      this.headerValue = headerValue;
    }

    @Override
    public String toString() {
      return "RFC 9112 " + section + ": " + name;
    }
  }

  private static final List<Case> CASES = new ArrayList<>();

  private static void ok(String section, String name, String request, String body) {
    CASES.add(new Case(section, name, request, new int[] {200}, false, body, null, null));
  }

  private static void refused(String section, String name, String request, int status) {
    CASES.add(new Case(section, name, request, new int[] {status}, true, null, null, null));
  }

  static {
    // 2.2 Message parsing
    ok("2.2", "empty lines before the request line are ignored", "\r\n\r\nGET /hello HTTP/1.1\r\nHost: x\r\n\r\n",
        "hello");
    refused("2.2", "a bare CR inside a header value", "GET /hello HTTP/1.1\r\nHost: x\r\nX-A: a\rb\r\n\r\n", 400);
    refused("2.2", "bare LF line ends", "GET /hello HTTP/1.1\nHost: x\n\n", 400);
    refused("2.2", "a bare LF ending one field line", "GET /hello HTTP/1.1\r\nHost: x\nX-A: 1\r\n\r\n", 400);
    refused("2.2", "a NUL inside a header value", "GET /hello HTTP/1.1\r\nHost: x\r\nX-A: a\0b\r\n\r\n", 400);
    // 3 Request line
    ok("3", "origin-form", "GET /hello HTTP/1.1\r\nHost: x\r\n\r\n", "hello");
    refused("3", "no protocol version", "GET /hello\r\nHost: x\r\n\r\n", 400);
    refused("3", "a space inside the target", "GET /hel lo HTTP/1.1\r\nHost: x\r\n\r\n", 400);
    refused("3", "an unknown protocol name", "GET /hello HTTX/1.1\r\nHost: x\r\n\r\n", 400);
    refused("3", "a major version we do not speak", "GET /hello HTTP/2.0\r\nHost: x\r\n\r\n", 505);
    refused("3", "a request line over maxRequestLineBytes", "GET /" + "a".repeat(80) + " HTTP/1.1\r\nHost: x\r\n\r\n",
        414);
    // 3.2 Request target and Host
    ok("3.2.2", "absolute-form", "GET http://x/hello HTTP/1.1\r\nHost: x\r\n\r\n", "hello");
    refused("3.2", "HTTP/1.1 without Host", "GET /hello HTTP/1.1\r\n\r\n", 400);
    refused("3.2", "two Host fields", "GET /hello HTTP/1.1\r\nHost: x\r\nHost: y\r\n\r\n", 400);
    refused("3.2", "a Host value with a slash", "GET /hello HTTP/1.1\r\nHost: x/y\r\n\r\n", 400);
    refused("3.2", "a Host value with a space", "GET /hello HTTP/1.1\r\nHost: a b\r\n\r\n", 400);
    refused("3.2", "a Host value with a bad port", "GET /hello HTTP/1.1\r\nHost: x:8o\r\n\r\n", 400);
    refused("3.2", "a Host value with a broken escape", "GET /hello HTTP/1.1\r\nHost: x%2\r\n\r\n", 400);
    ok("3.2", "a Host value with a port", "GET /hello HTTP/1.1\r\nHost: x.example:8080\r\n\r\n", "hello");
    ok("3.2", "a Host value that is an IPv6 literal", "GET /hello HTTP/1.1\r\nHost: [::1]:80\r\n\r\n", "hello");
    ok("3.2", "an empty Host value", "GET /hello HTTP/1.1\r\nHost:\r\n\r\n", "hello");
    refused("3.2", "a target in no form (no slash)", "GET hello HTTP/1.1\r\nHost: x\r\n\r\n", 400);
    refused("3.2.4", "asterisk-form with GET", "GET * HTTP/1.1\r\nHost: x\r\n\r\n", 400);
    refused("3.2.3", "CONNECT with origin-form", "CONNECT /hello HTTP/1.1\r\nHost: x\r\n\r\n", 400);
    refused("3 (RFC 9110 9.1)", "an unrecognised method", "BREW /hello HTTP/1.1\r\nHost: x\r\n\r\n", 501);
    refused("3 (RFC 9110 9.1)", "a method in the wrong case", "get /hello HTTP/1.1\r\nHost: x\r\n\r\n", 501);
    refused("3 (RFC 9110 9.1)", "CONNECT with no route for it", "CONNECT x:443 HTTP/1.1\r\nHost: x:443\r\n\r\n",
        501);
    CASES.add(new Case("3.2", "HTTP/1.0 without Host, closed after", "GET /hello HTTP/1.0\r\n\r\n", new int[] {200},
        true, "hello", null, null));
    // 5 Field syntax
    refused("5.1", "whitespace between the field name and the colon", "GET /hello HTTP/1.1\r\nHost : x\r\n\r\n", 400);
    refused("5.1", "a tab between the field name and the colon", "GET /hello HTTP/1.1\r\nHost\t: x\r\n\r\n", 400);
    refused("5.2", "obs-fold (a line starting with a space)",
        "GET /hello HTTP/1.1\r\nHost: x\r\nX-A: a\r\n b\r\n\r\n", 400);
    refused("5.2", "obs-fold (a line starting with a tab)",
        "GET /hello HTTP/1.1\r\nHost: x\r\nX-A: a\r\n\tb\r\n\r\n", 400);
    refused("5", "a field line without a colon", "GET /hello HTTP/1.1\r\nHost: x\r\nNoColon\r\n\r\n", 400);
    refused("5", "more fields than maxHeaderCount",
        "GET /hello HTTP/1.1\r\nHost: x\r\n" + "A: 1\r\n".repeat(8) + "\r\n", 431);
    refused("5", "field lines over maxHeaderBytes", "GET /hello HTTP/1.1\r\nHost: x\r\nX: " + "a".repeat(300)
        + "\r\n\r\n", 431);
    // 6 Message body framing (the smuggling shapes)
    ok("6.2", "Content-Length body", "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello", "hello");
    refused("6.1", "Transfer-Encoding and Content-Length together",
        "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 400);
    refused("6.3", "two differing Content-Length fields",
        "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nabcd", 400);
    refused("6.3", "a Content-Length list with differing values",
        "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 3, 4\r\n\r\nabcd", 400);
    refused("6.3", "a non-numeric Content-Length", "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 3a\r\n\r\nabc",
        400);
    refused("6.3", "a signed Content-Length", "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: +3\r\n\r\nabc", 400);
    refused("6.3", "a negative Content-Length", "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n", 400);
    refused("6.1", "chunked not the final transfer coding",
        "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked, gzip\r\n\r\n0\r\n\r\n", 400);
    refused("6.1", "an unknown transfer coding before chunked",
        "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n", 501);
    refused("6.1", "Transfer-Encoding in HTTP/1.0",
        "POST /echo HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 400);
    refused("6.2", "a Content-Length over maxBodyBytes",
        "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 33\r\n\r\n" + "a".repeat(33), 413);
    // 7.1 Chunked transfer coding
    ok("7.1", "chunked body", "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
        + "5\r\nhello\r\n3\r\n123\r\n0\r\n\r\n", "hello123");
    ok("7.1.1", "a chunk extension", "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
        + "5;name=value\r\nhello\r\n0\r\n\r\n", "hello");
    ok("7.1.2", "trailer fields", "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
        + "5\r\nhello\r\n0\r\nX-Checksum: 1\r\n\r\n", "hello");
    refused("7.1", "a chunk size that is not hex", "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
        + "zz\r\nhello\r\n0\r\n\r\n", 400);
    refused("7.1", "a chunk size that overflows", "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n"
        + "\r\nffffffffffffffffff1\r\nhello\r\n0\r\n\r\n", 400);
    refused("7.1", "chunk data longer than its size", "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n"
        + "\r\n3\r\nhello\r\n0\r\n\r\n", 400);
    refused("7.1", "a chunked body over maxBodyBytes", "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n"
        + "\r\n20\r\n" + "a".repeat(32) + "\r\n1\r\na\r\n0\r\n\r\n", 413);
    // 9.3 Persistence and pipelining
    CASES.add(new Case("9.3", "HTTP/1.0 keep-alive", "GET /hello HTTP/1.0\r\nConnection: keep-alive\r\n\r\n",
        new int[] {200}, false, "hello", "connection", "keep-alive"));
    CASES.add(new Case("9.3", "HTTP/1.1 Connection: close", "GET /hello HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
        new int[] {200}, true, "hello", "connection", "close"));
    CASES.add(new Case("9.3.2", "three pipelined requests answered in order",
        "GET /users/1 HTTP/1.1\r\nHost: x\r\n\r\nPOST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\nab"
            + "GET /users/3 HTTP/1.1\r\nHost: x\r\n\r\n", new int[] {200, 200, 200}, false, "user 3", null, null));
    CASES.add(new Case("9.3.2", "a pipelined request after a bad one is not served",
        "GET /hello HTTP/1.1\r\nHost : x\r\n\r\nGET /hello HTTP/1.1\r\nHost: x\r\n\r\n", new int[] {400}, true, null,
        null, null));
    CASES.add(new Case("9.3", "HEAD has the GET headers and no body",
        "HEAD /hello HTTP/1.1\r\nHost: x\r\n\r\n", new int[] {200}, false, "", "content-length", "5"));
  }

  static Stream<Arguments> cases() {
    List<Arguments> all = new ArrayList<>();
    for (Case c : CASES) {
      all.add(Arguments.of(c));
    }
    return all.stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void request_wholeAndInEveryFragmentSize_sameOutcome(Case c) throws Exception {
    byte[] bytes = c.request.getBytes(StandardCharsets.ISO_8859_1);
    for (int fragment = 0; fragment < bytes.length; fragment++) {
      String where = c + " (fragments of " + (fragment == 0 ? "all" : fragment) + " bytes)";
      try (RawHttp client = RawHttp.connect(server.port())) {
        client.send(bytes, fragment);
        RawHttp.Response last = null;
        for (int expected : c.statuses) {
          last = client.read(c.request.startsWith("HEAD"));
          assertThat(last.status()).as(where + ": " + last).isEqualTo(expected);
        }
        if (c.body != null) {
          assertThat(last.text()).as(where).isEqualTo(c.body);
        }
        if (c.header != null) {
          assertThat(last.header(c.header)).as(where).isEqualTo(c.headerValue);
        }
        if (c.close) {
          assertThat(client.closedByServer()).as(where + ": closed by the server").isTrue();
        } else {
          client.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n");
          assertThat(client.read().status()).as(where + ": the connection serves another request").isEqualTo(200);
        }
      }
    }
  }
}
