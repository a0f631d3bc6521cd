package io.krill.loadtest.servers;

import io.krill.loadtest.internal.ServerArgs;
import io.krill.loadtest.launch.Mains;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * One HTTP server under test, alone in its JVM (the harness gives it a fixed heap).
 *
 * <p>usage: {@code ServerMain KIND [maxSeconds]} with KIND one of {@link #KINDS}. It listens on
 * 127.0.0.1 at a free port, prints {@code port N}, then reads commands from standard input:
 * {@code mem} prints {@code mem heap=B rss=B threads=N} (heap used after full GCs, resident
 * set size from /proc, live threads); end of input stops it. It halts after {@code maxSeconds}
 * (default {@value #DEFAULT_MAX_SECONDS}) whatever happens. A kind this JVM cannot run prints
 * one {@code skipped: ...} line and exits 0.
 */
public final class ServerMain {
  /**
   * Every kind: raw Netty, the classic thread-per-connection server, httpd's three modes, and
   * krill serve's static-file server on one carrier (HTTP/1.1, or with h2c too), which serves the
   * directory named by the system property {@value #ROOT_PROPERTY}, and the HTTP/2 hello servers
   * of {@link Http2Servers} (httpd and raw Netty, h2c and h2 over TLS, one carrier each).
   */
  public static final List<String> KINDS = List.of("netty", "threads", "httpd-fiber", "httpd-virtual", "httpd-platform",
      HttpdServers.STATIC, HttpdServers.STATIC_H2, Http2Servers.NETTY, Http2Servers.HTTPD, Http2Servers.NETTY_TLS,
      Http2Servers.HTTPD_TLS);
  /** The directory the static kinds serve. */
  public static final String ROOT_PROPERTY = "krill.loadtest.root";
  /** Default lifetime limit in seconds. */
  public static final long DEFAULT_MAX_SECONDS = ServerArgs.DEFAULT_MAX_SECONDS;
  /** Accept backlog of every server. */
  static final int BACKLOG = 4096;

  private ServerMain() {}

  /**
   * Starts the server.
   *
   * @param args KIND [maxSeconds]
   */
  public static void main(String[] args) throws Exception {
    ServerArgs a = ServerArgs.parse(KINDS, args);
    String kind = a.kind();
    io.krill.loadtest.internal.Lifetime.haltAfter(a.maxSeconds(), "server");
    int threads = Runtime.getRuntime().availableProcessors();
    AutoCloseable server;
    int port;
    switch (kind) {
      case "netty": {
        NettyHttpServer s = new NettyHttpServer(threads, BACKLOG);
        server = s;
        port = s.port();
        break;
      }
      case "threads": {
        SocketHttpServer s = new SocketHttpServer(BACKLOG, task -> new Thread(task, "conn"));
        server = s;
        port = s.port();
        break;
      }
      case HttpdServers.STATIC:
      case HttpdServers.STATIC_H2: {
        String root = System.getProperty(ROOT_PROPERTY);
        if (root == null) {
          Mains.usageError(ROOT_PROPERTY + ": (none) (expected: the directory to serve)");
        }
        HttpdServers.Started s = HttpdServers.startStatic(Path.of(root), kind.equals(HttpdServers.STATIC_H2), BACKLOG);
        server = s;
        port = s.port();
        break;
      }
      case Http2Servers.NETTY:
      case Http2Servers.HTTPD:
      case Http2Servers.NETTY_TLS:
      case Http2Servers.HTTPD_TLS: {
        HttpdServers.Started s = Http2Servers.start(kind, BACKLOG);
        server = s;
        port = s.port();
        break;
      }
      default: {
        String skipped = HttpdServers.unavailable(kind);
        if (skipped != null) {
          System.out.println("skipped: " + skipped);
          System.exit(0);
        }
        HttpdServers.Started s = HttpdServers.start(kind, threads, BACKLOG);
        server = s;
        port = s.port();
        break;
      }
    }
    System.out.println("port " + port);
    System.out.flush();
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    for (String line; (line = in.readLine()) != null; ) {
      if (line.trim().equals("mem")) {
        System.out.println(memoryLine());
        System.out.flush();
      }
    }
    server.close();
    System.exit(0);
  }

  /** @return {@code mem heap=B rss=B threads=N}, heap measured after full collections */
  static String memoryLine() {
    long heap = Long.MAX_VALUE;
    for (int i = 0; i < 3; i++) {
      System.gc();
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      heap = Math.min(heap, ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed());
    }
    return String.format(Locale.ROOT, "mem heap=%d rss=%d threads=%d", heap, rss(),
        ManagementFactory.getThreadMXBean().getThreadCount());
  }

  /** @return the resident set size in bytes from /proc/self/status, or -1 where that is absent */
  static long rss() {
    try {
      for (String l : Files.readAllLines(Path.of("/proc/self/status"), StandardCharsets.US_ASCII)) {
        if (l.startsWith("VmRSS:")) {
          return Long.parseLong(l.substring(6).trim().split("\\s+")[0]) * 1024;
        }
      }
    } catch (IOException | RuntimeException e) {
      return -1;
    }
    return -1;
  }
}
