package io.krill.testweb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.util.List;
import org.junit.jupiter.api.Test;

class GroundTruthTest {
  private static final int PORT = 8080;

  private static TestWebConfig.Builder noTraps() {
    return TestWebConfig.builder().calendarHosts(0).sessionIdHosts(0).deepPathHosts(0).redirectLoopHosts(0).gzipBombHosts(0);
  }

  private static String host(String url) {
    return URI.create(url).getHost();
  }

  @Test
  void groundTruth_trapsAndNoDepthLimit_failsNamingMaxDepth() {
    SyntheticWeb web = SyntheticWeb.of(TestWebConfig.builder().sessionIdHosts(0).deepPathHosts(0).build());

    assertThatThrownBy(() -> web.groundTruth(Scope.builder().build(), PORT))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("maxDepth: unlimited (expected: a depth limit, because the calendar trap on h")
        .hasMessageContaining("/calendar/2026/01.html");
  }

  @Test
  void groundTruth_noTrapsNoDepthLimit_reachesEveryLinkedPageOfHealthyHosts() {
    SyntheticWeb web = SyntheticWeb.of(noTraps().robotsErrorRate(0).robotsMissingRate(0).disallowedRate(0).sitemapOnlyRate(0)
        .serverErrorRate(0).throttleRate(0).resetRate(0).slowDripRate(0).redirectRate(0).notFoundRate(0).deadHostRate(0).build());

    GroundTruth truth = web.groundTruth(Scope.builder().build(), PORT);

    assertThat(truth.pages()).hasSizeLessThanOrEqualTo(20 * 15).hasSizeGreaterThan(20 * 15 * 9 / 10);
    assertThat(truth.urls()).isEqualTo(truth.pages());
    assertThat(truth.hostsContacted()).hasSize(20);
    assertThat(truth.disallowed()).isEmpty();
    assertThat(truth.unresolvable()).isEmpty();
  }

  @Test
  void groundTruth_sessionIdsRemoved_shopIsFiniteWithoutDepthLimit() {
    SyntheticWeb web = SyntheticWeb.of(noTraps().sessionIdHosts(2).build());

    GroundTruth truth = web.groundTruth(Scope.builder().removeQueryParams("sid").build(), PORT);

    assertThat(truth.trapFetches()).containsOnlyKeys(Trap.SESSION_IDS);
    assertThat(truth.trapFetches().get(Trap.SESSION_IDS)).isEqualTo(2 * (1 + SyntheticWeb.SHOP_ITEMS));
    assertThat(truth.urls()).noneMatch(u -> u.contains("sid="));
    assertThatThrownBy(() -> web.groundTruth(Scope.builder().build(), PORT)).hasMessageContaining("session_ids trap");
  }

  @Test
  void groundTruth_depthLimit_boundsEveryTrapLinearly() {
    SyntheticWeb web = SyntheticWeb.of(TestWebConfig.defaults());
    GroundTruth d8 = web.groundTruth(Scope.builder().maxDepth(8).build(), PORT);
    GroundTruth d16 = web.groundTruth(Scope.builder().maxDepth(16).build(), PORT);

    assertThat(d8.maxDepth()).isEqualTo(8);
    assertThat(d8.trapFetches()).containsOnlyKeys(Trap.values());
    // Each trap adds a few URLs per level, never a multiple per level.
    assertThat(d16.trapFetches().get(Trap.CALENDAR)).isLessThanOrEqualTo(2 * 16 + 1);
    assertThat(d16.trapFetches().get(Trap.DEEP_PATH)).isLessThanOrEqualTo(16);
    assertThat(d16.trapFetches().get(Trap.SESSION_IDS)).isLessThanOrEqualTo(2 * 16);
    assertThat(d16.trapFetches().get(Trap.CALENDAR)).isGreaterThan(d8.trapFetches().get(Trap.CALENDAR));
    assertThat(d16.trapFetches().get(Trap.REDIRECT_LOOP)).isEqualTo(WebTraps.DEFAULT_REDIRECT_LOOP_LENGTH);
    assertThat(d16.trapFetches().get(Trap.GZIP_BOMB)).isEqualTo(1);
  }

  @Test
  void groundTruth_depthZero_fetchesOnlyTheSeeds() {
    SyntheticWeb web = SyntheticWeb.of(TestWebConfig.builder().seeds(3).build());

    GroundTruth truth = web.groundTruth(Scope.builder().maxDepth(0).build(), PORT);

    assertThat(truth.urls()).containsExactlyElementsOf(web.seedUrls(PORT));
    assertThat(truth.hostsContacted()).containsExactly("h0.krill.test", "h1.krill-1.test", "h2.krill.test");
  }

  @Test
  void groundTruth_robots_privatePagesAndErrorHostsNeverFetched() {
    SyntheticWeb web = SyntheticWeb.of(TestWebConfig.builder().hosts(40).robotsErrorRate(0.2).build());
    List<String> errorHosts = web.hostsWithRobotsError();

    GroundTruth obeying = web.groundTruth(Scope.builder().maxDepth(10).build(), PORT);
    GroundTruth ignoring = web.groundTruth(Scope.builder().maxDepth(10).honourRobots(false).build(), PORT);

    assertThat(errorHosts).isNotEmpty();
    List<String> noRobots = web.hostsWithoutRobots();
    assertThat(noRobots).isNotEmpty();
    assertThat(obeying.urls()).noneMatch(u -> u.contains("/private/") && !noRobots.contains(host(u)))
        .noneMatch(u -> errorHosts.contains(host(u)))
        .anyMatch(u -> u.contains("/private/") && noRobots.contains(host(u)));
    assertThat(obeying.disallowed()).anyMatch(u -> u.contains("/private/")).anyMatch(u -> errorHosts.contains(host(u)));
    assertThat(obeying.hostsContacted()).containsAll(errorHosts);
    assertThat(ignoring.urls()).anyMatch(u -> u.contains("/private/")).anyMatch(u -> errorHosts.contains(host(u)))
        .containsAll(obeying.urls());
    assertThat(ignoring.disallowed()).isEmpty();
    // A host without robots.txt allows everything.
    for (String u : obeying.disallowed()) {
      assertThat(u.contains("/private/") || errorHosts.contains(host(u))).as(u).isTrue();
      assertThat(web.hostsWithoutRobots()).doesNotContain(host(u));
    }
  }

  @Test
  void groundTruth_hostScopes_keepToTheirHosts() {
    SyntheticWeb web = SyntheticWeb.of(TestWebConfig.builder().domains(3).build());

    GroundTruth sameHost = web.groundTruth(Scope.builder().hosts(Scope.Hosts.SAME_HOST).maxDepth(8).build(), PORT);
    GroundTruth sameDomain = web.groundTruth(Scope.builder().hosts(Scope.Hosts.SAME_DOMAIN).maxDepth(8).build(), PORT);
    GroundTruth allowList = web.groundTruth(Scope.builder().allowDomains(List.of("krill-1.test")).maxDepth(8)
        .seeds(List.of("http://h1.krill-1.test:8080/")).build(), PORT);

    assertThat(sameHost.urls()).allMatch(u -> host(u).equals("h0.krill.test")).hasSizeGreaterThan(5);
    assertThat(sameDomain.urls()).allMatch(u -> host(u).endsWith(".krill.test"))
        .anyMatch(u -> !host(u).equals("h0.krill.test"));
    assertThat(allowList.urls()).allMatch(u -> host(u).endsWith(".krill-1.test")).anyMatch(u -> !host(u).equals("h1.krill-1.test"));
    assertThat(sameDomain.unresolvable()).allMatch(u -> host(u).startsWith("nx") && host(u).endsWith(".krill.test"));
  }

  @Test
  void groundTruth_redirectTarget_keepsTheDepthOfTheRedirect() {
    SyntheticWeb web = SyntheticWeb.of(TestWebConfig.builder().hosts(30).pagesPerHost(40).redirectRate(0.3).build());

    GroundTruth truth = web.groundTruth(Scope.builder().maxDepth(3).build(), PORT);

    int checked = 0;
    for (GroundTruth.Fetch f : truth.fetches().values()) {
      if (f.outcome() == GroundTruth.Outcome.REDIRECT && truth.fetches().containsKey(f.location())) {
        assertThat(truth.fetches().get(f.location()).depth()).isLessThanOrEqualTo(f.depth());
        checked++;
      }
    }
    assertThat(checked).isGreaterThan(10);
    assertThat(truth.fetches().values()).filteredOn(f -> f.trap() == Trap.REDIRECT_LOOP).extracting(GroundTruth.Fetch::depth)
        .containsOnly(truth.fetches().values().stream().filter(f -> f.trap() == Trap.REDIRECT_LOOP).mapToInt(GroundTruth.Fetch::depth)
            .min().getAsInt());
  }

  @Test
  void groundTruth_dnsFaults_makeTheirHostsUnresolvable() {
    SyntheticWeb web = SyntheticWeb.of(TestWebConfig.builder().dnsFailureHosts(2).dnsTimeoutHosts(1).build());

    GroundTruth truth = web.groundTruth(Scope.builder().maxDepth(10).build(), PORT);

    assertThat(web.dnsFaults()).hasSize(3).doesNotContainKey("h0.krill.test");
    assertThat(truth.urls()).noneMatch(u -> web.dnsFaults().containsKey(host(u)));
    assertThat(truth.hostsContacted()).doesNotContainAnyElementsOf(web.dnsFaults().keySet());
    assertThat(truth.unresolvable()).anyMatch(u -> web.dnsFaults().containsKey(host(u)));
  }

  @Test
  void groundTruth_patternsAndMaxPages_shapeTheSet() {
    SyntheticWeb web = SyntheticWeb.of(TestWebConfig.defaults());

    GroundTruth excluded = web.groundTruth(Scope.builder().exclude("/calendar/").exclude("/deep/").removeQueryParams("sid")
        .maxPages(50).build(), PORT);
    GroundTruth included = web.groundTruth(Scope.builder().include("^http://h0\\.").maxDepth(8).build(), PORT);

    assertThat(excluded.urls()).noneMatch(u -> u.contains("/calendar/") || u.contains("/deep/")).hasSizeGreaterThan(50);
    assertThat(excluded.expectedFetches()).isEqualTo(50);
    assertThat(included.urls()).allMatch(u -> u.startsWith("http://h0."));
  }

  @Test
  void scope_badValues_failNamingTheOption() {
    assertThatThrownBy(() -> Scope.builder().maxDepth(-1)).hasMessage("maxDepth: -1 (expected: 0..2147483647)");
    assertThatThrownBy(() -> Scope.builder().include("(")).hasMessageStartingWith("include: ( (expected: a regular expression");
    assertThatThrownBy(() -> Scope.builder().hosts(Scope.Hosts.ALLOW_LIST).build())
        .hasMessage("allowDomains: [] (expected: at least one domain for hosts ALLOW_LIST)");
    assertThatThrownBy(() -> SyntheticWeb.of(TestWebConfig.defaults()).groundTruth(Scope.builder().build(), 0))
        .hasMessage("port: 0 (expected: 1..65535)");
  }
}
