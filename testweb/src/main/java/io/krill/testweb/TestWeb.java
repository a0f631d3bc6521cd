package io.krill.testweb;

import io.krill.httpd.HttpServer;
import io.krill.netio.dns.DnsResolver;
import java.io.IOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The synthetic web, served: one krill httpd per loopback address (all on one port), answering
 * for the virtual hosts that live there, and a DNS server on 127.0.0.1 that maps the hosts to
 * their addresses. {@code krill crawl --demo} and the crawler's tests start one in-process.
 *
 * <pre>{@code
 * try (TestWeb web = TestWeb.start(TestWebConfig.defaults())) {
 *   DnsResolver dns = web.newResolver();        // or: servers(List.of(web.dnsServer()))
 *   List<String> seeds = web.seedUrls();         // http://h0.krill.test:PORT/
 *   ... crawl ...
 *   GroundTruth truth = web.groundTruth(Scope.builder().maxDepth(8).build());
 *   assertThat(crawled).isEqualTo(truth.urls());
 *   assertThat(web.accessLog().urls()).doesNotContainAnyElementsOf(truth.disallowed());
 * }
 * }</pre>
 *
 * <p>Threading: thread-safe. {@link #start} and {@link #close} block the calling thread;
 * requests are served on fibers of the default scheduler's event loops, DNS on the DNS
 * server's threads.
 */
public final class TestWeb implements AutoCloseable {
  /**
   * The depth limit {@code krill crawl --demo} and {@code krill testweb} use: deep enough to
   * reach every page of the default web, and it bounds every trap.
   */
  public static final int DEMO_MAX_DEPTH = 8;
  /** How often {@link #start} tries another free port when a chosen one is taken on another address. */
  static final int PORT_ATTEMPTS = 20;
  /** How long {@link #close} lets responses in flight (a slow drip) go on before closing their connections. */
  static final Duration CLOSE_GRACE = Duration.ofMillis(200);

  private static final Map<Long, byte[]> BOMBS = new ConcurrentHashMap<>();

  private final SyntheticWeb web;
  private final List<HttpServer> servers;
  private final DnsServer dns;
  private final AccessLog accessLog;
  private final int port;

  private TestWeb(SyntheticWeb web, List<HttpServer> servers, DnsServer dns, AccessLog accessLog, int port) {
    this.web = web;
    this.servers = servers;
    this.dns = dns;
    this.accessLog = accessLog;
    this.port = port;
  }

  /**
   * Generates the web of {@code config} and serves it. Blocks until every server is bound.
   *
   * @param config the knobs
   * @return the running web; close it
   * @throws IOException if an address or port cannot be bound (the message names it)
   * @throws IllegalArgumentException if the configuration cannot generate a web
   */
  public static TestWeb start(TestWebConfig config) throws IOException {
    SyntheticWeb web = SyntheticWeb.of(Objects.requireNonNull(config, "config"));
    byte[] bomb = config.gzipBombHosts() == 0 ? new byte[0] : BOMBS.computeIfAbsent(config.gzipBombBytes(), Pages::gzipBomb);
    DnsServer dns = DnsServer.start(web, config.dnsPort());
    try {
      for (int attempt = 1;; attempt++) {
        List<HttpServer> servers = new ArrayList<>(web.addresses().size());
        AccessLog log = new AccessLog(config.accessLogLimit());
        WebHandler handler = new WebHandler(web, log, bomb);
        int port = config.port();
        try {
          for (InetAddress address : web.addresses()) {
            servers.add(HttpServer.builder().address(address.getHostAddress()).port(port).shutdownGrace(CLOSE_GRACE)
                .fallback(handler).build().start());
            port = servers.get(0).port();
          }
          log.port(port);
          return new TestWeb(web, Collections.unmodifiableList(servers), dns, log, port);
        } catch (BindException e) {
          closeAll(servers);
          if (config.port() != 0 || attempt == PORT_ATTEMPTS) {
            throw e;
          }
        } catch (IOException | RuntimeException e) {
          closeAll(servers);
          throw e;
        }
      }
    } catch (IOException | RuntimeException e) {
      dns.close();
      throw e;
    }
  }

  private static void closeAll(List<HttpServer> servers) {
    for (HttpServer s : servers) {
      s.shutdown(Duration.ZERO);
    }
  }

  /** @return the model being served */
  public SyntheticWeb web() {
    return web;
  }

  /** @return the configuration */
  public TestWebConfig config() {
    return web.config();
  }

  /** @return the HTTP port, the same on every address */
  public int port() {
    return port;
  }

  /** @return the addresses the HTTP servers listen on */
  public List<InetSocketAddress> httpAddresses() {
    List<InetSocketAddress> out = new ArrayList<>(web.addresses().size());
    for (InetAddress a : web.addresses()) {
      out.add(new InetSocketAddress(a, port));
    }
    return out;
  }

  /** @return the DNS server's address (127.0.0.1, UDP and TCP) */
  public InetSocketAddress dnsServer() {
    return dns.address();
  }

  /** @return the DNS server, to inject faults or count queries */
  public DnsServer dns() {
    return dns;
  }

  /**
   * Builds a resolver that asks only this web's DNS server (no hosts file), with netio's
   * default timeouts and cache.
   *
   * @return a new resolver
   */
  public DnsResolver newResolver() {
    return DnsResolver.builder().servers(List.of(dns.address())).hostsFile(null).build();
  }

  /** @return the seed URLs: the root pages of the first {@code seeds} hosts */
  public List<String> seedUrls() {
    return web.seedUrls(port);
  }

  /**
   * Computes what a crawl within {@code scope} fetches; see {@link GroundTruth}.
   *
   * @param scope the crawl's scope
   * @return the ground truth, with this web's port in its URLs
   * @throws IllegalArgumentException if the scope reaches an infinite trap with no depth limit
   */
  public GroundTruth groundTruth(Scope scope) {
    return web.groundTruth(scope, port);
  }

  /** @return the access log of every HTTP server of this web */
  public AccessLog accessLog() {
    return accessLog;
  }

  /**
   * Stops the HTTP servers (responses still dripping get {@link #CLOSE_GRACE}) and the DNS
   * server. Blocks until every connection is closed. Idempotent.
   */
  @Override
  public void close() {
    for (HttpServer s : servers) {
      s.shutdown(CLOSE_GRACE);
    }
    dns.close();
  }

  @Override
  public String toString() {
    return "TestWeb[" + web.hosts().size() + " hosts on " + web.addresses().size() + " addresses, port " + port + ", dns "
        + dns.address() + "]";
  }
}
