package io.krill.crawler.frontier;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FrontierTest {
  private static final long MS = 1_000_000L;

  private static Frontier frontier(Frontier.Order order, int perHost, int perIp, Duration delay) {
    return new Frontier(order, new Frontier.Politeness(perHost, perIp, delay, Duration.ofSeconds(30),
        Duration.ofMillis(100), Duration.ofSeconds(10)), new SeenSet(1 << 20, 1000, 0.01), 1);
  }

  /** Takes the host through RESOLVE and ROBOTS so that its URLs can be fetched. */
  private static void ready(Frontier f, String hostKey, String ip, long now) throws Exception {
    Frontier.Work r = f.next(now);
    assertThat(r.kind()).isEqualTo(Frontier.WorkKind.RESOLVE);
    assertThat(r.hostKey()).isEqualTo(hostKey);
    f.resolved(hostKey, InetAddress.getByName(ip));
    Frontier.Work robots = f.next(now);
    assertThat(robots.kind()).isEqualTo(Frontier.WorkKind.ROBOTS);
    f.robotsReady(hostKey, u -> true, Duration.ZERO);
    f.release(hostKey, now);
  }

  /**
   * Hands out work until none is ready, doing RESOLVE (address from {@code ips} by host name) and
   * ROBOTS (allow all) at once as they come; FETCH work is collected and, if {@code release}, released at once.
   */
  private static List<Frontier.Work> drive(Frontier f, Map<String, String> ips, long now, boolean release) throws Exception {
    List<Frontier.Work> fetches = new ArrayList<>();
    for (Frontier.Work w; (w = f.next(now)) != null; ) {
      switch (w.kind()) {
        case RESOLVE:
          f.resolved(w.hostKey(), InetAddress.getByName(ips.get(java.net.URI.create(w.hostKey()).getHost())));
          break;
        case ROBOTS:
          f.robotsReady(w.hostKey(), u -> true, Duration.ZERO);
          f.release(w.hostKey(), now);
          break;
        default:
          fetches.add(w);
          if (release) {
            f.release(w.hostKey(), now);
          }
      }
    }
    return fetches;
  }

  private static List<String> urls(List<Frontier.Work> work) {
    List<String> out = new ArrayList<>();
    for (Frontier.Work w : work) {
      out.add(w.kind() + " " + (w.url() == null ? w.hostKey() : w.url().url()));
    }
    return out;
  }

  @Test
  void offer_sameUrlTwice_queuedOnce() {
    Frontier f = frontier(Frontier.Order.BFS, 1, 1, Duration.ZERO);
    assertThat(f.offer("http://a.test/", 0, null)).isNotNull();
    assertThat(f.offer("http://a.test/", 1, "http://a.test/x")).isNull();
    assertThat(f.queued()).isEqualTo(1);
  }

  @Test
  void next_hostDelay_holdsSecondRequestUntilDelayPassed() throws Exception {
    Frontier f = frontier(Frontier.Order.BFS, 2, 4, Duration.ofMillis(500));
    f.offer("http://a.test/1", 0, null);
    f.offer("http://a.test/2", 0, null);
    long t0 = 1_000_000_000L;
    f.next(t0);
    f.resolved("http://a.test:80", InetAddress.getByName("127.0.0.2"));
    assertThat(f.next(t0).kind()).isEqualTo(Frontier.WorkKind.ROBOTS);
    f.robotsReady("http://a.test:80", u -> true, Duration.ZERO);
    f.release("http://a.test:80", t0);
    assertThat(f.next(t0)).isNull();
    assertThat(f.nanosUntilReady(t0)).isEqualTo(500 * MS);
    Frontier.Work first = f.next(t0 + 500 * MS);
    assertThat(first.url().url()).isEqualTo("http://a.test/1");
    assertThat(f.next(t0 + 999 * MS)).isNull();
    assertThat(f.next(t0 + 1000 * MS).url().url()).isEqualTo("http://a.test/2");
  }

  @Test
  void next_robotsCrawlDelay_longerDelayCappedAtMax() throws Exception {
    Frontier f = new Frontier(Frontier.Order.BFS, new Frontier.Politeness(1, 1, Duration.ofMillis(100),
        Duration.ofSeconds(2), Duration.ofMillis(100), Duration.ofSeconds(1)), new SeenSet(1 << 20, 1000, 0.01), 1);
    f.offer("http://a.test/1", 0, null);
    f.offer("http://a.test/2", 0, null);
    long t0 = 0;
    f.next(t0);
    f.resolved("http://a.test:80", InetAddress.getByName("127.0.0.2"));
    f.next(t0);
    f.robotsReady("http://a.test:80", u -> true, Duration.ofSeconds(60));
    f.release("http://a.test:80", 0);
    assertThat(f.nanosUntilReady(t0)).isEqualTo(2000 * MS);
  }

  @Test
  void next_perIpCap_sharedByHostsOnOneAddress() throws Exception {
    Frontier f = frontier(Frontier.Order.BFS, 5, 2, Duration.ZERO);
    for (String h : List.of("a", "b", "c")) {
      f.offer("http://" + h + ".test/1", 0, null);
      f.offer("http://" + h + ".test/2", 0, null);
    }
    Map<String, String> ips = Map.of("a.test", "127.0.0.9", "b.test", "127.0.0.9", "c.test", "127.0.0.9");
    List<Frontier.Work> out = drive(f, ips, 0, false);
    assertThat(out).hasSize(2);
    f.release(out.get(0).hostKey(), 0);
    assertThat(drive(f, ips, 0, false)).hasSize(1);
    assertThat(f.next(0)).isNull();
  }

  @Test
  void next_manyHostsWithDelay_eachHostServedAgainOnlyAfterItsDelay() throws Exception {
    Frontier f = frontier(Frontier.Order.BFS, 1, 1000, Duration.ofSeconds(1));
    long t0 = 1_000_000 * MS;
    for (int i = 0; i < 200; i++) {
      f.offer("http://h" + i + ".test/1", 0, null);
      f.offer("http://h" + i + ".test/2", 0, null);
    }
    Map<String, String> ips = new java.util.HashMap<>();
    for (int i = 0; i < 200; i++) {
      ips.put("h" + i + ".test", "127.0.0." + (2 + i % 2));
    }
    // resolve and fetch robots.txt a delay before t0: every host then waits for its delay
    assertThat(drive(f, ips, t0 - 1000 * MS, false)).isEmpty();
    List<String> first = new ArrayList<>();
    for (Frontier.Work w; (w = f.next(t0)) != null; ) {
      first.add(w.url().url());
      f.release(w.hostKey(), t0);
    }
    assertThat(first).hasSize(200).allMatch(u -> u.endsWith("/1"));
    assertThat(f.nanosUntilReady(t0)).isEqualTo(1000 * MS);
    assertThat(f.next(t0 + 999 * MS)).isNull();
    List<String> second = new ArrayList<>();
    for (Frontier.Work w; (w = f.next(t0 + 1000 * MS)) != null; ) {
      second.add(w.url().url());
    }
    assertThat(second).hasSize(200).allMatch(u -> u.endsWith("/2"));
    assertThat(f.nanosUntilReady(t0 + 1000 * MS)).isEqualTo(Long.MAX_VALUE);
  }

  @Test
  void next_ipCapReleased_reopensTheOtherHostOnThatIp() throws Exception {
    Frontier f = frontier(Frontier.Order.BFS, 1, 1, Duration.ZERO);
    for (String h : List.of("a", "b", "c")) {
      f.offer("http://" + h + ".test/1", 0, null);
    }
    Map<String, String> ips = Map.of("a.test", "127.0.0.5", "b.test", "127.0.0.5", "c.test", "127.0.0.6");
    List<Frontier.Work> out = drive(f, ips, 0, false);
    assertThat(urls(out)).containsExactly("FETCH http://a.test/1", "FETCH http://c.test/1");
    assertThat(f.next(0)).isNull();
    assertThat(f.nanosUntilReady(0)).isEqualTo(Long.MAX_VALUE);
    f.release(out.get(0).hostKey(), 0);
    assertThat(urls(drive(f, ips, 0, false))).containsExactly("FETCH http://b.test/1");
  }

  @Test
  void next_bfs_robotsComeInTheOrderOfTheUrlsThatNeedThem() throws Exception {
    Frontier f = frontier(Frontier.Order.BFS, 1, 10, Duration.ZERO);
    f.offer("http://a.test/1", 0, null);
    f.offer("http://a.test/2", 0, null);
    f.offer("http://b.test/3", 1, null);
    List<Frontier.Work> all = new ArrayList<>();
    Map<String, String> ips = Map.of("a.test", "127.0.0.2", "b.test", "127.0.0.3");
    for (Frontier.Work w; (w = f.next(0)) != null; ) {
      all.add(w);
      if (w.kind() == Frontier.WorkKind.RESOLVE) {
        f.resolved(w.hostKey(), InetAddress.getByName(ips.get(java.net.URI.create(w.hostKey()).getHost())));
      } else {
        if (w.kind() == Frontier.WorkKind.ROBOTS) {
          f.robotsReady(w.hostKey(), u -> true, Duration.ZERO);
        }
        f.release(w.hostKey(), 0);
      }
    }
    // b.test is resolved ahead (DNS latency hides behind a.test's fetches), but its robots.txt waits for its turn
    assertThat(urls(all)).containsExactly("RESOLVE http://a.test:80", "RESOLVE http://b.test:80", "ROBOTS http://a.test:80",
        "FETCH http://a.test/1", "FETCH http://a.test/2", "ROBOTS http://b.test:80", "FETCH http://b.test/3");
  }

  @Test
  void next_bfsManyNewHosts_resolvesAtMostTheLookaheadBeforeTheirTurn() throws Exception {
    Frontier f = frontier(Frontier.Order.BFS, 1, 1000, Duration.ZERO);
    f.offer("http://a.test/1", 0, null);
    f.offer("http://a.test/2", 0, null);
    for (int i = 0; i < 200; i++) {
      f.offer("http://h" + i + ".test/1", 1, null);
    }
    assertThat(f.next(0).kind()).isEqualTo(Frontier.WorkKind.RESOLVE);
    f.resolved("http://a.test:80", InetAddress.getByName("127.0.0.2"));
    // a.test has work ranked before every other host: only the lookahead resolves ahead of it
    int resolves = 0;
    Frontier.Work w;
    while ((w = f.next(0)).kind() == Frontier.WorkKind.RESOLVE) {
      resolves++;
    }
    assertThat(resolves).isEqualTo(Frontier.DEFAULT_RESOLVE_AHEAD - 1);
    assertThat(w.kind()).isEqualTo(Frontier.WorkKind.ROBOTS);
    assertThat(w.hostKey()).isEqualTo("http://a.test:80");
  }

  @Test
  void next_moreNewHostsThanResolveCap_handsOutAtMostTheCapUntilOneResolves() throws Exception {
    Frontier f = frontier(Frontier.Order.BFS, 1, 10, Duration.ZERO);
    int hosts = Frontier.DEFAULT_MAX_RESOLVING + 10;
    for (int i = 0; i < hosts; i++) {
      f.offer("http://h" + i + ".test/", 0, null);
    }
    List<Frontier.Work> resolves = new ArrayList<>();
    for (Frontier.Work w; (w = f.next(0)) != null; ) {
      assertThat(w.kind()).isEqualTo(Frontier.WorkKind.RESOLVE);
      resolves.add(w);
    }
    assertThat(resolves).hasSize(Frontier.DEFAULT_MAX_RESOLVING);
    assertThat(f.nanosUntilReady(0)).isEqualTo(Long.MAX_VALUE);
    f.fail(resolves.get(0).hostKey());
    assertThat(f.next(0).kind()).isEqualTo(Frontier.WorkKind.RESOLVE);
    assertThat(f.next(0)).isNull();
  }

  @Test
  void next_perHostCap_oneInFlight() throws Exception {
    Frontier f = frontier(Frontier.Order.BFS, 1, 10, Duration.ZERO);
    f.offer("http://a.test/1", 0, null);
    f.offer("http://a.test/2", 0, null);
    ready(f, "http://a.test:80", "127.0.0.2", 0);
    Frontier.Work w = f.next(0);
    assertThat(w).isNotNull();
    assertThat(f.next(0)).isNull();
    f.release(w.hostKey(), 0);
    assertThat(f.next(0)).isNotNull();
  }

  private static List<String> drain(Frontier f) {
    List<String> out = new ArrayList<>();
    for (Frontier.Work w; (w = f.next(0)) != null; ) {
      out.add(w.url().url());
      f.release(w.hostKey(), 0);
    }
    return out;
  }

  @Test
  void next_bfsAndDfs_oldestOrNewestFirst() throws Exception {
    for (Frontier.Order order : List.of(Frontier.Order.BFS, Frontier.Order.DFS)) {
      Frontier f = frontier(order, 1, 10, Duration.ZERO);
      f.offer("http://a.test/1", 0, null);
      f.offer("http://b.test/2", 0, null);
      f.offer("http://a.test/3", 1, null);
      f.offer("http://b.test/4", 1, null);
      List<String> got = new ArrayList<>();
      for (Frontier.Work w : drive(f, Map.of("a.test", "127.0.0.2", "b.test", "127.0.0.3"), 0, true)) {
        got.add(w.url().url());
      }
      if (order == Frontier.Order.BFS) {
        assertThat(got).containsExactly("http://a.test/1", "http://b.test/2", "http://a.test/3", "http://b.test/4");
      } else {
        assertThat(got).containsExactly("http://b.test/4", "http://a.test/3", "http://b.test/2", "http://a.test/1");
      }
    }
  }

  @Test
  void next_random_everyUrlOnceInSomeOtherOrder() throws Exception {
    Frontier f = frontier(Frontier.Order.RANDOM, 1, 10, Duration.ZERO);
    List<String> urls = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      urls.add("http://a.test/" + i);
      f.offer(urls.get(i), 0, null);
    }
    ready(f, "http://a.test:80", "127.0.0.2", 0);
    List<String> got = drain(f);
    assertThat(got).containsExactlyInAnyOrderElementsOf(urls).isNotEqualTo(urls);
  }

  @Test
  void backOff_retryAfter_holdsHostAtLeastThatLong() throws Exception {
    Frontier f = frontier(Frontier.Order.BFS, 1, 10, Duration.ZERO);
    f.offer("http://a.test/1", 0, null);
    ready(f, "http://a.test:80", "127.0.0.2", System.nanoTime());
    Frontier.Work w = f.next(System.nanoTime());
    Duration b = f.backOff(w.hostKey(), Duration.ofSeconds(3));
    f.retry(w.url().retried());
    f.release(w.hostKey(), System.nanoTime());
    assertThat(b).isGreaterThanOrEqualTo(Duration.ofSeconds(3));
    assertThat(f.next(System.nanoTime())).isNull();
    assertThat(f.nanosUntilReady(System.nanoTime())).isGreaterThan(2_000 * MS);
  }

  @Test
  void backOff_repeatedFailures_growExponentiallyUpToMax() {
    Frontier f = frontier(Frontier.Order.BFS, 1, 10, Duration.ZERO);
    f.offer("http://a.test/1", 0, null);
    List<Duration> waits = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      waits.add(f.backOff("http://a.test:80", null));
    }
    // base 100 ms, jitter factor in [0.5, 1): failure n waits in [50, 100) ms * 2^(n-1), capped at 10 s
    for (int i = 0; i < 7; i++) {
      long lo = 50L << i;
      long hi = 100L << i;
      assertThat(waits.get(i).toMillis()).isBetween(lo, hi);
    }
    assertThat(waits.get(9)).isLessThanOrEqualTo(Duration.ofSeconds(10));
  }

  @Test
  void fail_host_drainsItsQueue() throws Exception {
    Frontier f = frontier(Frontier.Order.BFS, 1, 10, Duration.ZERO);
    f.offer("http://a.test/1", 0, null);
    f.offer("http://a.test/2", 0, null);
    f.next(0);
    assertThat(f.fail("http://a.test:80")).extracting(CrawlUrl::url).containsExactly("http://a.test/1", "http://a.test/2");
    assertThat(f.queued()).isZero();
    assertThat(f.isIdle()).isTrue();
  }

  @Test
  void robotsUnreachable_hostWaitsThenFetchesRobotsAgain() throws Exception {
    Frontier f = frontier(Frontier.Order.BFS, 1, 10, Duration.ZERO);
    f.offer("http://a.test/1", 0, null);
    f.next(0);
    f.resolved("http://a.test:80", InetAddress.getByName("127.0.0.2"));
    f.next(System.nanoTime());
    assertThat(f.robotsUnreachable("http://a.test:80", Duration.ofMillis(200))).isEqualTo(1);
    f.release("http://a.test:80", System.nanoTime());
    assertThat(f.next(System.nanoTime())).isNull();
    Thread.sleep(250);
    assertThat(f.next(System.nanoTime()).kind()).isEqualTo(Frontier.WorkKind.ROBOTS);
  }

  @Test
  void checkpoint_outstandingUntilCompleted() {
    Frontier f = frontier(Frontier.Order.BFS, 1, 10, Duration.ZERO);
    f.offer("http://a.test/1", 0, null);
    f.offer("http://a.test/2", 0, null);
    f.completed(List.of("http://a.test/1"));
    Frontier.Checkpoint cp = f.checkpoint();
    assertThat(cp.completed()).containsExactly("http://a.test/1");
    assertThat(cp.outstanding()).extracting(CrawlUrl::url).containsExactly("http://a.test/2");
  }

  @Test
  void waitingFor_namesTheGateThatOpensFirst() throws Exception {
    Frontier f = frontier(Frontier.Order.BFS, 1, 10, Duration.ofSeconds(30));
    f.offer("http://a.test/1", 0, null);
    f.offer("http://a.test/2", 0, null);
    assertThat(f.waitingFor(System.nanoTime())).isNull(); // work is ready (a DNS lookup)
    Frontier.Work r = f.next(System.nanoTime());
    assertThat(f.waitingFor(System.nanoTime())).isEqualTo("DNS of 1 host");
    f.resolved(r.hostKey(), java.net.InetAddress.getByName("127.0.0.1"));
    Frontier.Work robots = f.next(System.nanoTime());
    assertThat(robots.kind()).isEqualTo(Frontier.WorkKind.ROBOTS);
    f.robotsUnreachable(r.hostKey(), Duration.ofSeconds(28));
    f.release(r.hostKey(), System.nanoTime());
    assertThat(f.waitingFor(System.nanoTime())).matches("robots.txt retry of http://a.test:80 in (28|29|30) s");
    Frontier g = frontier(Frontier.Order.BFS, 1, 10, Duration.ofSeconds(2));
    g.offer("http://b.test/1", 0, null);
    g.offer("http://b.test/2", 0, null);
    ready(g, "http://b.test:80", "127.0.0.1", System.nanoTime()); // robots.txt fetched: the next request waits the delay
    assertThat(g.next(System.nanoTime())).isNull();
    assertThat(g.waitingFor(System.nanoTime())).matches("host delay of http://b.test:80 in (1|2) s");
    g.backOff("http://b.test:80", Duration.ofSeconds(100));
    assertThat(g.waitingFor(System.nanoTime())).matches("back-off of http://b.test:80 \\(1 failure\\) in (9|10) s");
  }
}
