package io.krill.crawler;

import io.krill.crawler.fetch.AddressPolicy;
import io.krill.crawler.fetch.Exchange;
import io.krill.crawler.fetch.FetchException;
import io.krill.crawler.fetch.HttpFetcher;
import io.krill.crawler.frontier.CrawlUrl;
import io.krill.crawler.frontier.Frontier;
import io.krill.crawler.frontier.Scope;
import io.krill.crawler.frontier.SeenSet;
import io.krill.crawler.frontier.UrlNormalizer;
import io.krill.crawler.journal.Journal;
import io.krill.crawler.links.LinkExtractor;
import io.krill.crawler.output.CrawlStats;
import io.krill.crawler.output.LineOutput;
import io.krill.crawler.output.CrawlLine;
import io.krill.crawler.output.CrawlMetrics;
import io.krill.crawler.output.MetricsServer;
import io.krill.crawler.output.ProgressReporter;
import io.krill.crawler.output.WarcOutput;
import io.krill.crawler.robots.RobotsPolicy;
import io.krill.crawler.robots.Sitemaps;
import io.krill.fibers.Continuation;
import io.krill.fibers.ExecutionMode;
import io.krill.fibers.Fiber;
import io.krill.fibers.FiberScheduler;
import io.krill.fibers.FiberSemaphore;
import io.krill.fibers.Suspendable;
import io.krill.fibers.VirtualThreads;
import io.krill.netio.dns.DnsMetrics;
import io.krill.netio.dns.DnsResolver;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.netpreserve.jwarc.WarcRecord;
import org.netpreserve.jwarc.WarcRequest;
import org.netpreserve.jwarc.WarcTruncationReason;

/**
 * A polite, crash-safe crawl: the Piranha program (one strand per fetch, plain sequential
 * fetch code) with a frontier, robots.txt, WARC and JSONL output and a journal.
 *
 * <pre>{@code
 * CrawlSummary s = Crawler.create(CrawlConfig.builder().seed("https://example.org/").build()).run();
 * }</pre>
 *
 * <p>Threading: {@link #run()} blocks the calling thread until the crawl ends; {@link #stop()}
 * may be called from any thread. Fetches run as fibers on event-loop carriers, on platform
 * threads or on virtual threads ({@link ExecutionMode}); output is written by one thread.
 */
public final class Crawler {
  /*
   * Implementation notes. One dispatcher strand loops: it asks the frontier for work the
   * politeness gates allow (RESOLVE a host, fetch its ROBOTS, FETCH a URL), takes an in-flight
   * slot, and spawns a strand for it; when nothing is ready it waits on `wake` until the next
   * time gate opens or a strand finishes. A FETCH strand is the Piranha fetch: fetch (following
   * same-host redirects, queueing cross-host targets), extract links, offer them, and hand one
   * commit to the output writer. A page counts as completed only when that commit's journal
   * line is written, after its WARC records and JSONL line.
   */
  private static final String JSONL = "crawl.jsonl";
  private static final String ARGS = "crawl-args.txt";

  private final CrawlConfig config;
  private final CrawlStats stats = new CrawlStats();
  private final FiberSemaphore wake = FiberSemaphore.create(0);
  private final Set<String> sitemapUrls = ConcurrentHashMap.newKeySet();
  private final AtomicLong pagesDispatched = new AtomicLong();
  private volatile boolean stopRequested;
  private volatile int metricsPort = -1;
  private CrawlSummary.Totals earlier;
  /* Why each seed that got no answer failed; a first run with no seed answered ends "failed". */
  private final Map<String, String> seedFailures = new ConcurrentHashMap<>();
  private volatile boolean seedAnswered;
  private FiberScheduler scheduler;
  private DnsResolver resolver;
  private HttpFetcher fetcher;
  private Frontier frontier;
  private Scope scope;
  private RobotsPolicy robots;
  private OutputWriter writer;
  private Runner runner;
  /* How strands are made; tests replace it to make spawning fail. */
  java.util.function.BiFunction<CrawlConfig, io.krill.fibers.FiberScheduler, Runner> runners = Runner::create;
  private FiberSemaphore slots;
  private HostLookup lookup;
  private java.util.function.UnaryOperator<HostLookup> lookupWrap = l -> l;
  private PageFetch pageFetch;
  private java.util.function.UnaryOperator<PageFetch> fetchWrap = f -> f;
  private SharedFrontier shared;

  private final LiveView live;

  private Crawler(CrawlConfig config) {
    this.config = Objects.requireNonNull(config, "config");
    this.live = new LiveView(this, stats, config.maxPages);
  }

  /**
   * @param config the configuration
   * @return a crawler, not started
   */
  public static Crawler create(CrawlConfig config) {
    return new Crawler(config);
  }

  /** Asks the crawl to stop dispatching; fetches in flight finish and are written. Any thread. */
  public void stop() {
    stopRequested = true;
    signal();
  }

  /**
   * Makes this crawl one node of a crawl across machines: its frontier holds the partitions
   * {@code shared} assigns it, and the crawl ends when {@code shared} says the whole crawl is
   * drained. Call before {@link #run()}.
   *
   * @param shared the shared frontier
   * @return this
   */
  public Crawler share(SharedFrontier shared) {
    this.shared = Objects.requireNonNull(shared, "shared");
    return this;
  }

  /** @return the live counters */
  public CrawlStats stats() {
    return stats;
  }

  /** @return the live view and controls of this crawl, for a console */
  public CrawlView view() {
    return live;
  }

  /** @return the metrics port once serving, else -1 */
  public int metricsPort() {
    return metricsPort;
  }

  /**
   * Runs the crawl to its end. Blocks the calling thread.
   *
   * @return the summary
   * @throws IOException if the output directory cannot be set up or written
   * @throws IllegalStateException if the directory holds a crawl and resume is off, or holds
   *     none and resume is on
   * @throws UnsupportedOperationException for {@code --mode virtual} on a JDK without virtual threads
   */
  public CrawlSummary run() throws IOException {
    Path dir = config.out;
    Journal.Replay replay = openOutput(dir);
    if (config.mode == ExecutionMode.VIRTUAL && !VirtualThreads.available()) {
      throw new UnsupportedOperationException("--mode virtual " + VirtualThreads.UNAVAILABLE);
    }
    scheduler = FiberScheduler.eventLoop(config.carriers);
    resolver = config.resolver != null ? config.resolver : buildResolver();
    fetcher = buildFetcher();
    lookup = lookupWrap.apply(fetcher::resolveAll);
    pageFetch = fetchWrap.apply(fetcher::fetchFollowing);
    robots = new RobotsPolicy(config.robotsAgent);
    scope = new Scope(config.scope, config.maxDepth, config.allowDomains, config.include, config.exclude);
    config.seeds.forEach(scope::addSeed);
    SeenSet seen = new SeenSet(config.seenMemory, config.bloomExpected, config.bloomFpp);
    frontier = new Frontier(config.order, new Frontier.Politeness(config.perHost, config.perIp, config.delay,
        config.maxCrawlDelay, config.backoffBase, config.backoffMax), seen, config.randomSeed, config.maxDepth);
    WarcOutput warc = new WarcOutput(dir, config.warcMaxSize, config.warcGzip ? config.warcGzipLevel : 0,
        replay == null ? null : replay.warc());
    LineOutput jsonl = new LineOutput(dir.resolve(JSONL), replay == null ? 0 : Math.max(0, replay.jsonlEnd()));
    earlier = replay == null ? null : CrawlSummary.Totals.read(dir.resolve(JSONL)); // cut at the journal's position
    writer = new OutputWriter(warc, jsonl, new Journal(dir), frontier, config, this::signal);
    if (shared != null) {
      shared.resolver(resolver);
      shared.attach(frontier, this::signal, writer::pending);
    }
    writer.reportTo(live.attach(frontier, resolver, replay == null ? 0 : LineOutput.countLines(dir.resolve(JSONL)),
        earlier, shared instanceof CrawlView.Cluster c ? c : null));
    List<CrawlUrl> seeds = fillFrontier(replay);
    stats.queued.add(frontier.queued());
    runner = runners.apply(config, scheduler);
    slots = FiberSemaphore.create(config.mode == ExecutionMode.PLATFORM && !config.naive ? config.threads
        : config.naive ? Integer.MAX_VALUE / 2 : config.maxInFlight);
    long start = System.nanoTime();
    String stoppedBy = crawl(seeds, start);
    if (writer.failure() != null) {
      stoppedBy = "failed: " + writer.failure().getMessage();
    } else if (replay == null && !seedAnswered && !seedFailures.isEmpty() && stoppedBy.equals("done")) {
      Map.Entry<String, String> first = new java.util.TreeMap<>(seedFailures).firstEntry();
      stoppedBy = "failed: no seed could be fetched: " + first.getKey() + ": " + first.getValue();
    }
    return summarize(dir, stoppedBy, (System.nanoTime() - start) / 1e9);
  }

  /** Checks the output directory against resume; returns what a resumed crawl replays, or null. */
  private Journal.Replay openOutput(Path dir) throws IOException {
    Path journalFile = dir.resolve(Journal.FILE);
    if (config.resume) {
      if (!Files.exists(journalFile)) {
        throw new IllegalStateException("resume: " + dir + " holds no crawl (no " + Journal.FILE + ")");
      }
      return Journal.replay(dir);
    }
    if (Files.exists(journalFile)) {
      throw new IllegalStateException("out: " + dir + " holds a crawl already (use --resume " + dir
          + " to continue it, or another directory)");
    }
    Files.createDirectories(dir);
    return null;
  }

  private HttpFetcher buildFetcher() {
    HttpFetcher.Builder fb = HttpFetcher.builder().resolver(resolver).scheduler(scheduler)
        .addressPolicy(config.allowPrivate ? AddressPolicy.allowPrivate() : AddressPolicy.publicOnly())
        .maxIdlePerOrigin(Math.max(1, config.perHost));
    config.fetch.accept(fb);
    return fb.build();
  }

  /** Queues the seeds, or on resume what the journal left pending; returns the seeds newly queued. */
  private List<CrawlUrl> fillFrontier(Journal.Replay replay) {
    List<CrawlUrl> seeds = new ArrayList<>();
    // a journal with nothing in it was cut before the seeds' commit: queue the seeds as a new crawl would
    if (replay == null || replay.isEmpty()) {
      for (String s : config.seeds) {
        CrawlUrl c = frontier.offer(s, 0, null);
        if (c != null) {
          seeds.add(c);
        }
      }
      return seeds;
    }
    for (String u : replay.completed()) {
      CrawlUrl n = replay.nodes().get(u);
      if (n != null) {
        frontier.restoreCompleted(n);
      } else {
        frontier.markSeen(u);
      }
    }
    replay.deferred().forEach(frontier::restoreDeferred);
    replay.pending().forEach(frontier::enqueue);
    replay.links().forEach(frontier::restoreLinks);
    return seeds;
  }

  /** Runs the dispatcher with progress and metrics until the crawl ends; returns why it ended. */
  private String crawl(List<CrawlUrl> seeds, long start) throws IOException {
    ProgressReporter progress = startProgress();
    CrawlMetrics meters = new CrawlMetrics(stats, frontier, writer::pending, resolver::metrics);
    MetricsServer metrics = config.metricsPort >= 0 ? new MetricsServer(config.metricsPort,
        () -> scrape(meters)) : null;
    if (metrics != null) {
      metricsPort = metrics.port();
    }
    try {
      if (!seeds.isEmpty()) {
        Continuation.runOnThread(() -> writer.submit(new OutputWriter.Commit(List.of(), List.of(), seeds, List.of())));
      }
      return runDispatcher(start);
    } finally {
      if (progress != null) {
        progress.close();
      }
      if (metrics != null) {
        metrics.close();
      }
      shutDown();
    }
  }

  /* The shared frontier's figures go before the OpenMetrics end marker. */
  private String scrape(CrawlMetrics meters) {
    String text = meters.scrape();
    if (shared == null) {
      return text;
    }
    int eof = text.lastIndexOf("# EOF");
    return eof < 0 ? text + shared.metrics() : text.substring(0, eof) + shared.metrics() + text.substring(eof);
  }

  private String runDispatcher(long start) {
    if (config.mode != ExecutionMode.FIBER) {
      return Continuation.callOnThread(() -> dispatch(start));
    }
    String[] result = new String[1];
    Fiber d = Fiber.builder().scheduler(scheduler).name("krill-crawl-dispatcher").start(() -> result[0] = dispatch(start));
    Continuation.runOnThread(d::join);
    return result[0] != null ? result[0] : "failed: dispatcher died";
  }

  /* The writer's close flushes and syncs the last commits; the scheduler closes last whatever happens. */
  private void shutDown() throws IOException {
    runner.close();
    fetcher.close();
    try {
      writer.close();
    } finally {
      scheduler.close();
    }
  }

  private CrawlSummary summarize(Path dir, String stoppedBy, double seconds) throws IOException {
    CrawlSummary summary = new CrawlSummary(stats.pages.sum(), stats.requests.sum(), stats.bytes.sum(), stats.statuses(),
        stats.errors(), stats.robotsDisallowed.sum(), seconds, stoppedBy, frontier.seenDescription(), dnsText(),
        writer.warcFiles(), dir, config.mode.alias() + (config.naive ? " (naive)" : ""),
        stats.peakFetching.get(), earlier);
    Files.writeString(dir.resolve("summary.json"), summary.toJson() + "\n");
    live.ended(stoppedBy);
    return summary;
  }

  private DnsResolver buildResolver() {
    if (config.dnsServers.isEmpty()) {
      return DnsResolver.builder().timeout(config.dnsTimeout).build();
    }
    return DnsResolver.builder().servers(config.dnsServers).timeout(config.dnsTimeout).build();
  }

  private ProgressReporter startProgress() {
    boolean live;
    switch (config.progress) {
      case OFF:
        return null;
      case TTY:
        live = true;
        break;
      case PLAIN:
        live = false;
        break;
      default:
        live = System.console() != null;
    }
    PrintStream err = System.err;
    return new ProgressReporter(err, live, config.progressInterval,
        () -> ProgressReporter.line(stats, frontier.queued(), dnsText())
            + (stats.fetching.get() == 0 ? waitingText() : ""));
  }

  /* Nothing in flight: say what the crawl waits for (a robots.txt retry, a host delay, a back-off). */
  private String waitingText() {
    String w = frontier.waitingFor(System.nanoTime());
    return w == null ? "" : ", waiting for " + w;
  }

  private String dnsText() {
    DnsMetrics m = resolver.metrics();
    return "dns " + m.lookups() + " lookups, " + m.cacheHits() + " cached, " + m.failures() + " failed, mean "
        + m.meanLatency().toMillis() + " ms";
  }

  void signal() {
    if (wake.availablePermits() < 1) {
      wake.release();
    }
  }

  // ------------------------------------------------------------------ dispatcher

  private String dispatch(long start) throws Suspendable {
    long deadline = start + config.maxDuration.toNanos();
    String stopReason = null;
    for (;;) {
      if (stopReason == null) {
        stopReason = limitReached(deadline);
      }
      boolean pageLimit = pagesDispatched.get() >= config.maxPages;
      if (stopReason == null) {
        addSeeds(live.takeSeeds());
      }
      // a shared frontier's unsettled pages hold their slot until their outcome is durable (see SharedFrontier)
      boolean room = shared == null || stats.inFlight.get() + shared.unsettled() < config.maxInFlight;
      if (stopReason == null && !pageLimit && !live.paused() && room) {
        Frontier.Work w = frontier.next(System.nanoTime());
        if (w != null && shared != null && !shared.admit(w)) {
          continue; // its host moved to another node
        }
        if (w != null) {
          if (w.kind() == Frontier.WorkKind.FETCH) {
            pagesDispatched.incrementAndGet();
          }
          slots.acquire();
          stats.inFlight.incrementAndGet();
          if (w.kind() != Frontier.WorkKind.RESOLVE) {
            stats.peakFetching.accumulateAndGet(stats.fetching.incrementAndGet(), Math::max);
          }
          try {
            runner.spawn("krill-crawl-" + w.kind().name().toLowerCase(Locale.ROOT), () -> run(w));
          } catch (RuntimeException | OutOfMemoryError e) {
            // No strand for it: the OS refused another thread ("unable to create native thread",
            // e.g. --naive --mode threads past the thread limit) or the executor is shut down.
            // Undo its bookkeeping and end the crawl. Its URL is not completed, so it stays
            // queued in the journal and --resume fetches it.
            if (w.kind() != Frontier.WorkKind.RESOLVE) {
              frontier.release(w.hostKey(), System.nanoTime());
              stats.fetching.decrementAndGet();
            }
            stats.inFlight.decrementAndGet();
            slots.release();
            stopReason = "failed: cannot start a strand for " + w.kind().name().toLowerCase(Locale.ROOT) + " "
                + w.hostKey() + ": " + e;
            System.err.println("krill crawl: " + stopReason + " (stopping; --resume continues)");
          }
          continue;
        }
      }
      if (stats.inFlight.get() == 0 && writer.pending() == 0) {
        if (stopReason != null) {
          return stopReason;
        }
        if (pagesDispatched.get() >= config.maxPages) {
          return "max-pages";
        }
        if (shared == null ? frontier.isIdle() : shared.drained()) {
          return "done";
        }
      }
      // never spin: a carrier running the dispatcher runs fetch fibers too
      long waitNanos = stopReason != null || pageLimit || live.paused() ? 100_000_000L
          : Math.max(1_000_000L, Math.min(frontier.nanosUntilReady(System.nanoTime()), 100_000_000L));
      wake.tryAcquire(1, Duration.ofNanos(waitNanos));
    }
  }

  /** Queues seeds a view added, in scope like command-line seeds, journaled like discovered URLs. */
  private void addSeeds(List<String> urls) throws Suspendable {
    if (urls.isEmpty()) {
      return;
    }
    List<CrawlUrl> queued = new ArrayList<>();
    for (String u : urls) {
      scope.addSeed(u);
      CrawlUrl c = frontier.offer(u, 0, null);
      if (c != null) {
        queued.add(c);
        stats.queued.increment();
      }
    }
    if (!queued.isEmpty()) {
      writer.submit(new OutputWriter.Commit(List.of(), List.of(), queued, List.of()));
    }
  }

  private String limitReached(long deadline) {
    if (stopRequested) {
      return "stopped";
    }
    if (writer.failure() != null) {
      return "failed: " + writer.failure().getMessage();
    }
    if (stats.bytes.sum() >= config.maxBytes) {
      return "max-bytes";
    }
    if (System.nanoTime() - deadline >= 0) {
      return "max-duration";
    }
    return null;
  }

  private void run(Frontier.Work w) throws Suspendable {
    try {
      switch (w.kind()) {
        case RESOLVE:
          resolveHost(w.hostKey());
          break;
        case ROBOTS:
          try {
            fetchRobots(w);
          } finally {
            frontier.release(w.hostKey(), System.nanoTime());
          }
          break;
        default:
          try {
            fetchPage(w);
          } catch (io.krill.fibers.FiberCancelledException e) {
            throw e; // not the page's outcome: a cancelled fetch stays queued for --resume
          } catch (RuntimeException | Error e) {
            failPage(w.url(), e);
          } finally {
            frontier.release(w.hostKey(), System.nanoTime());
          }
      }
    } catch (RuntimeException | Error e) {
      stats.error("internal");
      System.err.println("krill crawl: internal error on " + w + ": " + e);
    } finally {
      if (w.kind() != Frontier.WorkKind.RESOLVE) {
        stats.fetching.decrementAndGet();
      }
      stats.inFlight.decrementAndGet();
      slots.release();
      if (shared != null) {
        shared.finished(w);
      }
      signal();
    }
  }

  /*
   * A fetch that ended by an internal error still ends in one outcome: its JSONL line names the
   * error and its URL is completed. Without it the URL stays outstanding, and a node of a crawl
   * across machines keeps the page's fetch slot and its partition's queue count for good (the
   * slot is freed only by the outcome's ack), so a few such pages stall the node and the crawl
   * never ends.
   */
  private void failPage(CrawlUrl cu, Throwable e) throws Suspendable {
    String why = "internal: " + e;
    stats.error("internal");
    System.err.println("krill crawl: internal error on " + cu.url() + ": " + e);
    seedFailed(cu, why);
    writer.submit(new OutputWriter.Commit(List.of(), List.of(CrawlLine.of(cu.url(), "page", cu, null, why, null, 0)),
        List.of(), List.of(cu.url())));
  }

  // ------------------------------------------------------------------ RESOLVE

  private void resolveHost(String hostKey) throws Suspendable {
    URI root;
    List<InetAddress> all;
    try {
      root = URI.create(hostKey + "/");
      all = lookup.addresses(root);
    } catch (FetchException e) {
      failHost(hostKey, e);
      return;
    } catch (RuntimeException e) {
      // a resolver bug must fail the host, not leave it resolving forever (the crawl would never end)
      failHost(hostKey, new FetchException(FetchException.Kind.DNS, hostKey + "/", "resolver failed: " + e, e));
      return;
    }
    List<WarcRecord> records = new ArrayList<>(1);
    try {
      records.add(WarcOutput.dns(root.getHost(), all, Instant.now()));
    } catch (IOException | RuntimeException e) {
      // a DNS record that cannot be built is left out; the crawl goes on
    }
    frontier.resolved(hostKey, all.get(0));
    writer.submit(new OutputWriter.Commit(records, List.of(), List.of(), List.of()));
  }

  /** How RESOLVE work finds a host's addresses: the fetcher's resolver, or a test's stand-in. */
  interface HostLookup {
    /**
     * @return the addresses, the first one checked against the address policy; may suspend
     * @throws FetchException DNS or BLOCKED
     */
    List<InetAddress> addresses(URI hostRoot) throws FetchException, Suspendable;
  }

  /** For tests: wraps the host lookup (to inject a resolver fault into a real crawl). Call before {@link #run()}. */
  Crawler wrapLookup(java.util.function.UnaryOperator<HostLookup> wrap) {
    this.lookupWrap = Objects.requireNonNull(wrap, "wrap");
    return this;
  }

  /** How FETCH work fetches a page and its same-host redirects: the fetcher, or a test's stand-in. */
  interface PageFetch {
    /**
     * @return the exchanges, one per hop; may suspend
     */
    List<Exchange> fetch(URI uri, InetAddress address, io.krill.crawler.fetch.RedirectCheck check) throws Suspendable;
  }

  /** For tests: wraps the page fetch (to inject a fault into the fetch path of a real crawl). Call before {@link #run()}. */
  Crawler wrapFetch(java.util.function.UnaryOperator<PageFetch> wrap) {
    this.fetchWrap = Objects.requireNonNull(wrap, "wrap");
    return this;
  }

  private void failHost(String hostKey, FetchException e) throws Suspendable {
    List<CrawlUrl> drained = frontier.fail(hostKey);
    List<String> lines = new ArrayList<>();
    List<String> done = new ArrayList<>();
    for (CrawlUrl c : drained) {
      seedFailed(c, e.describe());
      stats.error(kindName(e));
      lines.add(CrawlLine.of(c.url(), "page", c, null, e.describe(), null, 0));
      done.add(c.url());
    }
    writer.submit(new OutputWriter.Commit(List.of(), lines, List.of(), done));
  }

  // ------------------------------------------------------------------ ROBOTS

  private void fetchRobots(Frontier.Work w) throws Suspendable {
    URI robotsUri = URI.create(w.hostKey() + "/robots.txt");
    stats.robotsFetches.increment();
    List<Exchange> hops = fetcher.fetchFollowing(robotsUri, w.address(), (from, to) -> null);
    Exchange last = hops.get(hops.size() - 1);
    List<WarcRecord> records = new ArrayList<>();
    List<String> lines = new ArrayList<>();
    for (Exchange ex : hops) {
      count(ex);
      addRecords(records, ex);
      lines.add(CrawlLine.of(ex.uri().toString(), "robots", null, ex, ex.error() == null ? null : ex.error().describe(), null, 0));
    }
    RobotsPolicy.Decision d = robots.decide(last.uri().toString(), last.error() == null ? last.status() : 0, last.body(),
        last.header("Content-Type"));
    List<CrawlUrl> queued = new ArrayList<>();
    if (d.kind() == RobotsPolicy.Kind.UNREACHABLE) {
      Duration retry = last.retryAfter() != null ? last.retryAfter() : config.robotsRetry;
      int attempts = frontier.robotsUnreachable(w.hostKey(), retry);
      writer.submit(new OutputWriter.Commit(records, lines, queued, List.of()));
      if (attempts >= config.robotsAttempts) {
        failHost(w.hostKey(), new FetchException(FetchException.Kind.ROBOTS, robotsUri.toString(),
            "robots.txt unreachable after " + attempts + " attempts (status " + last.status() + "): disallow all", null));
      }
      return;
    }
    frontier.robotsReady(w.hostKey(), d.allowed(), d.crawlDelay());
    if (config.sitemaps) {
      for (String sm : d.sitemaps()) {
        String n = UrlNormalizer.normalize(sm);
        if (n != null && scope.refusal(n, 1) == null) {
          sitemapUrls.add(n);
          CrawlUrl c = frontier.offerBehind(n, 1, robotsUri.toString()); // DFS too: after the seed
          if (c != null) {
            queued.add(c);
            stats.queued.increment();
          }
        }
      }
    }
    writer.submit(new OutputWriter.Commit(records, lines, queued, List.of()));
  }

  // ------------------------------------------------------------------ FETCH (the Piranha fetch)

  private void fetchPage(Frontier.Work w) throws Suspendable {
    CrawlUrl cu = w.url();
    String hostKey = w.hostKey();
    if (!frontier.robots(hostKey).test(cu.url())) {
      pagesDispatched.decrementAndGet(); // no request: not a page against --max-pages
      seedFailed(cu, "robots: disallowed by robots.txt");
      stats.robotsDisallowed.increment();
      stats.error("robots");
      writer.submit(new OutputWriter.Commit(List.of(), List.of(CrawlLine.of(cu.url(), "page", cu, null,
          "robots: disallowed by robots.txt", null, 0)), List.of(), List.of(cu.url())));
      return;
    }
    RedirectPolicy redirects = new RedirectPolicy(frontier, scope, stats, config.delay, cu, hostKey);
    cu = redirects.page();
    List<Exchange> hops = pageFetch.fetch(URI.create(cu.url()), w.address(), redirects);
    Exchange last = hops.get(hops.size() - 1);
    int status = last.error() == null ? last.status() : 0;
    if ((last.status() == 429 || last.status() == 503) && cu.attempts() < config.maxRetries) {
      retryLater(cu, hostKey, hops, last);
      return;
    }
    if (last.status() == 429 || last.status() == 503) {
      frontier.backOff(hostKey, last.retryAfter());
    } else if (last.error() != null && isConnectionFailure(last.error().kind())) {
      frontier.backOff(hostKey, null);
    } else if (status > 0) {
      frontier.succeeded(hostKey);
    }
    commitPage(cu, hops, redirects.claimed(), redirects.found());
  }

  /** A 429/503 answer: back the host off and queue the URL again; the answer stays in the WARC, the JSONL line comes with the final attempt. */
  private void retryLater(CrawlUrl cu, String hostKey, List<Exchange> hops, Exchange last) throws Suspendable {
    frontier.backOff(hostKey, last.retryAfter());
    frontier.retry(cu.retried());
    stats.retries.increment();
    List<WarcRecord> records = new ArrayList<>();
    for (Exchange ex : hops) {
      count(ex);
      addRecords(records, ex);
    }
    writer.submit(new OutputWriter.Commit(records, List.of(), List.of(), List.of()));
  }

  /** Records every hop (WARC, JSONL, completed) and the links of the last one, as one commit. */
  private void commitPage(CrawlUrl cu, List<Exchange> hops, List<CrawlUrl> hopsClaimed, List<Frontier.Found> found)
      throws Suspendable {
    List<WarcRecord> records = new ArrayList<>();
    List<String> lines = new ArrayList<>();
    List<String> done = new ArrayList<>();
    if (cu.parent() == null && cu.depth() == 0) {
      Exchange first = hops.get(0);
      if (first.error() == null && first.status() > 0) {
        seedAnswered = true;
      } else {
        seedFailed(cu, first.error() != null ? first.error().describe() : "no answer");
      }
    }
    for (int i = 0; i < hops.size(); i++) {
      Exchange ex = hops.get(i);
      count(ex);
      addRecords(records, ex);
      CrawlUrl self = i == 0 ? cu : i - 1 < hopsClaimed.size() ? hopsClaimed.get(i - 1) : null;
      String canonical = null;
      int outlinks = 0;
      if (i == hops.size() - 1 && ex.error() == null && ex.body() != null && ex.status() >= 200 && ex.status() < 300) {
        String[] canon = new String[1];
        outlinks = discover(ex, self != null ? self : cu, found, canon);
        canonical = canon[0];
      }
      boolean sitemap = isSitemap(ex, self);
      lines.add(CrawlLine.of(ex.uri().toString(), sitemap ? "sitemap" : "page", self, ex,
          ex.error() == null ? null : ex.error().describe(), canonical, outlinks));
      done.add(self != null ? self.url() : ex.uri().toString());
      stats.pages.increment();
      if (ex.error() != null) {
        stats.error(kindName(ex.error()));
      } else {
        stats.status(ex.status());
      }
    }
    writer.submit(new OutputWriter.Commit(records, lines, hopsClaimed, done, found));
  }

  private void seedFailed(CrawlUrl c, String why) {
    if (c.parent() == null && c.depth() == 0) {
      seedFailures.putIfAbsent(c.url(), why);
    }
  }

  private static boolean isConnectionFailure(FetchException.Kind k) {
    return k == FetchException.Kind.CONNECT || k == FetchException.Kind.TIMEOUT || k == FetchException.Kind.IO
        || k == FetchException.Kind.SLOW;
  }

  private boolean isSitemap(Exchange ex, CrawlUrl self) {
    String u = ex.uri().toString();
    if (sitemapUrls.contains(u) || (self != null && self.parent() != null && self.parent().endsWith("/robots.txt"))) {
      return true;
    }
    String ct = ex.contentType();
    byte[] b = ex.body();
    if (b == null || ct == null || !(ct.endsWith("/xml") || ct.endsWith("+xml"))) {
      return false;
    }
    String head = new String(b, 0, Math.min(b.length, 512), StandardCharsets.UTF_8);
    return head.contains("<urlset") || head.contains("<sitemapindex");
  }

  /** Extracts and offers outlinks (or sitemap entries); returns how many were found. */
  private int discover(Exchange ex, CrawlUrl from, List<Frontier.Found> changes, String[] canonical) {
    List<String> found;
    int step = 1;
    if (isSitemap(ex, from)) {
      Sitemaps.Listing l = Sitemaps.parse(ex.uri().toString(), ex.header("Content-Type"), ex.body(),
          Sitemaps.DEFAULT_MAX_URLS_PER_SITEMAP);
      for (String sm : l.sitemapUrls()) {
        String n = UrlNormalizer.normalize(sm);
        if (n != null) {
          sitemapUrls.add(n);
        }
      }
      found = new ArrayList<>(l.sitemapUrls());
      found.addAll(l.pageUrls());
      step = 0;
    } else if (LinkExtractor.isHtml(ex.contentType())) {
      LinkExtractor.Links links = LinkExtractor.extract(ex.uri().toString(), ex.body(), ex.header("Content-Type"),
          config.maxLinksPerPage);
      found = links.outlinks();
      canonical[0] = links.canonical();
    } else {
      return 0;
    }
    List<String> targets = new ArrayList<>(found.size());
    for (String link : found) {
      String n = UrlNormalizer.normalize(link);
      if (n != null && scope.refusal(n) == null) {
        targets.add(n); // the frontier applies the depth limit: it remembers a link found too deep
      }
    }
    Frontier.Found f = frontier.found(from, targets, step, ex.uri().toString());
    stats.queued.add(f.added());
    changes.add(f);
    return found.size();
  }

  private void count(Exchange ex) {
    if (ex.requestBytes() != null) {
      stats.requests.increment();
    }
    if (ex.responseBytes() != null) {
      stats.bytes.add(ex.responseBytes().length);
    }
  }

  /* WARC 1.1 reserves "length" for a size cap and "time" for a deadline. */
  private static WarcTruncationReason truncation(Exchange.Truncation t) {
    switch (t) {
      case LENGTH:
        return WarcTruncationReason.LENGTH;
      case TIME:
        return WarcTruncationReason.TIME;
      case UNSPECIFIED:
        return WarcTruncationReason.UNSPECIFIED;
      default:
        return null;
    }
  }

  private static void addRecords(List<WarcRecord> records, Exchange ex) {
    if (ex.requestBytes() == null || ex.requestBytes().length == 0) {
      return;
    }
    try {
      WarcRequest req = WarcOutput.request(ex.uri(), ex.requestBytes(), ex.address(), ex.startedAt());
      records.add(req);
      if (ex.status() > 0 && ex.responseBytes() != null) {
        records.add(WarcOutput.response(ex.uri(), ex.responseBytes(), ex.address(), ex.startedAt(), req.id(),
            truncation(ex.responseTruncation())));
      }
    } catch (IOException | RuntimeException e) {
      // jwarc refused the bytes (not HTTP): the exchange stays in the JSONL log only
    }
  }

  private static String kindName(FetchException e) {
    return e.kind().name().toLowerCase(Locale.ROOT);
  }

}
