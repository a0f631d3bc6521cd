package io.krill.crawler.frontier;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Depth is the shortest link distance from a seed, whatever order the paths are found in. The
 * crawl is simulated on the frontier with a virtual clock and a link graph in memory; a host's
 * DNS answer is held back until the fast host is drained, so the long path is always found first.
 */
class ShortestDepthTest {
  private static final String S = "http://a.test/s";
  /*
   * a.test only (fetched first, whole): seed -> c1 -> c2 -> c3 -> t -> u -> v -> w -> y; c.test (held back): x -> t.
   * So t is fetched at depth 4 before x shows its depth is 2, and u..y lie beyond the limit on the long path.
   */
  private static final Map<String, List<String>> FETCHED = new LinkedHashMap<>();

  static {
    FETCHED.put(S, List.of("http://a.test/c1", "http://c.test/x"));
    FETCHED.put("http://a.test/c1", List.of("http://a.test/c2"));
    FETCHED.put("http://a.test/c2", List.of("http://a.test/c3"));
    FETCHED.put("http://a.test/c3", List.of("http://a.test/t"));
    FETCHED.put("http://c.test/x", List.of("http://a.test/t"));
    FETCHED.put("http://a.test/t", List.of("http://a.test/u"));
    FETCHED.put("http://a.test/u", List.of("http://a.test/v", "http://a.test/t"));
    FETCHED.put("http://a.test/v", List.of("http://a.test/w"));
    FETCHED.put("http://a.test/w", List.of("http://a.test/y"));
    FETCHED.put("http://a.test/y", List.of());
  }
  /* a.test: seed -> chain c1 -> c2 -> c3 -> target; c.test (later): x -> target; b.test (later still): target -> u -> v. */
  private static final Map<String, List<String>> GRAPH = new LinkedHashMap<>();

  static {
    GRAPH.put(S, List.of("http://a.test/c1", "http://c.test/x"));
    GRAPH.put("http://a.test/c1", List.of("http://a.test/c2"));
    GRAPH.put("http://a.test/c2", List.of("http://a.test/c3"));
    GRAPH.put("http://a.test/c3", List.of("http://b.test/t"));
    GRAPH.put("http://c.test/x", List.of("http://b.test/t"));
    GRAPH.put("http://b.test/t", List.of("http://b.test/u"));
    GRAPH.put("http://b.test/u", List.of("http://b.test/v"));
    GRAPH.put("http://b.test/v", List.of());
  }

  private static Frontier frontier(Frontier.Order order, SeenSet seen) {
    return new Frontier(order, new Frontier.Politeness(1, 1, Duration.ZERO, Duration.ofSeconds(30),
        Duration.ofMillis(100), Duration.ofSeconds(10)), seen, 1);
  }

  private static SeenSet exact() {
    return new SeenSet(1 << 20, 1000, 0.01);
  }

  private static Map<String, Integer> truth(int maxDepth) {
    return truth(GRAPH, maxDepth);
  }

  /* Shortest link distance from the seed, by breadth-first search. */
  private static Map<String, Integer> truth(Map<String, List<String>> graph, int maxDepth) {
    Map<String, Integer> d = new TreeMap<>();
    ArrayDeque<String> q = new ArrayDeque<>(List.of(S));
    d.put(S, 0);
    while (!q.isEmpty()) {
      String u = q.poll();
      for (String v : graph.get(u)) {
        if (!d.containsKey(v) && d.get(u) + 1 <= maxDepth) {
          d.put(v, d.get(u) + 1);
          q.add(v);
        }
      }
    }
    return d;
  }

  /* Crawls the graph as the crawler's link discovery does: refused past maxDepth, else offered, else lowered. */
  private static Map<String, Integer> crawl(Frontier f, int maxDepth) throws Exception {
    return crawl(f, GRAPH, maxDepth, false);
  }

  /*
   * Crawls a graph on the frontier; with exact, links go through found() (the frontier applies
   * the depth limit and relaxes fetched pages), else as the crawler did before: refused past
   * maxDepth, else offered, else lowered.
   */
  private static Map<String, Integer> crawl(Frontier f, Map<String, List<String>> graph, int maxDepth, boolean exact)
      throws Exception {
    f.offer(S, 0, null);
    List<String> held = new ArrayList<>(); // later hosts, in the order their DNS answers come
    Map<String, Integer> fetched = new TreeMap<>();
    for (;;) {
      Frontier.Work w = f.next(0);
      if (w == null) {
        if (held.isEmpty()) {
          return fetched;
        }
        held.sort(null);
        String h = held.contains("http://c.test:80") ? "http://c.test:80" : held.get(0);
        held.remove(h);
        f.resolved(h, InetAddress.getByName("127.0.0.1"));
        continue;
      }
      switch (w.kind()) {
        case RESOLVE:
          if (w.hostKey().startsWith("http://a.test")) {
            f.resolved(w.hostKey(), InetAddress.getByName("127.0.0.1"));
          } else {
            held.add(w.hostKey());
          }
          break;
        case ROBOTS:
          f.robotsReady(w.hostKey(), u -> true, Duration.ZERO);
          f.release(w.hostKey(), 0);
          break;
        default: {
          CrawlUrl cu = w.url();
          assertThat(fetched.put(cu.url(), cu.depth())).as("fetched twice: %s", cu.url()).isNull();
          int depth = cu.depth() + 1;
          if (exact) {
            f.found(cu, graph.get(cu.url()), 1, cu.url());
          } else {
            for (String link : graph.get(cu.url())) {
              if (depth <= maxDepth && f.offer(link, depth, cu.url()) == null) {
                f.lower(link, depth, cu.url());
              }
            }
          }
          f.release(w.hostKey(), 0);
        }
      }
    }
  }

  @ParameterizedTest
  @CsvSource({"BFS,2", "BFS,3", "BFS,4", "DFS,2", "DFS,3", "DFS,4", "RANDOM,4"})
  void crawl_longPathFoundFirst_fetchesExactlyTheShortestPathTruth(Frontier.Order order, int maxDepth) throws Exception {
    assertThat(crawl(frontier(order, exact()), maxDepth)).isEqualTo(truth(maxDepth));
  }

  @Test
  void crawl_bloomSeenSet_lowersQueuedDepthsToo() throws Exception {
    SeenSet bloom = new SeenSet(1, 1000, 0.0001);
    bloom.add("http://z.test/switch");
    assertThat(bloom.isBloom()).isTrue();
    assertThat(crawl(frontier(Frontier.Order.BFS, bloom), 4)).isEqualTo(truth(4));
  }

  @Test
  void lower_onlyWhileQueuedAndOnlyDownwards() throws Exception {
    Frontier f = frontier(Frontier.Order.BFS, exact());
    CrawlUrl first = f.offer("http://a.test/t", 5, "http://a.test/c4");
    f.offer("http://a.test/o", 1, null);
    assertThat(f.lower("http://a.test/t", 5, "http://a.test/y")).isNull();
    assertThat(f.lower("http://a.test/t", 7, "http://a.test/y")).isNull();
    assertThat(f.lower("http://a.test/never", 1, "http://a.test/y")).isNull();
    CrawlUrl lowered = f.lower("http://a.test/t", 2, "http://a.test/x");
    assertThat(lowered).isEqualTo(new CrawlUrl("http://a.test/t", 2, "http://a.test/x", 0, first.seq()));
    assertThat(f.queued()).isEqualTo(2);
    Frontier.Work r = f.next(0);
    f.resolved(r.hostKey(), InetAddress.getByName("127.0.0.1"));
    f.next(0);
    f.robotsReady(r.hostKey(), u -> true, Duration.ZERO);
    f.release(r.hostKey(), 0);
    Frontier.Work w = f.next(0);
    assertThat(w.url()).isEqualTo(lowered); // keeps its place (BFS: first queued, first out)
    assertThat(f.lower("http://a.test/t", 1, "http://a.test/z")).as("handed out: not queued").isNull();
    assertThat(f.depth("http://a.test/t")).as("handed out: lowered all the same").isEqualTo(1);
    assertThat(f.checkpoint().outstanding()).contains(new CrawlUrl("http://a.test/t", 1, "http://a.test/z", 0, first.seq()));
  }

  private static Frontier frontier(Frontier.Order order, SeenSet seen, int maxDepth) {
    return new Frontier(order, new Frontier.Politeness(1, 1, Duration.ZERO, Duration.ofSeconds(30),
        Duration.ofMillis(100), Duration.ofSeconds(10)), seen, 1, maxDepth);
  }

  @ParameterizedTest
  @CsvSource({"BFS,2", "BFS,4", "BFS,6", "DFS,2", "DFS,4", "DFS,6", "RANDOM,2", "RANDOM,4", "RANDOM,6"})
  void found_shorterPathToFetchedPage_relaxesItsLinksAndAdmitsThoseBeyondTheLimit(Frontier.Order order, int maxDepth)
      throws Exception {
    Frontier f = frontier(order, exact(), maxDepth);
    Map<String, Integer> truth = truth(FETCHED, maxDepth);
    assertThat(crawl(f, FETCHED, maxDepth, true).keySet()).isEqualTo(truth.keySet());
    for (Map.Entry<String, Integer> e : truth.entrySet()) {
      assertThat(f.depth(e.getKey())).as("depth of %s", e.getKey()).isEqualTo(e.getValue());
    }
  }

  @Test
  void found_withoutTheGraph_missesWhatTheLongPathLeftBeyondTheLimit() throws Exception {
    // the frontier as it was (queued URLs lowered only): the test graph does tell the two apart
    Map<String, Integer> fetched = crawl(frontier(Frontier.Order.BFS, exact(), 4), FETCHED, 4, false);
    assertThat(fetched.keySet()).isNotEqualTo(truth(FETCHED, 4).keySet());
  }

  @Test
  void checkpoint_journalReplay_rebuildsTheGraph() throws Exception {
    Frontier f = frontier(Frontier.Order.BFS, exact(), 4);
    f.offer(S, 0, null);
    // fetch a.test's chain only: t at depth 4, u remembered at 5
    Frontier.Work w;
    while ((w = f.next(0)) != null) {
      if (w.kind() == Frontier.WorkKind.RESOLVE) {
        if (w.hostKey().startsWith("http://a.test")) {
          f.resolved(w.hostKey(), InetAddress.getByName("127.0.0.1"));
        }
      } else if (w.kind() == Frontier.WorkKind.ROBOTS) {
        f.robotsReady(w.hostKey(), u -> true, Duration.ZERO);
        f.release(w.hostKey(), 0);
      } else {
        f.found(w.url(), FETCHED.get(w.url().url()), 1, w.url().url());
        f.completed(List.of(w.url().url()));
        f.release(w.hostKey(), 0);
      }
    }
    java.nio.file.Path dir = java.nio.file.Files.createTempDirectory("depth-graph");
    try (io.krill.crawler.journal.Journal j = new io.krill.crawler.journal.Journal(dir)) {
      j.checkpoint(f.checkpoint(), new io.krill.crawler.output.WarcOutput.Position("crawl-00000.warc.gz", 0), 0);
    }
    io.krill.crawler.journal.Journal.Replay r = io.krill.crawler.journal.Journal.replay(dir);
    Frontier g = frontier(Frontier.Order.BFS, exact(), 4);
    r.completed().forEach(u -> g.restoreCompleted(r.nodes().get(u)));
    r.deferred().forEach(g::restoreDeferred);
    r.pending().forEach(g::enqueue);
    r.links().forEach(g::restoreLinks);
    assertThat(g.depth("http://a.test/t")).isEqualTo(4);
    assertThat(g.depth("http://a.test/u")).isEqualTo(5);
    // the short path, found after the resume: t drops to 2 and u, remembered, is queued at 3
    Frontier.Found found = g.found(new CrawlUrl("http://c.test/x", 1, S, 0, 0), List.of("http://a.test/t"), 1, "http://c.test/x");
    assertThat(found.relaxed()).extracting(CrawlUrl::url).contains("http://a.test/t");
    assertThat(found.queued()).extracting(CrawlUrl::url, CrawlUrl::depth).containsExactly(org.assertj.core.groups.Tuple.tuple("http://a.test/u", 3));
    assertThat(g.queued()).isEqualTo(f.queued() + 1);
  }
}
