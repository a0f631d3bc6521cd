package io.krill.crawler.cli;

import io.krill.netio.dns.DnsResolver;
import java.io.IOException;
import java.util.List;

/**
 * A web that {@code krill crawl --demo} serves in its own process and crawls: the launcher
 * fills this hook with the synthetic web, so the crawler never depends on what it crawls.
 *
 * <p>Threading: the command calls every method from the thread that runs the crawl.
 */
public interface DemoWeb extends AutoCloseable {
  /** Starts a demo web; registered with {@link CrawlCommand#demo(Starter)}. */
  @FunctionalInterface
  interface Starter {
    /**
     * Starts the web.
     *
     * @param port the HTTP port, 0 for a free one (a resumed demo asks for the port it used)
     * @return the running web, closed by the command after the crawl
     * @throws IOException if it cannot be served
     */
    DemoWeb start(int port) throws IOException;
  }

  /**
   * The HTTP port the web is served on.
   *
   * @return the port
   */
  int port();

  /**
   * The URLs the crawl starts from.
   *
   * @return the seed URLs
   */
  List<String> seedUrls();

  /**
   * A resolver that answers for the web's host names.
   *
   * @return a new resolver
   */
  DnsResolver newResolver();

  /**
   * The web's DNS server, for nodes in other processes ({@code --dns}).
   *
   * @return {@code address:port} on loopback
   */
  String dns();

  /**
   * The depth the demo crawls to unless {@code --max-depth} is given.
   *
   * @return links from a seed
   */
  int maxDepth();

  /**
   * One line on what is served and where, printed before the crawl.
   *
   * @return e.g. {@code synthetic web of 20 hosts on ...}
   */
  String describe();

  /**
   * One line on what a crawl within {@code maxDepth} should have fetched, printed after the crawl.
   *
   * @param maxDepth the crawl's depth limit
   * @return the line
   */
  String expectation(int maxDepth);

  /**
   * One line on what the crawl really fetched, as the web saw it, against {@link #expectation}:
   * printed after a crawl this process ran from its start (not after a resume, whose earlier
   * requests the web did not see).
   *
   * @param maxDepth the crawl's depth limit
   * @return the line
   */
  String check(int maxDepth);

  /** Stops serving. */
  @Override
  void close();
}
