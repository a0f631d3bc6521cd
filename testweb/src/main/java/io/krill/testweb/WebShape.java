package io.krill.testweb;

import io.krill.fibers.Checks;
import java.net.InetAddress;

/**
 * The shape of the synthetic web: its seed, hosts, domains, addresses, ports, seed URLs, pages
 * and links. Each component is checked on its own when the record is made; {@link #check()}
 * checks them against each other.
 *
 * @param seed the generator seed: the same seed and knobs give the same web
 * @param hosts virtual hosts, 1..{@value #MAX_HOSTS}
 * @param domains registrable domains the hosts are spread over, 1..{@value #MAX_HOSTS}
 * @param ips loopback addresses the hosts are spread over, 1..{@value #MAX_IPS}
 * @param firstIp the first loopback address; the others follow it
 * @param port the HTTP port of every address, 0..65535 (0: a free one)
 * @param dnsPort the DNS port on 127.0.0.1, 0..65535 (0: a free one)
 * @param seeds seed URLs, the roots of hosts 0..seeds-1, 1..hosts
 * @param pagesPerHost pages per host including the root, 1..{@value #MAX_PAGES_PER_HOST}
 * @param outDegree links per page, 0..1000
 * @param crossHostRate share of links to another host, 0..1
 * @param pageBytes mean page size, 256..16MiB
 */
public record WebShape(long seed, int hosts, int domains, int ips, InetAddress firstIp, int port, int dnsPort, int seeds,
    int pagesPerHost, int outDegree, double crossHostRate, long pageBytes) {
  /** Default generator seed. */
  public static final long DEFAULT_SEED = 42;
  /** Default number of virtual hosts. */
  public static final int DEFAULT_HOSTS = 20;
  /** Default number of registrable domains the hosts are spread over. */
  public static final int DEFAULT_DOMAINS = 2;
  /** Default number of loopback addresses the hosts are spread over. */
  public static final int DEFAULT_IPS = 4;
  /** Default first loopback address; the others follow it. */
  public static final String DEFAULT_FIRST_IP = "127.0.1.1";
  /** Default HTTP port, shared by every address; 0 picks a free one. */
  public static final int DEFAULT_PORT = 0;
  /** Default DNS port on 127.0.0.1 (UDP and TCP); 0 picks a free one. */
  public static final int DEFAULT_DNS_PORT = 0;
  /** Default number of seed URLs (the roots of the first hosts). */
  public static final int DEFAULT_SEEDS = 1;
  /** Default pages per host, the root page included. */
  public static final int DEFAULT_PAGES_PER_HOST = 15;
  /** Default links per page. */
  public static final int DEFAULT_OUT_DEGREE = 6;
  /** Default share of links that point to another host. */
  public static final double DEFAULT_CROSS_HOST_RATE = 0.2;
  /** Default mean page size in bytes; pages vary from half to one and a half times it. */
  public static final long DEFAULT_PAGE_BYTES = 4096;

  /** The most hosts. */
  public static final int MAX_HOSTS = 100_000;
  /** The most loopback addresses. */
  public static final int MAX_IPS = 4096;
  /** The most pages per host. */
  public static final int MAX_PAGES_PER_HOST = 100_000;

  /** The default shape: the demo web. */
  public static final WebShape DEFAULTS = new WebShape(DEFAULT_SEED, DEFAULT_HOSTS, DEFAULT_DOMAINS, DEFAULT_IPS,
      Loopback.parse(DEFAULT_FIRST_IP), DEFAULT_PORT, DEFAULT_DNS_PORT, DEFAULT_SEEDS, DEFAULT_PAGES_PER_HOST,
      DEFAULT_OUT_DEGREE, DEFAULT_CROSS_HOST_RATE, DEFAULT_PAGE_BYTES);

  /** Checks each component on its own. */
  public WebShape {
    Checks.inRange("hosts", hosts, 1, MAX_HOSTS);
    Checks.inRange("domains", domains, 1, MAX_HOSTS);
    Checks.inRange("ips", ips, 1, MAX_IPS);
    Checks.inRange("port", port, 0, 65535);
    Checks.inRange("dnsPort", dnsPort, 0, 65535);
    Checks.inRange("seeds", seeds, 1, MAX_HOSTS);
    Checks.inRange("pagesPerHost", pagesPerHost, 1, MAX_PAGES_PER_HOST);
    Checks.inRange("outDegree", outDegree, 0, 1000);
    Checks.rate("crossHostRate", crossHostRate);
    Checks.inRange("pageBytes", pageBytes, 256, 16L << 20);
  }

  /** Checks the components against each other: seeds within hosts, the addresses within 127.0.0.0/8. */
  void check() {
    Checks.inRange("seeds", seeds, 1, hosts);
    long lastIp = Loopback.ipv4(firstIp) + ips - 1;
    if (lastIp > 0x7fff_fffeL) {
      throw Checks.bad("ips", ips, "<= " + (0x7fff_fffeL - Loopback.ipv4(firstIp) + 1) + " addresses after firstIp "
          + firstIp.getHostAddress() + ", to stay in 127.0.0.0/8");
    }
  }
}
