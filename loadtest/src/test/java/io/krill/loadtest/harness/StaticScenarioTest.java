package io.krill.loadtest.harness;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The static-file comparison for real: krill serve's server JVM and nginx on the same directory,
 * wrk against both, tiny phases. Checks that every cell measured (each HTTP/1.1 cell
 * fetched and compared the file first), the report's rows and goals, and that the parsers turn a
 * tool's error lines into a failed cell. Never checks a speed.
 */
class StaticScenarioTest {
  /** The HTTP/1.1 variants (wrk); the HTTP/2 ones (h2load) run in the full scenario. */
  private static final List<String> HTTP1 = List.of("nginx-12B", "krill-12B", "nginx-1MiB", "krill-1MiB");

  @TempDir
  Path results;

  @Test
  @Timeout(value = 5, unit = TimeUnit.MINUTES)
  void staticScenario_quickRun_measuresKrillAndNginxOnBothFilesAndProtocols() throws IOException {
    LoadtestConsole.runPassing("--scenario", "static", "--quick", "--connections", "10", "--variants",
        String.join(",", HTTP1), "--warmup-ms", "1000", "--measure-ms", "1000", "--results", results.toString(), "--date",
        "smoke", "--heap", "256m", "--child-jvm-option", "-Dio.netty.leakDetectionLevel=paranoid");
    Path dir = results.resolve("smoke-static");
    String md = Files.readString(dir.resolve("report.md"));
    for (String v : HTTP1) {
      assertThat(md).contains("| 10 | " + v + " | ");
    }
    assertThat(md).contains("| krill serve ÷ nginx, static 12-byte file, HTTP/1.1 (wrk), requests/s, 10 conns | ≥ 1.0× | ")
        .contains("| krill serve ÷ nginx, static 1 MiB file, HTTP/1.1 (wrk), requests/s, 10 conns | ≥ 1.0× | ");
    String json = Files.readString(dir.resolve("results.json"));
    assertThat(json).contains("\"variant\": \"krill-1MiB\"").contains("\"wrkRps\"").doesNotContain("\"error\"");
    assertThat(Files.readString(dir.resolve("logs/server-krill-12B.log"))).doesNotContain("LEAK:");
  }

  /* A cell that read these lines of wrk's output. */
  private static Cell parsedWrk(String... lines) {
    Cell c = new Cell("static", "krill-12B", 10, 1);
    StaticScenario.parseWrk(List.of(lines), c);
    return c;
  }

  @Test
  void parseWrk_non2xxOrSocketErrors_failTheCell() {
    Cell good = parsedWrk("Running 1s test @ http://127.0.0.1:1/small.txt", "  50%   1.00ms", "  99%   2.50ms",
        "  1000 requests in 1.00s, 300.00KB read", "Requests/sec:   1000.00");
    assertThat(good.error).isNull();
    assertThat(good.rps()).isEqualTo(1000.0);
    assertThat(good.wrkP99Micros).isEqualTo(2500.0);
    assertThat(StaticScenario.summary(good)).isEqualTo("1000 rps p50 1,000 us p99 2,500 us server cpu —%");

    assertThat(parsedWrk("  Non-2xx or 3xx responses: 1000", "Requests/sec:   1000.00").error).contains("Non-2xx");
    assertThat(parsedWrk("  Socket errors: connect 0, read 0, write 0, timeout 3", "Requests/sec: 9.00").error)
        .contains("timeout 3");
    assertThat(parsedWrk("unable to connect to 127.0.0.1:1 Connection refused").error).contains("no Requests/sec");
  }

  @Test
  void order_everyOtherRound_flipsEachNginxKrillPair() {
    assertThat(LoadtestRun.order(Scenario.STATIC, HTTP1, 1)).isEqualTo(HTTP1);
    assertThat(LoadtestRun.order(Scenario.STATIC, HTTP1, 2)).containsExactly("krill-12B", "nginx-12B", "krill-1MiB",
        "nginx-1MiB");
    assertThat(LoadtestRun.order(Scenario.H2_HELLO, Scenario.H2_VARIANTS, 2)).containsExactly("httpd-h2-tls",
        "netty-h2-tls", "httpd-h2", "netty-h2");
    assertThat(LoadtestRun.order(Scenario.HELLO, List.of("netty", "httpd-fiber"), 2)).containsExactly("netty",
        "httpd-fiber");
  }

  @Test
  void nginxConfig_oneWorkerLoopbackSendfile() {
    String conf = StaticScenario.nginxConfig(Path.of("/tmp/p"), Path.of("/tmp/site"), 8123, true);
    assertThat(conf).contains("worker_processes 1;").contains("master_process off;").contains("daemon off;")
        .contains("listen 127.0.0.1:8123 http2;").contains("root /tmp/site;").contains("sendfile on;")
        .contains("access_log off;");
    assertThat(StaticScenario.reference("krill-h2-1MiB")).isEqualTo("nginx-h2-1MiB");
    assertThat(StaticScenario.path("nginx-12B")).isEqualTo("/small.txt");
  }
}
