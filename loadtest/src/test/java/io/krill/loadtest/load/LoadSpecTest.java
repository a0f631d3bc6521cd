package io.krill.loadtest.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class LoadSpecTest {
  @Test
  void build_targetOffLoopback_refusedNamingTheTarget() {
    assertThatThrownBy(() -> LoadSpec.builder().host("10.1.2.3").port(80).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("target: 10.1.2.3 (expected: a loopback address, 127.0.0.0/8 or ::1;"
            + " the load generator never sends traffic off this machine)");
  }

  @Test
  void build_loopbackTargets_accepted() {
    assertThat(LoadSpec.builder().host("127.0.0.5").port(80).build().connections()).isEqualTo(LoadSpec.DEFAULT_CONNECTIONS);
    assertThat(LoadSpec.builder().host("::1").port(80).build().source(0)).isNull();
    assertThat(LoadSpec.builder().port(80).sources(3).build().source(4).getHostAddress()).isEqualTo("127.0.0.3");
  }

  @Test
  void build_badFields_refusedNamingTheField() {
    assertThatThrownBy(() -> LoadSpec.builder().port(0).build()).hasMessage("port: 0 (expected: 1..65535)");
    assertThatThrownBy(() -> LoadSpec.builder().port(80).connections(0).build())
        .hasMessage("connections: 0 (expected: 1..19500)");
    assertThatThrownBy(() -> LoadSpec.builder().port(80).mode(LoadSpec.Mode.OPEN).build())
        .hasMessage("rate: 0 (expected: 1..10000000)");
    assertThatThrownBy(() -> LoadSpec.builder().port(80).mode(LoadSpec.Mode.OPEN).rate(10).pipeline(4).build())
        .hasMessage("pipeline: 4 (expected: 1 in open-loop mode)");
    assertThatThrownBy(() -> LoadSpec.builder().port(80).measure(Duration.ZERO, 1).build())
        .hasMessageStartingWith("measure: PT0S (expected: > 0");
    assertThatThrownBy(() -> LoadSpec.builder().port(80).path("x").build()).hasMessage("path: x (expected: starts with '/')");
  }

  @Test
  void parse_commandLine_buildsSpecAndRefusesUnknownOptions() {
    LoadSpec s = LoadMain.parse(new String[] {"--port", "8080", "--mode", "open", "--rate", "1,000", "--connections", "5"});
    assertThat(s.mode()).isEqualTo(LoadSpec.Mode.OPEN);
    assertThat(s.rate).isEqualTo(1000);
    assertThatThrownBy(() -> LoadMain.parse(new String[] {"--port", "80", "--bogus", "1"}))
        .hasMessageContaining("Unknown options: '--bogus', '1'");
    assertThatThrownBy(() -> LoadMain.parse(new String[] {"--port", "80", "--mode", "fast"}))
        .hasMessage("mode: fast (expected: closed|open|idle)");
    assertThatThrownBy(() -> LoadMain.parse(new String[] {"--host", "192.168.1.1", "--port", "80"}))
        .hasMessageStartingWith("target: 192.168.1.1");
  }
}
