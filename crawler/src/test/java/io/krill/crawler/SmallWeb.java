package io.krill.crawler;

import io.krill.testkit.TestDnsServer;
import io.krill.testkit.TestHttpServer;
import io.krill.testkit.TestHttpServer.Response;
import io.krill.netio.dns.DnsResolver;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpHeaderNames;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * A tiny known web for end-to-end crawler tests: hosts a.test and b.test on 127.0.0.2 and
 * c.test on 127.0.0.3 (same port), served by {@link TestHttpServer} and named by
 * {@link TestDnsServer}. Page i of a host links to pages i+1 and 2i+1 of its host, to page i
 * of the next host, to a disallowed /private/ page and to a host that does not resolve.
 */
public final class SmallWeb implements AutoCloseable {
  public static final List<String> HOSTS = List.of("a.test", "b.test", "c.test");
  public final int pages;
  public final TestDnsServer dns;
  public final TestHttpServer ip2;
  public final TestHttpServer ip3;
  public final DnsResolver resolver;
  private final Function<FullHttpRequest, Response> extra;

  public SmallWeb(int pages, long latencyMillis) throws Exception {
    this(pages, latencyMillis, r -> null);
  }

  /** @param extra answers a request first when it returns non-null (test-specific behaviour) */
  public SmallWeb(int pages, long latencyMillis, Function<FullHttpRequest, Response> extra) throws Exception {
    this.pages = pages;
    this.extra = extra;
    dns = TestDnsServer.start().answer("a.test", "127.0.0.2").answer("b.test", "127.0.0.2").answer("c.test", "127.0.0.3");
    ip2 = TestHttpServer.start("127.0.0.2", r -> serve(r).delay(latencyMillis));
    TestHttpServer s3 = null;
    for (int attempt = 0; s3 == null; attempt++) {
      try {
        s3 = TestHttpServer.start("127.0.0.3", ip2.port(), r -> serve(r).delay(latencyMillis));
      } catch (Exception e) {
        if (attempt == 5) {
          throw e;
        }
      }
    }
    ip3 = s3;
    resolver = DnsResolver.builder().servers(List.of(dns.address())).timeout(Duration.ofMillis(500)).retries(0)
        .hostsFile(null).build();
  }

  public int port() {
    return ip2.port();
  }

  public String url(String host, String path) {
    return "http://" + host + ":" + port() + path;
  }

  private Response serve(FullHttpRequest r) {
    Response x = extra.apply(r);
    if (x != null) {
      return x;
    }
    String host = r.headers().get(HttpHeaderNames.HOST, "").replaceFirst(":\\d+$", "");
    String path = r.uri();
    if (path.equals("/robots.txt")) {
      return Response.ok("text/plain", "User-agent: *\nDisallow: /private/\n");
    }
    if (!path.startsWith("/p") || !HOSTS.contains(host)) {
      return Response.status(404);
    }
    int i;
    try {
      i = Integer.parseInt(path.substring(2));
    } catch (NumberFormatException e) {
      return Response.status(404);
    }
    if (i >= pages) {
      return Response.status(404);
    }
    StringBuilder sb = new StringBuilder("<html><body><h1>").append(host).append(' ').append(i).append("</h1>");
    for (int j : new int[] {i + 1, 2 * i + 1}) {
      if (j < pages) {
        sb.append("<a href='/p").append(j).append("'>p").append(j).append("</a>");
      }
    }
    String next = HOSTS.get((HOSTS.indexOf(host) + 1) % HOSTS.size());
    sb.append("<a href='").append(url(next, "/p" + i)).append("'>next host</a>");
    sb.append("<a href='/private/secret'>secret</a>");
    sb.append("<a href='").append(url("broken.test", "/")).append("'>broken</a>");
    sb.append("</body></html>");
    return Response.html(sb.toString());
  }

  /** @return every page URL reachable from a.test's p0 (all pages of all hosts) */
  public Set<String> reachablePages() {
    Set<String> s = new TreeSet<>();
    for (String h : HOSTS) {
      for (int i = 0; i < pages; i++) {
        s.add(url(h, "/p" + i));
      }
    }
    return s;
  }

  /** @return a configuration crawling this web from a.test/p0 into {@code out} */
  public CrawlConfig.Builder config(Path out) {
    return CrawlConfig.builder().seed(url("a.test", "/p0")).out(out).scope(io.krill.crawler.frontier.Scope.Kind.ANY)
        .allowDomain("test").allowPrivate(true).resolver(resolver).delay(Duration.ofMillis(40)).perHost(1).perIp(1)
        .maxDepth(50).progress(CrawlConfig.Progress.OFF).carriers(2)
        .fetch(f -> f.connectTimeout(Duration.ofSeconds(5)).readTimeout(Duration.ofSeconds(10)).totalTimeout(Duration.ofSeconds(20)))
        .fsync(CrawlConfig.Fsync.NEVER);
  }

  /** @return every request path seen by both servers */
  public List<TestHttpServer.Hit> hits() {
    List<TestHttpServer.Hit> all = new ArrayList<>(ip2.hits());
    all.addAll(ip3.hits());
    return all;
  }

  @Override
  public void close() throws IOException {
    ip2.close();
    ip3.close();
    dns.close();
  }
}
