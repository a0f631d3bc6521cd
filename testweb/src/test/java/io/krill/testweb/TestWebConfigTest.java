package io.krill.testweb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class TestWebConfigTest {
  @Test
  void defaults_matchTheirConstants() {
    TestWebConfig c = TestWebConfig.defaults();

    assertThat(c.hosts()).isEqualTo(WebShape.DEFAULT_HOSTS);
    assertThat(c.ips()).isEqualTo(WebShape.DEFAULT_IPS);
    assertThat(c.firstIp().getHostAddress()).isEqualTo(WebShape.DEFAULT_FIRST_IP);
    assertThat(c.latency()).isEqualTo(WebSpeed.DEFAULT_LATENCY);
    assertThat(c.gzipBombBytes()).isEqualTo(WebTraps.DEFAULT_GZIP_BOMB_BYTES);
    assertThat(c).isEqualTo(TestWebConfig.builder().build()).hasSameHashCodeAs(TestWebConfig.builder().build());
  }

  @Test
  void toBuilder_everyKnobChanged_roundTrips() {
    TestWebConfig c = TestWebConfig.builder().seed(-7).hosts(5000).domains(7).ips(16).firstIp("127.1.2.3").port(8081).dnsPort(5353)
        .seeds(3).pagesPerHost(9).outDegree(2).crossHostRate(0.5).pageBytes(1000).latency(Duration.ofMillis(50)).latencyJitter(0)
        .bandwidth(0).notFoundRate(0.1).deadHostRate(0.2).serverErrorRate(0.1).throttleRate(0.1).throttleCount(3)
        .retryAfter(Duration.ofSeconds(2)).resetRate(0.1).slowDripRate(0.1).slowDripBandwidth(4)
        .slowDripDuration(Duration.ofSeconds(5)).redirectRate(0.1).disallowedRate(0.3).sitemapOnlyRate(0.4).robotsMissingRate(0.5)
        .robotsErrorRate(0.5).crawlDelay(Duration.ZERO).sitemaps(false).calendarHosts(2).sessionIdHosts(3).deepPathHosts(4)
        .redirectLoopHosts(5).redirectLoopLength(6).gzipBombHosts(7).gzipBombBytes(2L << 20).dnsTtl(Duration.ofSeconds(9))
        .dnsFailureHosts(10).dnsTimeoutHosts(11).accessLogLimit(12).build();

    assertThat(c.toBuilder().build()).isEqualTo(c);
    assertThat(c.toString()).contains("--latency=50ms", "--bandwidth=0B", "--first-ip=127.1.2.3", "--gzip-bomb-bytes=2MiB");
    assertThat(c).isNotEqualTo(TestWebConfig.defaults());
  }

  @Test
  void settings_eachHasAUniqueFlagAndTheDefaultsBuildTheDefaultWeb() {
    Set<String> flags = new HashSet<>();
    for (io.krill.config.Setting<?> s : TestWebSettings.BINDING.schema().settings()) {
      assertThat(flags.add(s.flag())).as(s.flag()).isTrue();
      assertThat(s.doc()).isNotBlank();
    }
    io.krill.config.Settings defaults = TestWebSettings.BINDING.schema().defaults();
    assertThat(TestWebSettings.BINDING.build(defaults, TestWebConfig.builder(), TestWebConfig.Builder::build))
        .isEqualTo(TestWebConfig.defaults());
    assertThat(flags).contains("--pages-per-host", "--slow-drip-bandwidth", "--dns-port", "--crawl-delay", "--no-sitemaps");
  }

  @Test
  void setters_badValues_failNamingTheKnob() {
    assertThatThrownBy(() -> TestWebConfig.builder().hosts(0)).hasMessage("hosts: 0 (expected: 1..100000)");
    assertThatThrownBy(() -> TestWebConfig.builder().crossHostRate(1.5)).hasMessage("crossHostRate: 1.5 (expected: 0..1)");
    assertThatThrownBy(() -> TestWebConfig.builder().crossHostRate(Double.NaN)).hasMessage("crossHostRate: NaN (expected: 0..1)");
    assertThatThrownBy(() -> TestWebConfig.builder().latency(Duration.ofSeconds(61))).hasMessage("latency: 61s (expected: 0s..60s)");
    assertThatThrownBy(() -> TestWebConfig.builder().firstIp("10.0.0.1"))
        .hasMessage("firstIp: 10.0.0.1 (expected: a host address in 127.0.0.0/8 (loopback only))");
    assertThatThrownBy(() -> TestWebConfig.builder().firstIp("127.0.0.x"))
        .hasMessage("firstIp: 127.0.0.x (expected: an IPv4 literal in 127.0.0.0/8 such as 127.0.1.1)");
    assertThatThrownBy(() -> TestWebConfig.builder().bandwidth(10)).hasMessage("bandwidth: 10 (expected: 1024..1073741824)");
    assertThatThrownBy(() -> TestWebConfig.builder().retryAfter(Duration.ofMillis(1500)))
        .hasMessage("retryAfter: 1500ms (expected: whole seconds)");
    assertThatThrownBy(() -> TestWebConfig.builder().port(70000)).hasMessage("port: 70000 (expected: 0..65535)");
  }

  @Test
  void build_inconsistentKnobs_failNamingThem() {
    assertThatThrownBy(() -> TestWebConfig.builder().hosts(3).seeds(4).build()).hasMessage("seeds: 4 (expected: 1..3)");
    assertThatThrownBy(() -> TestWebConfig.builder().hosts(3).calendarHosts(4).build()).hasMessage("calendarHosts: 4 (expected: 0..3)");
    assertThatThrownBy(() -> TestWebConfig.builder().serverErrorRate(0.6).redirectRate(0.5).build())
        .hasMessageStartingWith("serverErrorRate + throttleRate + resetRate + slowDripRate + redirectRate: 1.1")
        .hasMessageEndingWith("(expected: <= 1)");
    assertThatThrownBy(() -> TestWebConfig.builder().firstIp("127.255.255.250").ips(10).build())
        .hasMessage("ips: 10 (expected: <= 5 addresses after firstIp 127.255.255.250, to stay in 127.0.0.0/8)");
    assertThatThrownBy(() -> TestWebConfig.builder().hosts(4).dnsFailureHosts(4).build())
        .hasMessage("dnsFailureHosts + dnsTimeoutHosts: 4 (expected: <= hosts - seeds = 3: seed hosts always resolve)");
    assertThatThrownBy(() -> SyntheticWeb.of(TestWebConfig.builder().hosts(2).robotsMissingRate(0).robotsErrorRate(1).calendarHosts(2).build()))
        .hasMessage("calendarHosts: 2 (expected: <= 1, the hosts whose robots.txt and DNS answer)");
  }

  @Test
  void settings_readTheOneGrammar() {
    io.krill.config.Settings s = TestWebSettings.BINDING.schema().loader().environment(java.util.Map.of())
        .set("testweb.latency=1.5s").set("testweb.page-bytes=4k").set("testweb.crawl-delay=0").load();
    TestWebConfig c = TestWebSettings.BINDING.build(s, TestWebConfig.builder(), TestWebConfig.Builder::build);
    assertThat(c.latency()).isEqualTo(Duration.ofMillis(1500));
    assertThat(c.pageBytes()).isEqualTo(4096);
    assertThat(c.crawlDelay()).isZero();
    assertThat(c.toString()).contains("--latency=1500ms", "--page-bytes=4KiB");
  }
}
