package io.krill.testweb;

import io.krill.fibers.Checks;
import io.krill.testkit.TestDnsServer;
import io.krill.testkit.TestDnsServer.Entry;
import io.krill.testkit.TestDnsServer.Mode;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The synthetic web's authoritative DNS server on 127.0.0.1, over UDP and TCP on one port: a
 * {@link TestDnsServer} whose zone is the web. It answers A queries for the web's hosts with
 * their loopback address, NODATA for other types of those names, and NXDOMAIN for every other
 * name. Faults can be configured ({@code dnsFailureHosts}, {@code dnsTimeoutHosts}) or injected
 * per name with {@link #inject}.
 *
 * <p>Point a resolver at it with
 * {@code DnsResolver.builder().servers(List.of(dns.address())).hostsFile(null).build()}.
 *
 * <p>Threading: thread-safe. It serves from the daemon threads of {@link TestDnsServer}.
 */
public final class DnsServer implements AutoCloseable {
  private final SyntheticWeb web;
  private final long ttlSeconds;
  private final Map<String, DnsFault> faults = new ConcurrentHashMap<>();
  private final TestDnsServer server;

  private DnsServer(SyntheticWeb web, int port) throws IOException {
    this.web = web;
    this.ttlSeconds = web.config().dnsTtl().getSeconds();
    faults.putAll(web.dnsFaults());
    try {
      server = TestDnsServer.start(port, this::lookup);
    } catch (IOException e) {
      throw new IOException("dnsPort: " + e.getMessage(), e);
    }
  }

  /**
   * Starts a DNS server for {@code web} on 127.0.0.1.
   *
   * @param web the web whose hosts it answers
   * @param port the port for UDP and TCP, 0 for a free one
   * @return the running server
   * @throws IOException if the port cannot be bound
   */
  public static DnsServer start(SyntheticWeb web, int port) throws IOException {
    return new DnsServer(Objects.requireNonNull(web, "web"), Checks.inRange("port", port, 0, 65535));
  }

  private Entry lookup(String name) {
    DnsFault fault = faults.get(name);
    if (fault != null) {
      Mode mode = switch (fault) {
        case SERVFAIL -> Mode.SERVFAIL;
        case TIMEOUT -> Mode.SILENT;
        case NXDOMAIN -> Mode.NXDOMAIN;
      };
      return new Entry(mode, List.of(), ttlSeconds, 0);
    }
    InetAddress address = web.addressOf(name);
    return address == null ? null : new Entry(Mode.ANSWER, List.of(address), ttlSeconds, 0);
  }

  /** @return the address to send queries to (UDP and TCP) */
  public InetSocketAddress address() {
    return server.address();
  }

  /**
   * Makes queries for {@code name} fail from now on.
   *
   * @param name a host name, any case
   * @param fault how they fail
   */
  public void inject(String name, DnsFault fault) {
    faults.put(key(name), Objects.requireNonNull(fault, "fault"));
  }

  /**
   * Makes {@code name} answer normally again (also undoing a configured fault).
   *
   * @param name a host name, any case
   */
  public void clear(String name) {
    faults.remove(key(name));
  }

  /** @return queries received over UDP */
  public long udpQueries() {
    return server.udpQueries();
  }

  /** @return queries received over TCP */
  public long tcpQueries() {
    return server.tcpQueries();
  }

  /** @return queries received for {@code name}, over either transport */
  public long queries(String name) {
    return server.queries(name);
  }

  private static String key(String name) {
    String k = name.toLowerCase(Locale.ROOT);
    return k.endsWith(".") ? k.substring(0, k.length() - 1) : k;
  }

  /** Stops serving and closes every socket and connection; waits for the threads to end. */
  @Override
  public void close() {
    server.close();
  }
}
