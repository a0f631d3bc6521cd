package io.krill.cli;

import io.krill.config.HostPort;
import io.krill.console.WebConsole;
import io.krill.crawler.cli.CrawlCommand;
import io.krill.crawler.cli.DemoWeb;
import io.krill.netio.dns.DnsResolver;
import io.krill.testweb.GroundTruth;
import io.krill.testweb.Scope;
import io.krill.testweb.TestWeb;
import io.krill.testweb.TestWebConfig;
import java.io.IOException;
import java.io.PrintStream;
import java.util.List;
import picocli.CommandLine;

/**
 * The synthetic web as the web {@code krill crawl --demo} crawls: the launcher joins the crawler
 * and testweb, which know nothing of each other.
 */
final class CrawlDemo implements DemoWeb {
  private final TestWeb web;

  private CrawlDemo(TestWeb web) {
    this.web = web;
  }

  /**
   * The {@code krill crawl} command line with {@code --demo} serving the synthetic web.
   *
   * @param out where the summary goes
   * @param err where progress and errors go
   * @return the command line
   */
  static CommandLine commandLine(PrintStream out, PrintStream err) {
    return new CrawlCommand().streams(out, err).demo(CrawlDemo::start).demoBroker(CrawlDemo::startBroker)
        .console(WebConsole::start).commandLine();
  }

  /** Starts the broker of {@code --demo --nodes N} in this process. */
  static io.krill.crawler.cli.DemoBroker startBroker(java.nio.file.Path dir) throws IOException {
    io.krill.broker.KafkaBroker broker = io.krill.broker.KafkaBroker.start(dir, 0);
    return new io.krill.crawler.cli.DemoBroker() {
      @Override
      public String bootstrap() {
        return broker.bootstrap();
      }

      @Override
      public void close() {
        broker.close();
      }
    };
  }

  /** Serves the synthetic web with its default configuration on {@code port} (0: a free one). */
  static CrawlDemo start(int port) throws IOException {
    return new CrawlDemo(TestWeb.start(TestWebConfig.builder().port(port).build()));
  }

  @Override
  public int port() {
    return web.port();
  }

  @Override
  public List<String> seedUrls() {
    return web.seedUrls();
  }

  @Override
  public DnsResolver newResolver() {
    return web.newResolver();
  }

  @Override
  public String dns() {
    return HostPort.of(web.dnsServer()).toString();
  }

  @Override
  public int maxDepth() {
    return TestWeb.DEMO_MAX_DEPTH;
  }

  @Override
  public String describe() {
    return "synthetic web of " + web.web().hosts().size() + " hosts on " + web.httpAddresses().size()
        + " loopback addresses, port " + web.port() + ", DNS " + web.dnsServer();
  }

  @Override
  public String expectation(int maxDepth) {
    try {
      GroundTruth truth = web.groundTruth(Scope.builder().maxDepth(maxDepth).build());
      return "ground truth (depth " + maxDepth + "): " + truth.urls().size() + " URLs to fetch, "
          + truth.disallowed().size() + " disallowed by robots.txt, " + truth.unresolvable().size()
          + " unresolvable, " + truth.hostsContacted().size() + " hosts";
    } catch (IllegalArgumentException e) {
      return "ground truth: " + e.getMessage();
    }
  }

  @Override
  public String check(int maxDepth) {
    try {
      return "checked against the web's access log: "
          + web.accessLog().check(web.groundTruth(Scope.builder().maxDepth(maxDepth).build())).describe();
    } catch (IllegalArgumentException | IllegalStateException e) {
      return "not checked against the web's access log: " + e.getMessage();
    }
  }

  @Override
  public void close() {
    web.close();
  }
}
