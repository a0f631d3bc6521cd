package io.krill.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.krill.httpd.HttpServer;
import io.netty.pkitesting.CertificateBuilder;
import io.netty.pkitesting.X509Bundle;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

@Timeout(120)
class ServeCommandTest {
  @TempDir
  Path dir;

  /** Runs {@code krill <args>} with the given environment; returns status, stdout, stderr. */
  private static String[] run(Map<String, String> env, String... args) {
    return Console.capture(() -> {
      CommandLine cl = Krill.commandLine();
      ((ServeCommand) cl.getSubcommands().get("serve").getCommand()).environment = env;
      return cl.execute(args);
    });
  }

  /** A serve command parsed from {@code args}, with an empty environment, not yet started. */
  private static ServeCommand parsed(String... args) {
    CommandLine cl = Krill.commandLine();
    ServeCommand cmd = (ServeCommand) cl.getSubcommands().get("serve").getCommand();
    cmd.environment = Map.of();
    cmd.out = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
    String[] all = new String[args.length + 1];
    all[0] = "serve";
    System.arraycopy(args, 0, all, 1, args.length);
    cl.parseArgs(all);
    return cmd;
  }

  @Test
  void help_listsEverySettingWithDefault() {
    String[] r = run(Map.of(), "serve", "--help");
    assertThat(r[0]).isEqualTo("0");
    for (var s : ServeSettings.SCHEMA.settings()) {
      assertThat(r[1]).containsPattern("(?m)^  " + s.key().replace(".", "\\.") + " +.*  "
          + java.util.regex.Pattern.quote(s.defaultValue().map(v -> format(s, v)).orElse("(none)")) + " ");
    }
    assertThat(r[1]).contains("--config=FILE").contains("--set=KEY=VALUE")
        .contains("httpd.limits.max-header-bytes        bytes, 1B..1GiB")
        .contains("KRILL_HTTPD_PORT");
  }

  @Test
  void docsFlagsServe_tableRowPerSetting() {
    String[] r = run(Map.of(), "docs", "--flags", "serve");
    assertThat(r[0]).isEqualTo("0");
    assertThat(r[1].lines()).hasSize(ServeSettings.SCHEMA.settings().size() + 2)
        .contains("| `httpd.port` | `KRILL_HTTPD_PORT` | int, 0..65535 | `8080` | TCP port to listen on; 0 picks a free one |");
  }

  @SuppressWarnings("unchecked")
  private static <T> String format(io.krill.config.Setting<T> s, Object v) {
    return s.format((T) v);
  }

  @Test
  void badValueInFile_oneLineNamingFileAndLine_status2() throws Exception {
    Path conf = dir.resolve("krill.conf");
    Files.writeString(conf, "httpd {\n  limits.max-header-count = 0\n}\n");
    String[] r = run(Map.of(), "serve", "--config", conf.toString());
    assertThat(r[0]).isEqualTo("2");
    assertThat(r[2]).isEqualTo("krill serve: httpd.limits.max-header-count: 0 (expected: >= 1) from file "
        + conf + " line 2 (see krill serve --help)" + System.lineSeparator());
  }

  @Test
  void badValueInEnvironment_oneLineNamingVariable_status2() {
    String[] r = run(Map.of("KRILL_HTTPD_TIMEOUTS_IDLE", "forever"), "serve", "--root", dir.toString());
    assertThat(r[0]).isEqualTo("2");
    assertThat(r[2].trim()).isEqualTo("krill serve: httpd.timeouts.idle: forever (expected: a duration such as 30s"
        + " or 500ms (units: ns, us, ms, s, m, h, d)) from environment KRILL_HTTPD_TIMEOUTS_IDLE (see krill serve --help)");
  }

  @Test
  void badValueFromFlags_oneLineEachNamingTheFlag_status2() {
    String[] r = run(Map.of(), "serve", "--port", "70000", "--set", "httpd.limits.max-body-bytes=lots",
        "--root", dir.resolve("absent").toString(), "--mode", "green");
    assertThat(r[0]).isEqualTo("2");
    assertThat(r[2].lines()).containsExactly(
        "krill serve: --port: 70000 (expected: 0..65535) (see krill serve --help)",
        "krill serve: --mode: green (expected: one of fiber, virtual, platform) (see krill serve --help)",
        "krill serve: httpd.limits.max-body-bytes: lots (expected: a byte size such as 8k or 10MiB (k = 1024,"
            + " kB = 1000)) from flag --set (see krill serve --help)",
        "krill serve: --root: " + dir.resolve("absent") + " (expected: an existing directory) (see krill serve --help)");
  }

  @Test
  void unknownSetKeyAndMalformedFile_reported_status2() throws Exception {
    String[] r = run(Map.of(), "serve", "--set", "httpd.prot=80");
    assertThat(r[0]).isEqualTo("2");
    assertThat(r[2].trim()).isEqualTo("krill serve: httpd.prot: 80 (unknown key; did you mean httpd.port?) from flag --set (see krill serve --help)");
    Path conf = dir.resolve("bad.conf");
    Files.writeString(conf, "httpd {\n  port = 8080\n");
    String[] m = run(Map.of(), "serve", "--config", conf.toString());
    assertThat(m[0]).isEqualTo("2");
    assertThat(m[2]).startsWith("krill serve: file " + conf + " line 3: malformed HOCON: ");
  }

  @Test
  void tlsHalfConfiguredOrBadKey_status2() throws Exception {
    Path cert = dir.resolve("cert.pem");
    Files.writeString(cert, "not a certificate\n");
    String[] r = run(Map.of(), "serve", "--tls-cert", cert.toString(), "--root", dir.toString());
    assertThat(r[0]).isEqualTo("2");
    assertThat(r[2].lines()).containsExactly(
        "krill serve: --tls-cert: " + cert + " (expected: a PEM X.509 certificate file) (see krill serve --help)");
    X509Bundle bundle = new CertificateBuilder().subject("CN=localhost").setIsCertificateAuthority(true).buildSelfSigned();
    Files.writeString(cert, pem("CERTIFICATE", bundle.getCertificate().getEncoded()));
    String[] half = run(Map.of(), "serve", "--tls-cert", cert.toString(), "--root", dir.toString());
    assertThat(half[2].trim()).isEqualTo(
        "krill serve: httpd.tls.key-file: (none) (expected: set together with httpd.tls.cert-file) from default (see krill serve --help)");
    Path key = dir.resolve("key.pem");
    Files.writeString(key, "-----BEGIN RSA PRIVATE KEY-----\nAAAA\n-----END RSA PRIVATE KEY-----\n");
    String[] badKey = run(Map.of("KRILL_HTTPD_TLS_KEY_FILE", key.toString()), "serve", "--tls-cert", cert.toString());
    assertThat(badKey[2].trim()).isEqualTo("krill serve: httpd.tls.key-file: " + key
        + " (expected: a PEM PKCS#8 private key file) from environment KRILL_HTTPD_TLS_KEY_FILE (see krill serve --help)");
  }

  @Test
  void modeVirtual_refusedBeforeJdk21_status2() {
    if (Runtime.version().feature() < 21) {
      String[] r = run(Map.of(), "serve", "--mode", "virtual");
      assertThat(r[0]).isEqualTo("2");
      assertThat(r[2]).contains("--mode: virtual");
      // Rules run once every value passed its own checks: fix the port and the mode is reported.
      String[] v = run(Map.of(), "serve", "--mode", "virtual", "--root", "/nonexistent-krill-dir");
      assertThat(v[2]).doesNotContain("--mode");
      String[] w = run(Map.of(), "serve", "--mode", "virtual", "--set", "httpd.port=x");
      assertThat(w[2]).doesNotContain("--mode");
      ServeCommand cmd = parsed("--mode", "virtual");
      assertThatThrownBy(cmd::settings).hasMessage("httpd.execution-mode: virtual (expected: fiber or platform:"
          + " virtual threads need JDK 21 or newer, this is " + Runtime.version().feature() + ") from flag --mode");
    } else {
      assertThat(parsed("--mode", "virtual").settings().get(ServeSettings.MODE))
          .isEqualTo(io.krill.fibers.ExecutionMode.VIRTUAL);
    }
  }

  @Test
  void portInUse_oneLineNamingThePort_status1() throws Exception {
    try (java.net.ServerSocket taken = new java.net.ServerSocket(0, 1, java.net.InetAddress.getByName("127.0.0.1"))) {
      String[] r = run(Map.of(), "serve", "--root", ".", "--port", Integer.toString(taken.getLocalPort()));
      assertThat(r[0]).isEqualTo("1");
      assertThat(r[2]).isEqualTo("krill serve: port " + taken.getLocalPort() + " is in use" + System.lineSeparator());
    }
  }

  private static String pem(String type, byte[] der) {
    return "-----BEGIN " + type + "-----\n" + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der)
        + "\n-----END " + type + "-----\n";
  }

  @Test
  void serve_layeredSettings_servesTheRootOnLoopback() throws Exception {
    Files.writeString(dir.resolve("index.html"), "<p>krill</p>\n");
    Path conf = dir.resolve("krill.conf");
    Files.writeString(conf, "httpd.port = 1\nserve.root = \"" + dir.toString().replace("\\", "\\\\") + "\"\n");
    ServeCommand cmd = parsed("--config", conf.toString(), "--port", "0", "--set", "httpd.timeouts.idle=5s");
    var settings = cmd.settings();
    assertThat(settings.get(ServeSettings.PORT)).isZero();
    assertThat(settings.origin(ServeSettings.ROOT)).isEqualTo("file " + conf + " line 2");
    try (HttpServer server = cmd.start(settings)) {
      HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
      HttpResponse<String> r = client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/"))
          .build(), HttpResponse.BodyHandlers.ofString());
      assertThat(r.statusCode()).isEqualTo(200);
      assertThat(r.body()).isEqualTo("<p>krill</p>\n");
      HttpResponse<String> missing = client.send(HttpRequest.newBuilder(
          URI.create("http://127.0.0.1:" + server.port() + "/krill.conf.bak")).build(), HttpResponse.BodyHandlers.ofString());
      assertThat(missing.statusCode()).isEqualTo(404);
    }
  }

  @Test
  void serve_pemFiles_servesOverTls() throws Exception {
    Files.writeString(dir.resolve("a.txt"), "secure\n");
    X509Bundle bundle = new CertificateBuilder().subject("CN=localhost").addSanIpAddress("127.0.0.1")
        .addExtendedKeyUsageServerAuth().setIsCertificateAuthority(true).buildSelfSigned();
    Path cert = dir.resolve("cert.pem");
    Path key = dir.resolve("key.pem");
    Files.writeString(cert, pem("CERTIFICATE", bundle.getCertificate().getEncoded()));
    Files.writeString(key, pem("PRIVATE KEY", bundle.getKeyPair().getPrivate().getEncoded()));
    ServeCommand cmd = parsed("--root", dir.toString(), "--port", "0", "--tls-cert", cert.toString(),
        "--tls-key", key.toString());
    try (HttpServer server = cmd.start(cmd.settings())) {
      KeyStore trust = KeyStore.getInstance("PKCS12");
      trust.load(null, null);
      trust.setCertificateEntry("test", bundle.getCertificate());
      TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      tmf.init(trust);
      SSLContext ssl = SSLContext.getInstance("TLS");
      ssl.init(null, tmf.getTrustManagers(), null);
      assertThat(fetch(ssl, server.port(), "/a.txt")).isEqualTo("secure\n");
    }
  }

  @Test
  void serve_selfSigned_servesOverTls() throws Exception {
    Files.writeString(dir.resolve("a.txt"), "dev\n");
    ServeCommand cmd = parsed("--root", dir.toString(), "--port", "0", "--tls-self-signed");
    try (HttpServer server = cmd.start(cmd.settings())) {
      SSLContext ssl = SSLContext.getInstance("TLS");
      ssl.init(null, new TrustManager[] {new TrustAnything()}, null);
      assertThat(fetch(ssl, server.port(), "/a.txt")).isEqualTo("dev\n");
    }
  }

  @Test
  void serve_http2_h2ByAlpnAndH2cWithTheSameFiles() throws Exception {
    Files.writeString(dir.resolve("a.txt"), "two\n");
    ServeCommand tlsCmd = parsed("--root", dir.toString(), "--port", "0", "--tls-self-signed", "--http2",
        "--set", "httpd.http2.max-concurrent-streams=10");
    try (HttpServer server = tlsCmd.start(tlsCmd.settings())) {
      SSLContext ssl = SSLContext.getInstance("TLS");
      ssl.init(null, new TrustManager[] {new TrustAnything()}, null);
      HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).sslContext(ssl).build();
      HttpResponse<String> r = client.send(HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + server.port()
          + "/a.txt")).build(), HttpResponse.BodyHandlers.ofString());
      assertThat(r.version()).isEqualTo(HttpClient.Version.HTTP_2);
      assertThat(r.body()).isEqualTo("two\n");
    }
    ServeCommand plain = parsed("--root", dir.toString(), "--port", "0", "--http2");
    try (HttpServer server = plain.start(plain.settings())) {
      HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).build();
      HttpResponse<String> r = client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port()
          + "/a.txt")).build(), HttpResponse.BodyHandlers.ofString());
      assertThat(r.version()).as("h2c by Upgrade").isEqualTo(HttpClient.Version.HTTP_2);
      assertThat(r.body()).isEqualTo("two\n");
    }
  }

  @Test
  void http2BadLimit_oneLineNamingTheKey_status2() {
    String[] r = run(Map.of(), "serve", "--http2", "--set", "httpd.http2.max-frame-bytes=1k",
        "--set", "httpd.http2.reset-window=1500ms");
    assertThat(r[0]).isEqualTo("2");
    assertThat(r[2]).contains("httpd.http2.max-frame-bytes: 1k (expected: 16KiB..16777215B)")
        .contains("httpd.http2.reset-window: 1500ms (expected: ");
  }

  @Test
  void idleCollection_defaultOnForServe_zeroTurnsItOff_subSecondIsOneLine() {
    assertThat(parsed("--port", "0").settings().get(ServeSettings.IDLE_COLLECTION)).isEqualTo(Duration.ofSeconds(30));
    assertThat(parsed("--port", "0", "--set", "httpd.idle-collection=0").settings().get(ServeSettings.IDLE_COLLECTION))
        .isZero();
    String[] r = run(Map.of(), "serve", "--set", "httpd.idle-collection=500ms");
    assertThat(r[0]).isEqualTo("2");
    assertThat(r[2].trim()).isEqualTo("krill serve: httpd.idle-collection: 500ms (expected: 0 (off) or at least 1s)"
        + " from flag --set (see krill serve --help)");
  }

  private static String fetch(SSLContext ssl, int port, String path) throws Exception {
    HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).sslContext(ssl).build();
    return client.send(HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + port + path)).build(),
        HttpResponse.BodyHandlers.ofString()).body();
  }

  /** The self-signed certificate is made at start-up; a development client accepts it blindly. */
  private static final class TrustAnything implements X509TrustManager {
    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType) {}

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType) {}

    @Override
    public X509Certificate[] getAcceptedIssuers() {
      return new X509Certificate[0];
    }
  }
}
