package io.krill.testweb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class AccessLogTest {
  private static final int PORT = 8080;
  private long clock;

  private Entry request(String url, int status) {
    URI u = URI.create(url);
    long start = clock++;
    return new Entry(u.getHost(), u.getRawPath(), status, start);
  }

  private record Entry(String host, String target, int status, long start) {}

  private List<Entry> everyUrlOnce(GroundTruth truth) {
    List<Entry> entries = new ArrayList<>();
    truth.urls().forEach(u -> entries.add(request(u, 200)));
    return entries;
  }

  private static AccessLog log(int limit, List<Entry> entries) {
    AccessLog log = new AccessLog(limit);
    log.port(PORT);
    InetAddress lo = InetAddress.getLoopbackAddress();
    for (Entry e : entries) {
      log.add(new AccessLog.Entry(Instant.EPOCH, e.start(), e.start() + 1, new InetSocketAddress(lo, 40000), lo, e.host(),
          e.target(), e.status(), 0));
    }
    return log;
  }

  @Test
  void check_requestsAgainstTheTruth_sortsOutRetriesRefetchesMissingAndOthers() {
    SyntheticWeb web = SyntheticWeb.of(TestWebConfig.builder().build());
    GroundTruth truth = web.groundTruth(Scope.builder().maxDepth(2).build(), PORT);
    List<String> urls = new ArrayList<>(truth.urls());
    assertThat(urls).hasSizeGreaterThan(4);
    String host = URI.create(urls.get(0)).getHost();
    List<Entry> entries = new ArrayList<>();
    entries.add(request("http://" + host + ":" + PORT + "/robots.txt", 200)); // left out, as the truth leaves it out
    entries.add(request("http://" + host + ":" + PORT + "/sitemap.xml", 200));
    entries.add(request(urls.get(0), 0)); // dropped, then answered: a retry
    entries.add(request(urls.get(0), 200));
    entries.add(request(urls.get(1), 503)); // a 5xx, then answered: a retry
    entries.add(request(urls.get(1), 200));
    entries.add(request(urls.get(2), 200)); // answered in full twice: fetched again for nothing
    entries.add(request(urls.get(2), 200));
    for (String u : urls.subList(4, urls.size())) { // urls.get(3) never requested
      entries.add(request(u, 200));
    }
    entries.add(request("http://" + host + ":" + PORT + "/not/in/the/truth.html", 404));

    AccessLog.Check c = log(100_000, entries).check(truth);

    assertThat(c.missing()).containsExactly(urls.get(3));
    assertThat(c.retried()).containsExactly(urls.get(0), urls.get(1));
    assertThat(c.answeredTwice()).containsExactly(urls.get(2));
    assertThat(c.outside()).containsExactly("http://" + host + ":" + PORT + "/not/in/the/truth.html");
    assertThat(c.exact()).isFalse();
    assertThat(c.describe()).isEqualTo("fetched " + (urls.size() - 1) + " of " + urls.size() + " (not " + urls.get(3)
        + ") (2 retried), 1 answered twice (" + urls.get(2) + "), 1 others (http://" + host + ":" + PORT
        + "/not/in/the/truth.html)");
  }

  @Test
  void check_everyUrlOnce_exact() {
    SyntheticWeb web = SyntheticWeb.of(TestWebConfig.builder().build());
    GroundTruth truth = web.groundTruth(Scope.builder().maxDepth(1).build(), PORT);

    AccessLog.Check c = log(100_000, everyUrlOnce(truth)).check(truth);

    assertThat(c.exact()).isTrue();
    assertThat(c.describe()).isEqualTo("fetched all " + truth.urls().size() + ", none answered twice, nothing else");
  }

  @Test
  void check_logPastItsLimit_refusesToCompare() {
    SyntheticWeb web = SyntheticWeb.of(TestWebConfig.builder().build());
    GroundTruth truth = web.groundTruth(Scope.builder().maxDepth(1).build(), PORT);

    AccessLog log = log(3, everyUrlOnce(truth));

    assertThatThrownBy(() -> log.check(truth)).isInstanceOf(IllegalStateException.class)
        .hasMessage("the access log kept 3 of " + truth.urls().size() + " requests (accessLogLimit): nothing to compare");
  }
}
