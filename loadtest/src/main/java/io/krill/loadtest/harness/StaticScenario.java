package io.krill.loadtest.harness;

import io.krill.loadtest.internal.ChildProcess;
import io.krill.loadtest.internal.Reports;
import io.krill.loadtest.servers.ServerMain;
import io.krill.testkit.TestTools;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.TimeUnit;

/**
 * Static files, keep-alive: {@code krill serve} (its static-file server with its default settings,
 * on one carrier) against nginx (one worker, {@code sendfile on}, no access log, its config
 * generated into the run's directory), both serving the same directory on a loopback port: a
 * {@value #SMALL_BYTES}-byte text file and a 1 MiB file. HTTP/1.1 is driven by wrk (one thread),
 * HTTP/2 by h2load (h2c with prior knowledge, {@value #H2_STREAMS} streams per connection, one
 * thread). Each cell is a fresh server; within a round nginx and krill alternate, and the order
 * flips every round (A B, B A, ...). Before it is measured, every HTTP/1.1 cell fetches the file
 * once and compares the bytes; a non-2xx answer or a socket error in the measured run fails the
 * cell. The tools come from {@code bin/install-test-tools.sh} ({@link TestTools}).
 */
final class StaticScenario {
  /** The reference server's variant prefix. */
  static final String NGINX = "nginx";
  static final String KRILL = "krill";
  /** The small file's size: the 12-byte file. */
  static final int SMALL_BYTES = 12;
  /** The large file's size. */
  static final int LARGE_BYTES = 1 << 20;
  /** HTTP/2 streams per connection in the h2load runs. */
  static final int H2_STREAMS = 10;
  /** What the small file holds. */
  static final byte[] SMALL = "Hello world\n".getBytes(StandardCharsets.US_ASCII);
  /** File per size label. */
  static final List<String> FILES = List.of("12B", "1MiB");
  /** Variants in interleaving order: per protocol and file, nginx then krill (flipped every other round). */
  static final List<String> VARIANTS = variants();

  private final RunSettings settings;
  private final Path logs;
  /** The run: its rounds, child JVM command line and server start. */
  private final LoadtestRun run;

  StaticScenario(RunSettings settings, Path logs, LoadtestRun run) {
    this.settings = settings;
    this.logs = logs;
    this.run = run;
  }

  private static List<String> variants() {
    List<String> v = new ArrayList<>();
    for (String proto : List.of("", "h2-")) {
      for (String f : FILES) {
        v.add(NGINX + "-" + proto + f);
        v.add(KRILL + "-" + proto + f);
      }
    }
    return List.copyOf(v);
  }

  /** @return the variant of the other server for the same protocol and file */
  static String reference(String variant) {
    return variant.startsWith(KRILL) ? NGINX + variant.substring(KRILL.length()) : variant;
  }

  static boolean http2(String variant) {
    return variant.contains("-h2-");
  }

  static String path(String variant) {
    return variant.endsWith("-12B") ? "/small.txt" : "/large.bin";
  }

  /** @return the cells, in the order they ran */
  List<Cell> run(Scenario s) throws IOException, InterruptedException {
    Files.createDirectories(logs);
    // The served files and nginx's directories live outside the report (a 1 MiB file is no result).
    Path work = Files.createTempDirectory("krill-static-");
    try {
      return run(s, work);
    } finally {
      deleteTree(work);
    }
  }

  private static void deleteTree(Path dir) throws IOException {
    try (java.util.stream.Stream<Path> paths = Files.walk(dir)) {
      for (Path p : (Iterable<Path>) paths.sorted(java.util.Comparator.reverseOrder())::iterator) {
        Files.deleteIfExists(p);
      }
    }
  }

  private List<Cell> run(Scenario s, Path work) throws IOException, InterruptedException {
    Path site = work.resolve("site");
    writeSite(site);
    return run.cells(s, c -> {
      try {
        runCell(c, site, work);
      } catch (IOException | RuntimeException e) {
        c.fail(e);
      }
    });
  }

  /** @return a measured cell's console line */
  static String summary(Cell c) {
    return String.format(Locale.ROOT, "%.0f rps %s server cpu %s%%", c.wrkRps, http2(c.variant) ? H2load.latency(c)
        : "p50 " + Reports.fmt(c.wrkP50Micros) + " us p99 " + Reports.fmt(c.wrkP99Micros) + " us",
        Reports.fmt(c.serverCpuPercent));
  }

  /** Writes the served directory: the small text file and a 1 MiB file of fixed pseudo-random bytes. */
  static void writeSite(Path site) throws IOException {
    Files.createDirectories(site);
    Files.write(site.resolve("small.txt"), SMALL);
    byte[] large = new byte[LARGE_BYTES];
    new Random(17).nextBytes(large);
    Files.write(site.resolve("large.bin"), large);
  }

  private void runCell(Cell c, Path site, Path work) throws IOException, InterruptedException {
    boolean h2 = http2(c.variant);
    ChildProcess server = c.variant.startsWith(NGINX) ? startNginx(c.variant, site, work, h2)
        : startKrill(c.variant, site, h2);
    try {
      String url = "http://127.0.0.1:" + server.port + path(c.variant);
      if (!h2) {
        check(url, Files.readAllBytes(site.resolve(path(c.variant).substring(1))));
      }
      long warm = Math.max(1, settings.warmup.toSeconds());
      long measure = Math.max(1, settings.measure.toSeconds());
      if (!h2) {
        wrk(url, c.connections, warm); // warm-up: the JIT's time on the krill side; figures dropped
      }
      long cpu0 = server.cpuNanos();
      long t0 = System.nanoTime();
      List<String> lines = h2 ? h2load(url, c.connections, warm, measure) : wrk(url, c.connections, measure);
      long wall = System.nanoTime() - t0;
      long cpu = server.cpuNanos() - cpu0;
      if (h2) {
        // h2load's own warm-up is inside the wall time; its CPU share is close enough for a column.
        H2load.parse(lines, c);
      } else {
        parseWrk(lines, c);
      }
      if (cpu0 >= 0) {
        c.serverCpuPercent = 100.0 * cpu / wall;
      }
    } finally {
      server.stop(2);
    }
  }

  private ChildProcess startKrill(String variant, Path site, boolean h2) throws IOException, InterruptedException {
    List<String> cmd = run.jvm();
    // As bin/krill serve runs: the carriers' default transport (epoll where it loads) and fiber tracking on.
    cmd.removeIf(a -> a.startsWith("-Dkrill.fibers.io=") || a.startsWith("-Dkrill.fibers.track="));
    cmd.add(cmd.indexOf("-cp"), "-Dkrill.fibers.track=true");
    cmd.add(cmd.indexOf("-cp"), "-D" + ServerMain.ROOT_PROPERTY + "=" + site.toAbsolutePath());
    cmd.addAll(List.of(ServerMain.class.getName(), h2 ? "krill-static-h2" : "krill-static",
        String.valueOf(RunSettings.SERVER_MAX_SECONDS)));
    ChildProcess c = run.startServer(variant, cmd);
    if (c == null) {
      throw new IOException("server " + variant + " skipped itself (log: " + logs.resolve("server-" + variant + ".log")
          + ")");
    }
    return c;
  }

  /** nginx in the foreground, one process (no master), one worker's event loop; config written to a fresh directory. */
  private ChildProcess startNginx(String variant, Path site, Path work, boolean h2)
      throws IOException, InterruptedException {
    Path nginx = TestTools.require("nginx");
    Path prefix = Files.createTempDirectory(work, "nginx-");
    int port;
    try (ServerSocket probe = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      port = probe.getLocalPort();
    }
    Path conf = prefix.resolve("nginx.conf");
    Files.writeString(conf, nginxConfig(prefix, site, port, h2), StandardCharsets.UTF_8);
    ChildProcess c = new ChildProcess("server " + variant, List.of(nginx.toString(), "-p", prefix.toString(), "-c",
        conf.toString()), logs.resolve("server-" + variant + ".log"), null);
    c.port = port;
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(LoadtestRun.SERVER_START_SECONDS);
    for (;;) {
      try (Socket s = new Socket()) {
        s.connect(new InetSocketAddress("127.0.0.1", port), 1000);
        return c;
      } catch (IOException e) {
        if (!c.isAlive() || System.nanoTime() - deadline > 0) {
          c.stop(1);
          throw new IOException("nginx did not listen on port " + port + " (log: " + logs.resolve("server-" + variant
              + ".log") + ")");
        }
        Thread.sleep(50);
      }
    }
  }

  /** @return an nginx config: one process, one worker, sendfile, keep-alive without a request cap, no access log */
  static String nginxConfig(Path prefix, Path site, int port, boolean h2) {
    String p = prefix.toAbsolutePath().toString();
    return "daemon off;\nmaster_process off;\nworker_processes 1;\nerror_log stderr warn;\npid " + p
        + "/nginx.pid;\nevents { worker_connections 20000; }\nhttp {\n  access_log off;\n  sendfile on;\n"
        + "  tcp_nopush on;\n  keepalive_timeout 65s;\n  keepalive_requests 100000000;\n"
        + "  types { text/plain txt; application/octet-stream bin; }\n  default_type application/octet-stream;\n"
        + "  client_body_temp_path " + p + "/body;\n  proxy_temp_path " + p + "/proxy;\n  fastcgi_temp_path " + p
        + "/fastcgi;\n  uwsgi_temp_path " + p + "/uwsgi;\n  scgi_temp_path " + p + "/scgi;\n  server {\n    listen 127.0.0.1:"
        + port + (h2 ? " http2" : "") + ";\n    root " + site.toAbsolutePath() + ";\n  }\n}\n";
  }

  /** One GET over HTTP/1.1: 200 and exactly the file's bytes, else the cell fails. */
  private static void check(String url, byte[] expected) throws IOException, InterruptedException {
    HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(10))
        .build();
    HttpResponse<byte[]> r = client.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30)).build(),
        HttpResponse.BodyHandlers.ofByteArray());
    if (r.statusCode() != 200 || !Arrays.equals(r.body(), expected)) {
      throw new IOException("GET " + url + ": status " + r.statusCode() + ", " + r.body().length + " bytes (expected: 200"
          + " and the file's " + expected.length + " bytes)");
    }
  }

  private static List<String> wrk(String url, int connections, long seconds) throws IOException, InterruptedException {
    Path wrk = TestTools.require("wrk");
    return Reports.exec(Wrk.command(wrk.toString(), 1, connections, seconds, url), false);
  }

  private static List<String> h2load(String url, int connections, long warm, long seconds)
      throws IOException, InterruptedException {
    return Reports.exec(H2load.command(url, Math.max(1, connections / H2_STREAMS), H2_STREAMS, warm, seconds), false);
  }

  /** wrk's requests/s and percentiles; a non-2xx answer or a socket error (other than none) fails the cell. */
  static void parseWrk(List<String> lines, Cell c) {
    Wrk.parseChecked(lines, c, true);
  }
}
