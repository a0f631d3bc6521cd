package io.krill.loadtest.harness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The hello-wrk measurement's parts: wrk's output read into a cell (which errors fail it), the
 * probe's response size, the /proc counters it reads, its report rows and goals.
 */
class PinnedWrkScenarioTest {
  @TempDir
  Path results;

  /** What wrk 4.1 (Debian) printed for a 10,000-connection run stopped by SIGINT, as captured. */
  static final List<String> CAPTURED = List.of(
      "Running 2m test @ http://127.0.0.1:45803/hello",
      "  1 threads and 10000 connections",
      "  Thread Stats   Avg      Stdev     Max   +/- Stdev",
      "    Latency   383.83ms    1.27s    9.97s    93.36%",
      "    Req/Sec    96.03k    29.41k  133.38k    82.32%",
      "  Latency Distribution",
      "     50%   51.38ms",
      "     75%   73.80ms",
      "     90%  249.04ms",
      "     99%    7.25s ",
      "  1838115 requests in 20.02s, 201.59MB read",
      "  Socket errors: connect 0, read 12, write 0, timeout 2223",
      "Requests/sec:  91813.55",
      "Transfer/sec:     10.07MB");

  private static final String RESPONSE = "HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ncontent-length: 13\r\n"
      + "date: Thu, 26 Nov 2026 11:00:00 GMT\r\n\r\nHello, World!";

  private static List<String> with(String line, int index) {
    List<String> l = new ArrayList<>(CAPTURED);
    l.set(index, line);
    return l;
  }

  @Test
  void parseWrk_captured_readsFiguresAndKeepsReadAndTimeoutErrorsWithoutFailing() {
    Cell c = new Cell("hello-wrk", "netty", 10_000, 1);
    PinnedWrkScenario.parseWrk(CAPTURED, c);
    assertThat(c.error).isNull();
    assertThat(c.wrkRps).isEqualTo(91813.55);
    assertThat(c.wrkP50Micros).isEqualTo(51380.0);
    assertThat(c.wrkP99Micros).isEqualTo(7_250_000.0);
    assertThat(c.wrkSocketErrors).isEqualTo("read 12, write 0, timeout 2223");
  }

  @Test
  void parseWrk_failedConnectNon2xxOrNoRate_failsTheCell() {
    Cell connect = new Cell("hello-wrk", "netty", 10_000, 1);
    PinnedWrkScenario.parseWrk(with("  Socket errors: connect 3, read 0, write 0, timeout 0", 11), connect);
    assertThat(connect.error).isEqualTo("wrk: Socket errors: connect 3, read 0, write 0, timeout 0");
    Cell non2xx = new Cell("hello-wrk", "netty", 10_000, 1);
    PinnedWrkScenario.parseWrk(with("  Non-2xx or 3xx responses: 7", 11), non2xx);
    assertThat(non2xx.error).isEqualTo("wrk: Non-2xx or 3xx responses: 7");
    Cell none = new Cell("hello-wrk", "netty", 10_000, 1);
    PinnedWrkScenario.parseWrk(List.of("unable to connect to 127.0.0.1:1 Connection refused"), none);
    assertThat(none.error).startsWith("wrk printed no Requests/sec: unable to connect");
  }

  @Test
  void responseBytes_headAndBody_countsBoth_andRefusesWhatIsNotAWhole200() throws IOException {
    byte[] r = RESPONSE.getBytes(StandardCharsets.US_ASCII);
    assertThat(PinnedWrkScenario.responseBytes(new ByteArrayInputStream(r))).isEqualTo(r.length);
    assertThatThrownBy(() -> PinnedWrkScenario.responseBytes(stream(RESPONSE.replace("200 OK", "404 Not Found"))))
        .isInstanceOf(IOException.class).hasMessage("probe: not a 200: HTTP/1.1 404 Not Found");
    assertThatThrownBy(() -> PinnedWrkScenario.responseBytes(stream(RESPONSE.replace("content-length: 13\r\n", ""))))
        .isInstanceOf(IOException.class).hasMessageStartingWith("probe: no Content-Length");
    assertThatThrownBy(() -> PinnedWrkScenario.responseBytes(stream(RESPONSE.substring(0, RESPONSE.length() - 3))))
        .isInstanceOf(IOException.class).hasMessage("probe: the body ended at 10 of 13 bytes");
    assertThatThrownBy(() -> PinnedWrkScenario.responseBytes(stream("HTTP/1.1 200 OK\r\n")))
        .isInstanceOf(IOException.class).hasMessageStartingWith("probe: the connection closed within the head");
  }

  private static InputStream stream(String s) {
    return new ByteArrayInputStream(s.getBytes(StandardCharsets.US_ASCII));
  }

  @Test
  void probe_realSocket_sendsOneGetHelloAndMeasuresTheAnswer() throws Exception {
    try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      CompletableFuture<String> request = CompletableFuture.supplyAsync(() -> {
        try (Socket s = server.accept()) {
          InputStream in = s.getInputStream();
          StringBuilder head = new StringBuilder();
          while (!head.toString().endsWith("\r\n\r\n")) {
            head.append((char) in.read());
          }
          OutputStream out = s.getOutputStream();
          out.write(RESPONSE.getBytes(StandardCharsets.US_ASCII));
          out.flush();
          return head.toString();
        } catch (IOException e) {
          throw new java.io.UncheckedIOException(e);
        }
      });
      assertThat(PinnedWrkScenario.probe(server.getLocalPort())).isEqualTo(RESPONSE.length());
      assertThat(request.get(30, TimeUnit.SECONDS))
          .isEqualTo("GET /hello HTTP/1.1\r\nHost: 127.0.0.1:" + server.getLocalPort() + "\r\n\r\n");
    }
  }

  @Test
  @org.junit.jupiter.api.Timeout(value = 5, unit = TimeUnit.MINUTES)
  void loadtest_quickHelloWrk_realServersAndWrk_everyConnectionOpenAndCountedInTheWindow() throws Exception {
    io.krill.testkit.TestTools.require("wrk");
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    int status = LoadtestConsole.run(out, "--scenario", "hello-wrk", "--quick", "--connections", "20", "--warmup-ms",
        "500", "--measure-ms", "1000", "--results", results.toString(), "--date", "smoke", "--heap", "256m",
        "--child-jvm-option", "-Dio.netty.leakDetectionLevel=paranoid");
    String console = out.toString(StandardCharsets.UTF_8);
    assertThat(status).as(console).isZero();
    String json = Files.readString(results.resolve("smoke-hello-wrk/results.json"));
    assertThat(json).as(console).doesNotContain("\"error\"").contains("\"variant\": \"netty\"")
        .contains("\"variant\": \"httpd-fiber\"").contains("\"openConnections\": 20");
    com.fasterxml.jackson.databind.JsonNode cells = Json.MAPPER.readTree(json).get("cells");
    for (com.fasterxml.jackson.databind.JsonNode c : cells) {
      // Requests counted from the bytes the server wrote, and its CPU per request, in the window.
      assertThat(c.get("windowRps").asDouble()).as(c.toString()).isPositive();
      assertThat(c.get("serverCpuMicrosPerRequest").asDouble()).as(c.toString()).isPositive();
      assertThat(c.get("wrkRps").asDouble()).as(c.toString()).isPositive();
      // The time to open every connection was seen, and is not past the warm-up's end.
      assertThat(c.has("leadInSeconds")).as(c.toString()).isTrue();
      assertThat(c.get("leadInSeconds").asDouble()).as(c.toString()).isBetween(0.0, c.get("warmSeconds").asDouble() + 60);
    }
    assertThat(Files.readString(results.resolve("smoke-hello-wrk/report.md")))
        .contains("httpd fiber ÷ raw Netty, requests/s, wrk on open connections, one CPU each, 20 conns");
  }

  @Test
  void compilerNanos_thisJvm_countsItsCompilerThreadsOnly() {
    long pid = ProcessHandle.current().pid();
    long jit = PinnedWrkScenario.compilerNanos(pid);
    // This JVM has compiled something by now; its compilers' time is a part of its whole CPU time.
    assertThat(jit).isGreaterThanOrEqualTo(0).isLessThanOrEqualTo(io.krill.loadtest.internal.ChildProcess.cpuNanos(pid));
    assertThat(PinnedWrkScenario.compilerNanos(Long.MAX_VALUE)).isEqualTo(-1);
  }

  @Test
  void procCounters_thisProcess_writtenBytesAndDescriptorsGrowWithWhatItDoes() throws Exception {
    long pid = ProcessHandle.current().pid();
    long written = PinnedWrkScenario.written(pid);
    Files.write(results.resolve("out.bin"), new byte[100_000]);
    assertThat(PinnedWrkScenario.written(pid) - written).isGreaterThanOrEqualTo(100_000);
    int before = PinnedWrkScenario.descriptors(pid);
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      assertThat(PinnedWrkScenario.descriptors(pid)).isGreaterThan(before);
    }
    assertThatThrownBy(() -> PinnedWrkScenario.written(Long.MAX_VALUE)).isInstanceOf(IOException.class);
  }

  private static Cell measured(String variant, int round, double windowRps, double cpuMicros) {
    Cell c = new Cell("hello-wrk", variant, 10_000, round);
    PinnedWrkScenario.parseWrk(CAPTURED, c);
    c.windowRps = windowRps;
    c.serverCpuMicrosPerRequest = cpuMicros;
    c.serverCpuPercent = 95;
    c.wrkCpuPercent = 90;
    c.openConnections = 10_000;
    c.leadInSeconds = 20;
    c.warmSeconds = 9;
    c.jitCpuPercent = 0.5;
    return c;
  }

  private RunSettings settings() {
    return ReportTest.settings(results, "krill loadtest --scenario hello-wrk").forScenario(Scenario.HELLO_WRK);
  }

  @Test
  void report_windowRateIsTheHeadline_ratiosPerRoundOnRateAndCpu_goalsAtNinetyFivePercent() throws Exception {
    List<Cell> cells = List.of(measured("netty", 1, 100_000, 10), measured("httpd-fiber", 1, 96_000, 10.4),
        measured("netty", 2, 90_000, 11), measured("httpd-fiber", 2, 81_000, 12));
    Report report = new Report(settings(), Scenario.HELLO_WRK, cells, "before", "after");
    String table = report.write();
    assertThat(table).contains("| 10,000 | httpd-fiber | 88,500 (81,000–96,000) | 0.930× (0.900×–0.960×) | 91,814 |"
        + " p50 51,380; p99 7,250,000 | 10,000 (20.0; 9.00) | 95.0 (JIT 0.50) | 90.0 | 11.2 (10.4–12.0) | 0.939× (0.917×–0.962×) |"
        + " 0; read 12, write 0, timeout 2223 / read 12, write 0, timeout 2223 |");
    assertThat(report.goals).extracting(Report.Goal::verdict).containsExactly("missed", "missed");
    assertThat(report.goals.get(0).goal()).isEqualTo(
        "httpd fiber ÷ raw Netty, requests/s, wrk on open connections, one CPU each, 10,000 conns");
    String md = Files.readString(results.resolve("test-hello-wrk/report.md"));
    assertThat(md).contains("the window of 15 s").contains("requests = bytes the server wrote (`wchar`)")
        .doesNotContain("NaN");
    assertThat(Files.readString(results.resolve("test-hello-wrk/results.json"))).contains("\"windowRps\": 96000.0")
        .contains("\"openConnections\": 10000").contains("\"wrkSocketErrors\": \"read 12, write 0, timeout 2223\"");
  }

  @Test
  void forScenario_helloWrk_measuresFifteenSecondsUnlessTold() {
    RunSettings s = new RunSettings();
    assertThat(s.forScenario(Scenario.HELLO_WRK).measure).isEqualTo(PinnedWrkScenario.DEFAULT_MEASURE);
    assertThat(s.forScenario(Scenario.HELLO).measure).isEqualTo(RunSettings.DEFAULT_MEASURE);
    s.quick();
    assertThat(s.forScenario(Scenario.HELLO_WRK).measure).isEqualTo(PinnedWrkScenario.QUICK_MEASURE);
    s.measureOption = java.time.Duration.ofSeconds(20);
    assertThat(s.forScenario(Scenario.HELLO_WRK).measure).isEqualTo(java.time.Duration.ofSeconds(20));
  }
}
