package io.krill.testweb;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(60)
class TestWebCommandTest {
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  private int run(String... args) {
    return TestWebCommand.commandLine(new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8))
        .execute(args);
  }

  private String out() {
    return out.toString(StandardCharsets.UTF_8);
  }

  private String err() {
    return err.toString(StandardCharsets.UTF_8);
  }

  @Test
  void run_printsDnsSeedsGroundTruthAndACrawlCommand() {
    int code = run("--hosts", "6", "--ips", "2", "--latency", "0", "--gzip-bomb-bytes", "1MiB", "--duration", "200ms", "--max-depth", "5");

    assertThat(code).isZero();
    assertThat(err()).isEmpty();
    assertThat(out()).containsPattern("krill testweb: 6 hosts on 2 loopback addresses \\(127\\.0\\.1\\.1\\.\\.127\\.0\\.1\\.2\\), port \\d+, seed 42")
        .containsPattern("dns: +127\\.0\\.0\\.1:\\d+ \\(UDP and TCP\\)")
        .containsPattern("seeds: http://h0\\.krill\\.test:\\d+/")
        .containsPattern("ground truth at depth 5: \\d+ URLs fetched")
        .containsPattern("crawl it: bin/krill crawl --dns 127\\.0\\.0\\.1:\\d+ --allow-private --scope any --max-depth 5 http://h0\\.krill\\.test:\\d+/")
        .contains("krill testweb: stopped after 0 requests");
  }

  @Test
  void run_unlimitedDepthWithTraps_saysHowToBoundTheGroundTruth() {
    int code = run("--hosts", "2", "--latency", "0", "--gzip-bomb-hosts", "0", "--duration", "100ms", "--max-depth", "unlimited");

    assertThat(code).isZero();
    assertThat(out()).contains("ground truth: maxDepth: unlimited (expected: a depth limit").doesNotContain("--max-depth");
  }

  @Test
  void run_badValues_printOneLineAndExit2() {
    assertThat(run("--hosts", "0")).isEqualTo(2);
    assertThat(run("--latency", "soon")).isEqualTo(2);
    assertThat(run("--calendar-hosts", "9", "--hosts", "3")).isEqualTo(2);
    assertThat(run("--first-ip", "10.1.2.3")).isEqualTo(2);
    assertThat(run("--no-such-flag")).isEqualTo(2);
    assertThat(run("--duration", "-1s")).isEqualTo(2);

    assertThat(err().lines()).containsExactly(
        "krill testweb: --hosts: 0 (expected: 1..100000) (see krill testweb --help)",
        "krill testweb: --latency: soon (expected: a duration such as 30s or 500ms (units: ns, us, ms, s, m, h, d)) (see krill testweb --help)",
        "krill testweb: --calendar-hosts: 9 (expected: 0..3) (see krill testweb --help)",
        "krill testweb: --first-ip: 10.1.2.3 (expected: a host address in 127.0.0.0/8 (loopback only)) (see krill testweb --help)",
        "krill testweb: Unknown option: '--no-such-flag' (see krill testweb --help)",
        "krill testweb: --duration: -1s (expected: a duration such as 30s or 500ms (units: ns, us, ms, s, m, h, d)) (see krill testweb --help)");
    assertThat(out()).isEmpty();
  }

  @Test
  void help_listsEveryKnobWithItsDefault() {
    assertThat(run("--help")).isZero();

    for (io.krill.config.Setting<?> s : TestWebSettings.BINDING.schema().settings()) {
      assertThat(out()).contains(s.flag());
    }
    assertThat(out()).contains("(default: 20)", "(default: 127.0.1.1)", "(default: 64MiB)", "(default: 300ms)");
  }
}
