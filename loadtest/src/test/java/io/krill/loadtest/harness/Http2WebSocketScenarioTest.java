package io.krill.loadtest.harness;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The HTTP/2 and WebSocket comparisons for real, with tiny phases: h2load against httpd and raw
 * Netty over h2c and TLS, the echo client against the three WebSocket servers. Checks that every
 * cell measured, the report's rows and goals, and that the parsers fail a cell on a lost socket.
 * Never checks a speed.
 */
class Http2WebSocketScenarioTest {
  @TempDir
  Path results;

  /* A fresh server's first requests take seconds on a loaded machine (class loading, no JIT yet): the phases leave room. */
  private String run(String... args) {
    String[] common = {"--quick", "--warmup-ms", "4000", "--measure-ms", "2000", "--results", results.toString(),
        "--date", "smoke", "--heap", "256m", "--child-jvm-option", "-Dio.netty.leakDetectionLevel=paranoid"};
    String[] all = new String[args.length + common.length];
    System.arraycopy(args, 0, all, 0, args.length);
    System.arraycopy(common, 0, all, args.length, common.length);
    return LoadtestConsole.runPassing(all);
  }

  @Test
  @Timeout(value = 5, unit = TimeUnit.MINUTES)
  void h2Hello_quickRun_measuresHttpdAndNettyOverH2cAndTls() throws IOException {
    run("--scenario", "h2-hello", "--connections", "2");
    Path dir = results.resolve("smoke-h2-hello");
    String md = Files.readString(dir.resolve("report.md"));
    for (String v : Scenario.H2_VARIANTS) {
      assertThat(md).contains("| 2 | " + v + " | ");
    }
    assertThat(md).contains("| httpd fiber ÷ raw Netty HTTP/2, h2c, 100 streams per connection, requests/s, 2 conns | ≥ 0.9× | ")
        .contains("| httpd fiber ÷ raw Netty HTTP/2, h2 over TLS (ALPN), 100 streams per connection, requests/s, 2 conns"
            + " | ≥ 0.9× | ")
        .doesNotContain("not measured");
    String json = Files.readString(dir.resolve("results.json"));
    assertThat(json).contains("\"variant\": \"httpd-h2-tls\"").contains("\"serverCpuMicrosPerRequest\"")
        .doesNotContain("\"error\"");
    assertThat(Files.readString(dir.resolve("logs/server-httpd-h2-tls.log"))).doesNotContain("LEAK:");
  }

  @Test
  @Timeout(value = 5, unit = TimeUnit.MINUTES)
  void websocketEcho_quickRun_measuresFiberVirtualAndNetty() throws IOException {
    run("--scenario", "websocket-echo", "--connections", "50");
    Path dir = results.resolve("smoke-websocket-echo");
    String md = Files.readString(dir.resolve("report.md"));
    for (String v : Scenario.WEBSOCKET_VARIANTS) {
      assertThat(md).contains("| 50 | " + v + " | ");
    }
    assertThat(md).contains("| httpd WebSocket fiber ÷ raw Netty, echo messages/s, 50 sockets | ≥ 0.9× | ")
        .contains("| httpd WebSocket fiber ÷ virtual threads, echo messages/s, 50 sockets | ≥ 1.0× | ")
        .doesNotContain("not measured");
    assertThat(Files.readString(dir.resolve("results.json"))).contains("\"variant\": \"fiber\"")
        .doesNotContain("\"error\"");
    assertThat(Files.readString(dir.resolve("logs/server-fiber.log"))).doesNotContain("LEAK:");
  }

  @Test
  void parseEcho_aLostSocketOrAnErrorFailsTheCell() {
    Cell good = new Cell("websocket-echo", "fiber", 100, 1);
    Http2WebSocketScenario.parseEcho("sockets 100 messages/s 5000 errors 0", good);
    assertThat(good.error).isNull();
    assertThat(good.rps()).isEqualTo(5000.0);
    Cell lost = new Cell("websocket-echo", "fiber", 100, 1);
    Http2WebSocketScenario.parseEcho("sockets 98 messages/s 5000 errors 2", lost);
    assertThat(lost.error).contains("98 of 100 sockets open, 2 errors");
    Cell silent = new Cell("websocket-echo", "netty", 100, 1);
    Http2WebSocketScenario.parseEcho("sockets 100 messages/s 0 errors 0", silent);
    assertThat(silent.error).contains("0 messages/s");
    Cell garbled = new Cell("websocket-echo", "netty", 100, 1);
    Http2WebSocketScenario.parseEcho("Exception in thread main", garbled);
    assertThat(garbled.error).contains("Exception");
  }

  @Test
  void reference_isRawNettyOfTheSameProtocol() {
    assertThat(Http2WebSocketScenario.reference("httpd-h2")).isEqualTo("netty-h2");
    assertThat(Http2WebSocketScenario.reference("httpd-h2-tls")).isEqualTo("netty-h2-tls");
    assertThat(Http2WebSocketScenario.reference("netty-h2-tls")).isEqualTo("netty-h2-tls");
    assertThat(Http2WebSocketScenario.reference("fiber")).isEqualTo("netty");
    assertThat(Http2WebSocketScenario.reference("virtual")).isEqualTo("netty");
  }
}
