package io.krill.crawler.output;

import io.krill.crawler.frontier.Frontier;
import io.krill.netio.dns.DnsMetrics;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * A crawl's live counters as Micrometer meters in a Prometheus registry, scraped in the
 * OpenMetrics text format for {@code --metrics-port}: pages, requests, bytes, responses by status,
 * errors by kind, DNS lookups, and the queue, in-flight count and back-off of the busiest hosts.
 *
 * <p>Thread-safe: the counters read live values; {@link #scrape()} may run on any thread.
 */
public final class CrawlMetrics {
  /** The OpenMetrics media type {@link #scrape()} writes. */
  public static final String CONTENT_TYPE = "application/openmetrics-text; version=1.0.0; charset=utf-8";
  /** Hosts whose queues are exported: the busiest ones. */
  static final int HOSTS = 100;

  private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private final CrawlStats stats;
  private final Frontier frontier;
  private final Set<Integer> statuses = new HashSet<>();
  private final Set<String> errors = new HashSet<>();
  private final MultiGauge hostQueued;
  private final MultiGauge hostInFlight;
  private final MultiGauge hostBackoff;

  /**
   * Registers the meters.
   *
   * @param stats the crawl's counters
   * @param frontier the crawl's frontier
   * @param pending commits waiting for the output writer
   * @param dns the resolver's statistics
   */
  public CrawlMetrics(CrawlStats stats, Frontier frontier, LongSupplier pending, Supplier<DnsMetrics> dns) {
    this.stats = stats;
    this.frontier = frontier;
    counter("krill.crawl.pages", "Pages fetched.", stats.pages::sum);
    counter("krill.crawl.requests", "HTTP requests sent.", stats.requests::sum);
    counter("krill.crawl.bytes", "Response bytes received.", stats.bytes::sum);
    counter("krill.crawl.robots.fetches", "robots.txt fetches.", stats.robotsFetches::sum);
    counter("krill.crawl.retries", "Retries after 429/503.", stats.retries::sum);
    counter("krill.crawl.dns.lookups", "DNS lookups.", () -> dns.get().lookups());
    counter("krill.crawl.dns.failures", "DNS lookups that failed.", () -> dns.get().failures());
    gauge("krill.crawl.in.flight", "Work items in flight.", stats.inFlight::get);
    gauge("krill.crawl.queued", "URLs queued.", frontier::queued);
    gauge("krill.crawl.seen", "URLs in the seen-set.", frontier::seenCount);
    gauge("krill.crawl.output.pending", "Commits waiting for the writer.", pending);
    hostQueued = MultiGauge.builder("krill.crawl.host.queued").description("URLs queued per host (busiest 100).")
        .register(registry);
    hostInFlight = MultiGauge.builder("krill.crawl.host.in.flight").description("Requests in flight per host.")
        .register(registry);
    hostBackoff = MultiGauge.builder("krill.crawl.host.backoff").baseUnit("seconds")
        .description("Back-off left per host.").register(registry);
  }

  /**
   * The meters in the OpenMetrics text format, ending with {@code # EOF}.
   *
   * @return the exposition text
   */
  public String scrape() {
    refresh();
    return registry.scrape(CONTENT_TYPE);
  }

  /* Labels that appeared since the last scrape get their meters; host rows are replaced. */
  private synchronized void refresh() {
    stats.statuses().keySet().stream().filter(statuses::add).forEach(code ->
        labelled("krill.crawl.responses", "Final responses by status.", "status", code.toString(),
            () -> stats.statuses().getOrDefault(code, 0L)));
    stats.errors().keySet().stream().filter(errors::add).forEach(kind ->
        labelled("krill.crawl.errors", "Errors by kind.", "kind", kind, () -> stats.errors().getOrDefault(kind, 0L)));
    List<Frontier.HostStats> hosts = frontier.hostStats(HOSTS);
    hostQueued.register(rows(hosts, h -> Tags.of("host", h.hostKey(), "state", h.state()), h -> h.queued()), true);
    hostInFlight.register(rows(hosts, h -> Tags.of("host", h.hostKey()), h -> h.inFlight()), true);
    hostBackoff.register(rows(hosts, h -> Tags.of("host", h.hostKey()), h -> h.backoffRemainingMillis() / 1000.0), true);
  }

  private static List<MultiGauge.Row<?>> rows(List<Frontier.HostStats> hosts,
      java.util.function.Function<Frontier.HostStats, Tags> tags, java.util.function.ToDoubleFunction<Frontier.HostStats> value) {
    List<MultiGauge.Row<?>> rows = new ArrayList<>(hosts.size());
    for (Frontier.HostStats h : hosts) {
      rows.add(MultiGauge.Row.of(tags.apply(h), value.applyAsDouble(h)));
    }
    return rows;
  }

  private void counter(String name, String help, LongSupplier value) {
    FunctionCounter.builder(name, value, LongSupplier::getAsLong).description(help).register(registry);
  }

  private void labelled(String name, String help, String label, String labelValue, LongSupplier value) {
    FunctionCounter.builder(name, value, LongSupplier::getAsLong).description(help).tag(label, labelValue).register(registry);
  }

  private void gauge(String name, String help, LongSupplier value) {
    Gauge.builder(name, value, LongSupplier::getAsLong).description(help).register(registry);
  }
}
