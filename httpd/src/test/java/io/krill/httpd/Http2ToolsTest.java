package io.krill.httpd;

import static org.assertj.core.api.Assertions.assertThat;

import io.krill.httpd.http2.Http2Options;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** HTTP/2 driven by independent clients: curl (libcurl's nghttp2), nghttp and h2load. */
@Timeout(180)
class Http2ToolsTest {
  /** A tool's run: exit code and what it printed. */
  record Run(int exit, String out) {}

  static Run run(String... command) throws IOException, InterruptedException {
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    p.getOutputStream().close();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Thread reader = new Thread(() -> {
      try (InputStream in = p.getInputStream()) {
        in.transferTo(out);
      } catch (IOException e) {
        // the process ended
      }
    });
    reader.start();
    if (!p.waitFor(120, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError(String.join(" ", command) + " did not end within 120 s");
    }
    reader.join(5000);
    return new Run(p.exitValue(), out.toString(StandardCharsets.UTF_8));
  }

  /*
   * The executable of a Debian test tool; the project's installer (bin/install-test-tools.sh)
   * provides the missing ones. curl is part of the base system.
   */
  /* nghttp and h2load come from bin/install-test-tools.sh (run once per JVM); curl is part of the base system. */
  static String tool(String name) {
    if (!name.equals("curl")) {
      return io.krill.testkit.TestTools.require(name).toString();
    }
    for (String dir : System.getenv("PATH").split(java.io.File.pathSeparator)) {
      Path p = Paths.get(dir, name);
      if (Files.isExecutable(p)) {
        return p.toString();
      }
    }
    throw new AssertionError(name + " is missing from the PATH");
  }

  static HttpServer.Builder server() {
    return Http2Test.h2().tls(null);
  }

  @Test
  void curl_priorKnowledgeUpgradeAndTls_http2AndTheSameBodies(@TempDir Path dir) throws Exception {
    Http2Test.certificate();
    Path ca = dir.resolve("ca.pem");
    Files.writeString(ca, Http2Test.cert.getCertificatePEM());
    byte[] upload = new byte[500_000];
    new Random(3).nextBytes(upload);
    Path body = dir.resolve("upload.bin");
    Files.write(body, upload);
    Path echoed = dir.resolve("echoed.bin");
    String curl = tool("curl");
    try (HttpServer plain = server().build().start(); HttpServer secure = server().tls(Http2Test.tls).build().start()) {
      String h2c = "http://127.0.0.1:" + plain.port();
      Run prior = run(curl, "-sS", "--http2-prior-knowledge", "-w", " %{http_version}", h2c + "/protocol");
      assertThat(prior.out()).isEqualTo("HTTP/2.0 secure=false 2");
      Run upgrade = run(curl, "-sS", "--http2", "-w", " %{http_version}", h2c + "/protocol");
      assertThat(upgrade.out()).isEqualTo("HTTP/2.0 secure=false 2");
      Run tls = run(curl, "-sS", "--http2", "--cacert", ca.toString(), "-w", " %{http_version}",
          "https://localhost:" + secure.port() + "/protocol", "--resolve", "localhost:" + secure.port() + ":127.0.0.1");
      assertThat(tls.out()).isEqualTo("HTTP/2.0 secure=true 2");
      Run echo = run(curl, "-sS", "--http2-prior-knowledge", "--data-binary", "@" + body, "-o", echoed.toString(),
          h2c + "/echo");
      assertThat(echo.exit()).as(echo.out()).isZero();
      assertThat(Files.readAllBytes(echoed)).isEqualTo(upload);
      Run http11 = run(curl, "-sS", "--http1.1", "-w", " %{http_version}", h2c + "/protocol");
      assertThat(http11.out()).isEqualTo("HTTP/1.1 secure=false 1.1");
    }
  }

  @Test
  void nghttp_priorKnowledgeUpgradeAndTls_served(@TempDir Path dir) throws Exception {
    Http2Test.certificate();
    String nghttp = tool("nghttp");
    try (HttpServer plain = server().build().start(); HttpServer secure = server().tls(Http2Test.tls).build().start()) {
      String h2c = "http://127.0.0.1:" + plain.port();
      Run prior = run(nghttp, h2c + "/protocol");
      assertThat(prior.out()).as(prior.out()).isEqualTo("HTTP/2.0 secure=false");
      Run upgrade = run(nghttp, "-u", "-v", h2c + "/protocol");
      assertThat(upgrade.out()).contains("HTTP Upgrade success").contains("HTTP/2.0 secure=false");
      Run tls = run(nghttp, "-v", "https://127.0.0.1:" + secure.port() + "/protocol");
      assertThat(tls.out()).contains("The negotiated protocol: h2").contains("HTTP/2.0 secure=true");
      Run several = run(nghttp, "-m", "20", h2c + "/hello"); // 20 concurrent streams
      assertThat(several.exit()).as(several.out()).isZero();
      assertThat(several.out()).isEqualTo("hello".repeat(20));
    }
  }

  @Test
  void h2load_hundredStreamsPerConnection_allSucceed() throws Exception {
    String h2load = tool("h2load");
    try (HttpServer server = server().http2(Http2Options.defaults()).build().start()) {
      List<String> cmd = new ArrayList<>(List.of(h2load, "-n", "4000", "-c", "4", "-m", "100",
          "http://127.0.0.1:" + server.port() + "/hello"));
      Run r = run(cmd.toArray(new String[0]));
      assertThat(r.out()).as(r.out()).contains("4000 succeeded, 0 failed, 0 errored");
      assertThat(server.stats().responses(2)).isEqualTo(4000);
    }
  }
}
