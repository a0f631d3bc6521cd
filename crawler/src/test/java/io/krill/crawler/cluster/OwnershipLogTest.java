package io.krill.crawler.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.krill.crawler.CrawlView;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The cluster view's ownership, from node reports alone: deterministic times, no broker. */
class OwnershipLogTest {
  private static final long T0 = 1_000_000;
  private static final long LIVE = 5_000;

  private static List<Integer> owned(OwnershipLog log, String node) {
    return log.nodes().stream().filter(n -> n.id().equals(node)).findFirst().orElseThrow().partitions();
  }

  private static List<String> moves(OwnershipLog log) {
    return log.ownership().stream().map(c -> c.partition() + ":" + c.from() + ">" + c.to()).toList();
  }

  @Test
  void seen_joinRebalanceAndTakeover_showsEachMoveFromItsOwner() {
    long now = System.currentTimeMillis();
    OwnershipLog log = new OwnershipLog("a", now - 60_000, LIVE);
    log.seen("a", "crawling", now - 50_000, List.of(0, 1, 2, 3));
    // b joins: a gives up 2 and 3 first (cooperative rebalancing), then b claims them
    log.seen("a", "crawling", now - 40_000, List.of(0, 1));
    log.seen("b", "crawling", now - 39_500, List.of(2, 3));
    // b dies: its last report ages; a takes its partitions over
    log.seen("a", "crawling", now - 100, List.of(0, 1, 2, 3));
    assertThat(moves(log)).containsExactly("0:null>a", "1:null>a", "2:null>a", "3:null>a", "2:a>b", "3:a>b",
        "2:b>a", "3:b>a");
    assertThat(log.ownership().get(4).atSeconds()).isEqualTo(20.5);
    assertThat(owned(log, "a")).containsExactly(0, 1, 2, 3);
    assertThat(owned(log, "b")).isEmpty();
    CrawlView.Node b = log.nodes().get(1);
    assertThat(b.alive()).isFalse();
    assertThat(b.state()).isEqualTo("silent");
    assertThat(b.self()).isFalse();
    assertThat(log.nodes().get(0).self()).isTrue();
    assertThat(log.nodes().get(0).alive()).isTrue();
  }

  @Test
  void seen_claimOlderThanTheOwnersOrStaleReport_ignored() {
    OwnershipLog log = new OwnershipLog("a", T0, LIVE);
    log.seen("b", "crawling", T0 + 2_000, List.of(0));
    // a's report from before b took 0 arrives late: a still claims 0, but b's claim is newer
    log.seen("a", "crawling", T0 + 1_000, List.of(0, 1));
    // b's own older report, after its newer one: ignored
    log.seen("b", "crawling", T0 + 1_500, List.of());
    assertThat(moves(log)).containsExactly("0:null>b", "1:null>a");
    assertThat(owned(log, "b")).containsExactly(0);
  }

  @Test
  void seen_reportsFromBeforeThisNodeJoined_setOwnersWithoutChanges_leftNodeNamed() {
    OwnershipLog log = new OwnershipLog("b", T0, LIVE);
    log.seen("a", "left", T0 - 10_000, List.of(0, 1));
    assertThat(log.ownership()).isEmpty();
    assertThat(owned(log, "a")).containsExactly(0, 1);
    log.seen("b", "crawling", T0 + 3_000, List.of(0, 1));
    assertThat(moves(log)).containsExactly("0:a>b", "1:a>b");
    assertThat(log.nodes().get(0).state()).isEqualTo("left");
  }

  @Test
  void seen_manyMovesAndNodes_keepsTheLatestOnly() {
    OwnershipLog log = new OwnershipLog("self", T0, LIVE);
    for (int i = 0; i < 1_000; i++) {
      log.seen("node" + i, "left", T0 + i, List.of(i % 4));
    }
    assertThat(log.ownership()).hasSize(OwnershipLog.MAX_CHANGES);
    assertThat(log.ownership().get(OwnershipLog.MAX_CHANGES - 1).to()).isEqualTo("node999");
    assertThat(log.nodes()).hasSizeLessThanOrEqualTo(OwnershipLog.MAX_NODES);
  }
}
