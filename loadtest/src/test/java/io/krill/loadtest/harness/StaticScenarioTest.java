package io.krill.loadtest.harness;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
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
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    PrintStream saved = System.out;
    System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
    int status;
    try {
      status = LoadtestCommand.commandLine().execute("--scenario", "static", "--quick", "--connections", "10",
          "--variants", String.join(",", HTTP1),
          "--warmup-ms", "1000", "--measure-ms", "1000", "--results", results.toString(), "--date", "smoke",
          "--heap", "256m", "--child-jvm-option", "-Dio.netty.leakDetectionLevel=paranoid");
    } finally {
      System.setOut(saved);
    }
    String console = out.toString(StandardCharsets.UTF_8);
    System.err.println(console);
    assertThat(status).as(console).isZero();
    assertThat(console).doesNotContain("FAILED");
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

  @Test
  void parseWrk_non2xxOrSocketErrors_failTheCell() {
    List<String> ok = List.of("Running 1s test @ http://127.0.0.1:1/small.txt", "  50%   1.00ms", "  99%   2.50ms",
        "  1000 requests in 1.00s, 300.00KB read", "Requests/sec:   1000.00");
    Cell good = new Cell("static", "krill-12B", 10, 1);
    StaticScenario.parseWrk(ok, good);
    assertThat(good.error).isNull();
    assertThat(good.rps()).isEqualTo(1000.0);
    assertThat(good.wrkP99Micros).isEqualTo(2500.0);

    Cell notFound = new Cell("static", "krill-12B", 10, 1);
    StaticScenario.parseWrk(List.of("  Non-2xx or 3xx responses: 1000", "Requests/sec:   1000.00"), notFound);
    assertThat(notFound.error).contains("Non-2xx");
    Cell timeouts = new Cell("static", "krill-1MiB", 10, 1);
    StaticScenario.parseWrk(List.of("  Socket errors: connect 0, read 0, write 0, timeout 3", "Requests/sec: 9.00"),
        timeouts);
    assertThat(timeouts.error).contains("timeout 3");
    Cell nothing = new Cell("static", "krill-1MiB", 10, 1);
    StaticScenario.parseWrk(List.of("unable to connect to 127.0.0.1:1 Connection refused"), nothing);
    assertThat(nothing.error).contains("no Requests/sec");
  }

  @Test
  void parseH2load_onlyAllRequestsAnswered2xxCounts() {
    List<String> ok = List.of("finished in 2.00s, 5000.00 req/s, 1.00MB/s",
        "requests: 10000 total, 10010 started, 10000 done, 10000 succeeded, 0 failed, 0 errored, 0 timeout",
        "status codes: 10000 2xx, 0 3xx, 0 4xx, 0 5xx");
    Cell good = new Cell("static", "krill-h2-12B", 10, 1);
    StaticScenario.parseH2load(ok, good);
    assertThat(good.error).isNull();
    assertThat(good.rps()).isEqualTo(5000.0);

    Cell notFound = new Cell("static", "krill-h2-12B", 10, 1);
    StaticScenario.parseH2load(List.of("finished in 2.00s, 5000.00 req/s, 1.00MB/s",
        "requests: 10000 total, 10000 started, 10000 done, 0 succeeded, 10000 failed, 0 errored, 0 timeout",
        "status codes: 0 2xx, 0 3xx, 10000 4xx, 0 5xx"), notFound);
    assertThat(notFound.error).contains("10000 4xx");
    Cell none = new Cell("static", "krill-h2-12B", 10, 1);
    StaticScenario.parseH2load(List.of("finished in 2.05s, 0.00 req/s, 42B/s",
        "requests: 0 total, 0 started, 0 done, 0 succeeded, 0 failed, 0 errored, 0 timeout",
        "status codes: 0 2xx, 0 3xx, 0 4xx, 0 5xx"), none);
    assertThat(none.error).contains("0 requests done");
    Cell warmupCounted = new Cell("static", "nginx-h2-12B", 10, 1);
    StaticScenario.parseH2load(List.of("finished in 2.00s, 5000.00 req/s, 1.00MB/s",
        "requests: 10000 total, 10000 started, 10000 done, 10000 succeeded, 0 failed, 0 errored, 0 timeout",
        "status codes: 9993 2xx, 0 3xx, 0 4xx, 0 5xx"), warmupCounted);
    assertThat(warmupCounted.error).isNull();
    Cell some404 = new Cell("static", "nginx-h2-12B", 10, 1);
    StaticScenario.parseH2load(List.of("finished in 2.00s, 5000.00 req/s, 1.00MB/s",
        "requests: 10000 total, 10000 started, 10000 done, 10000 succeeded, 0 failed, 0 errored, 0 timeout",
        "status codes: 10000 2xx, 0 3xx, 1 4xx, 0 5xx"), some404);
    assertThat(some404.error).contains("1 4xx");
    Cell errored = new Cell("static", "nginx-h2-12B", 10, 1);
    StaticScenario.parseH2load(List.of("finished in 2.00s, 5000.00 req/s, 1.00MB/s",
        "requests: 100 total, 100 started, 90 done, 90 succeeded, 10 failed, 10 errored, 0 timeout",
        "status codes: 90 2xx, 0 3xx, 0 4xx, 0 5xx"), errored);
    assertThat(errored.error).contains("10 failed");
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
