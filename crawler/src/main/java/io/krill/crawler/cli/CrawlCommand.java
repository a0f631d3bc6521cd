package io.krill.crawler.cli;

import io.krill.crawler.CrawlConfig;
import io.krill.crawler.CrawlSummary;
import io.krill.crawler.Crawler;
import io.krill.crawler.fetch.HttpFetcher;
import io.krill.crawler.frontier.Frontier;
import io.krill.crawler.frontier.Scope;
import io.krill.crawler.frontier.SeenSet;
import io.krill.crawler.journal.Journal;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code krill crawl}: the crawler's command line. Every flag maps to a
 * {@link CrawlConfig.Builder} setter and shows its default. Bad input (an invalid URL, an
 * unknown flag, an unreadable seed file, a bad value) prints one line and exits 2; a failing
 * host never stops the crawl; exit 1 means the output could not be written or a strand could not
 * be started.
 *
 * <p>Threading: runs the crawl on the calling thread (see {@link Crawler#run()}).
 */
@Command(name = "crawl", sortOptions = false, usageHelpAutoWidth = true,
    description = {"Crawl the web from seed URLs, politely, into WARC and JSONL files; resumable after kill -9.",
        "Durations: 500ms, 10s, 2m, 1h. Sizes: 65536, 64KiB, 10MiB, 1GiB."},
    footer = {"", "Exit status: 0 done, 1 output could not be written, 2 bad usage."})
public final class CrawlCommand implements Callable<Integer> {
  /** The per-host delay of {@code --demo} unless {@code --delay} is given (robots.txt there asks for more). */
  public static final Duration DEMO_DELAY = Duration.ofMillis(100);

  /** The file in the output directory holding the original arguments, for {@code --resume}. */
  public static final String ARGS_FILE = "crawl-args.txt";

  @Parameters(paramLabel = "URL", arity = "0..*", description = "seed URLs (http or https)")
  List<String> seeds = new ArrayList<>();

  @Option(names = "--seeds", paramLabel = "FILE", description = "read seed URLs from FILE, one per line ('#' comments)")
  Path seedFile;

  @Option(names = "--out", paramLabel = "DIR", description = "output directory (default: ${DEFAULT-VALUE})")
  Path out = CrawlConfig.DEFAULT_OUT;

  @Option(names = "--resume", paramLabel = "DIR", description = "continue the crawl journaled in DIR with its original arguments")
  Path resume;

  @Option(names = "--demo", description = "serve the synthetic web (testweb) on loopback in this process and crawl it "
      + "(implies --allow-private, --scope any, --max-depth 8, --delay 100ms, --robots-retry 1s and a new --out crawl-demo-TIME unless given)")
  boolean demo;

  @Option(names = "--mode", paramLabel = "MODE", description = "fibers, threads or virtual (default: ${DEFAULT-VALUE})")
  String mode = "fibers";

  @Option(names = "--threads", paramLabel = "N", description = "platform threads for --mode threads (default: ${DEFAULT-VALUE})")
  int threads = CrawlConfig.DEFAULT_THREADS;

  @Option(names = "--naive", description = "a new fiber/thread per URL with no pool and no in-flight cap (the Piranha program)")
  boolean naive;

  @Option(names = "--max-in-flight", paramLabel = "N", description = "fetches in flight at once (default: ${DEFAULT-VALUE})")
  int maxInFlight = CrawlConfig.DEFAULT_MAX_IN_FLIGHT;

  @Option(names = "--carriers", paramLabel = "N", description = "event-loop threads (default: number of cores)")
  Integer carriers;

  @Option(names = "--order", paramLabel = "ORDER", description = "bfs, dfs or random (default: ${DEFAULT-VALUE})")
  String order = "bfs";

  @Option(names = "--scope", paramLabel = "SCOPE", description = "host, domain or any (default: ${DEFAULT-VALUE})")
  String scope = "host";

  @Option(names = "--allow-domain", paramLabel = "DOMAIN", description = "only crawl these domains and their subdomains (repeatable)")
  List<String> allowDomains = new ArrayList<>();

  @Option(names = "--include", paramLabel = "REGEX", description = "only crawl URLs matching one of these (repeatable)")
  List<String> include = new ArrayList<>();

  @Option(names = "--exclude", paramLabel = "REGEX", description = "skip URLs matching any of these (repeatable)")
  List<String> exclude = new ArrayList<>();

  @Option(names = "--max-depth", paramLabel = "N", description = "links from a seed (default: ${DEFAULT-VALUE})")
  int maxDepth = CrawlConfig.DEFAULT_MAX_DEPTH;

  @Option(names = "--max-pages", paramLabel = "N", description = "pages to fetch at most (default: ${DEFAULT-VALUE})")
  long maxPages = CrawlConfig.DEFAULT_MAX_PAGES;

  @Option(names = "--max-bytes", paramLabel = "SIZE", converter = Units.SizeConverter.class,
      description = "bytes to receive at most (default: 1GiB)")
  long maxBytes = CrawlConfig.DEFAULT_MAX_BYTES;

  @Option(names = "--max-duration", paramLabel = "TIME", converter = Units.DurationConverter.class,
      description = "crawl time at most (default: 1h)")
  Duration maxDuration = CrawlConfig.DEFAULT_MAX_DURATION;

  @Option(names = "--delay", paramLabel = "TIME", converter = Units.DurationConverter.class,
      description = "wait before each request to a host, counted from the previous one's start and end (default: 1s)")
  Duration delay = CrawlConfig.DEFAULT_DELAY;

  @Option(names = "--per-host", paramLabel = "N", description = "requests in flight per host (default: ${DEFAULT-VALUE})")
  int perHost = CrawlConfig.DEFAULT_PER_HOST;

  @Option(names = "--per-ip", paramLabel = "N", description = "requests in flight per IP address (default: ${DEFAULT-VALUE})")
  int perIp = CrawlConfig.DEFAULT_PER_IP;

  @Option(names = "--max-crawl-delay", paramLabel = "TIME", converter = Units.DurationConverter.class,
      description = "cap on a robots.txt Crawl-delay (default: 30s)")
  Duration maxCrawlDelay = CrawlConfig.DEFAULT_MAX_CRAWL_DELAY;

  @Option(names = "--backoff-base", paramLabel = "TIME", converter = Units.DurationConverter.class,
      description = "first back-off after 429/503 or a failed connection (default: 1s)")
  Duration backoffBase = CrawlConfig.DEFAULT_BACKOFF_BASE;

  @Option(names = "--backoff-max", paramLabel = "TIME", converter = Units.DurationConverter.class,
      description = "longest back-off (default: 5m)")
  Duration backoffMax = CrawlConfig.DEFAULT_BACKOFF_MAX;

  @Option(names = "--max-retries", paramLabel = "N", description = "retries of a URL answered 429/503 (default: ${DEFAULT-VALUE})")
  int maxRetries = CrawlConfig.DEFAULT_MAX_RETRIES;

  @Option(names = "--robots-retry", paramLabel = "TIME", converter = Units.DurationConverter.class,
      description = "wait before fetching an unreachable robots.txt again (default: 60s)")
  Duration robotsRetry = CrawlConfig.DEFAULT_ROBOTS_RETRY;

  @Option(names = "--robots-attempts", paramLabel = "N",
      description = "robots.txt attempts before a host's URLs are given up (default: ${DEFAULT-VALUE})")
  int robotsAttempts = CrawlConfig.DEFAULT_ROBOTS_ATTEMPTS;

  @Option(names = "--robots-agent", paramLabel = "TOKEN", description = "robots.txt product token (default: ${DEFAULT-VALUE})")
  String robotsAgent = CrawlConfig.DEFAULT_ROBOTS_AGENT;

  @Option(names = "--no-sitemaps", description = "do not follow sitemaps listed in robots.txt")
  boolean noSitemaps;

  @Option(names = "--user-agent", paramLabel = "UA", description = "User-Agent header (default: ${DEFAULT-VALUE})")
  String userAgent = HttpFetcher.DEFAULT_USER_AGENT;

  @Option(names = "--connect-timeout", paramLabel = "TIME", converter = Units.DurationConverter.class,
      description = "TCP connect and TLS handshake (default: 10s)")
  Duration connectTimeout = HttpFetcher.DEFAULT_CONNECT_TIMEOUT;

  @Option(names = "--read-timeout", paramLabel = "TIME", converter = Units.DurationConverter.class,
      description = "longest silence while a response is due (default: 30s)")
  Duration readTimeout = HttpFetcher.DEFAULT_READ_TIMEOUT;

  @Option(names = "--total-timeout", paramLabel = "TIME", converter = Units.DurationConverter.class,
      description = "one whole request/response (default: 60s)")
  Duration totalTimeout = HttpFetcher.DEFAULT_TOTAL_TIMEOUT;

  @Option(names = "--min-rate", paramLabel = "SIZE", converter = Units.SizeConverter.class,
      description = "slow-drip guard: minimum bytes per second after --slow-grace, 0 off (default: 1KiB)")
  long minRate = HttpFetcher.DEFAULT_MIN_BYTES_PER_SECOND;

  @Option(names = "--slow-grace", paramLabel = "TIME", converter = Units.DurationConverter.class,
      description = "time before the slow-drip guard applies (default: 5s)")
  Duration slowGrace = HttpFetcher.DEFAULT_SLOW_GRACE;

  @Option(names = "--max-body", paramLabel = "SIZE", converter = Units.SizeConverter.class,
      description = "body bytes as received (default: 10MiB)")
  long maxBody = HttpFetcher.DEFAULT_MAX_BODY_BYTES;

  @Option(names = "--max-decompressed", paramLabel = "SIZE", converter = Units.SizeConverter.class,
      description = "body after gzip/deflate, the bomb guard (default: 50MiB)")
  long maxDecompressed = HttpFetcher.DEFAULT_MAX_DECOMPRESSED_BYTES;

  @Option(names = "--max-redirects", paramLabel = "N", description = "redirects followed (default: ${DEFAULT-VALUE})")
  int maxRedirects = HttpFetcher.DEFAULT_MAX_REDIRECTS;

  @Option(names = "--insecure", description = "do not verify TLS certificates (prints a warning)")
  boolean insecure;

  @Option(names = "--allow-private", description = "allow private, loopback and link-local addresses (tests, the demo)")
  boolean allowPrivate;

  @Option(names = "--dns", paramLabel = "HOST:PORT", description = "DNS server (repeatable; default: the system's)")
  List<String> dns = new ArrayList<>();

  @Option(names = "--warc-max-size", paramLabel = "SIZE", converter = Units.SizeConverter.class,
      description = "start a new WARC file past this size (default: 1GiB)")
  long warcMaxSize = io.krill.crawler.output.WarcOutput.DEFAULT_MAX_FILE_BYTES;

  @Option(names = "--no-warc-gzip", description = "write .warc instead of .warc.gz")
  boolean noWarcGzip;

  @Option(names = "--warc-gzip-level", paramLabel = "N",
      description = "deflate level of .warc.gz records, 1 (fastest) to 9 (smallest) (default: 6)")
  int warcGzipLevel = io.krill.crawler.output.WarcOutput.DEFAULT_GZIP_LEVEL;

  @Option(names = "--fsync", paramLabel = "POLICY", description = "always, batch or never (default: ${DEFAULT-VALUE})")
  String fsync = "batch";

  @Option(names = "--fsync-interval", paramLabel = "TIME", converter = Units.DurationConverter.class,
      description = "interval of --fsync batch (default: 1s)")
  Duration fsyncInterval = CrawlConfig.DEFAULT_FSYNC_INTERVAL;

  @Option(names = "--checkpoint-lines", paramLabel = "N", description = "journal lines between checkpoints (default: ${DEFAULT-VALUE})")
  long checkpointLines = CrawlConfig.DEFAULT_CHECKPOINT_LINES;

  @Option(names = "--seen-memory", paramLabel = "SIZE", converter = Units.SizeConverter.class,
      description = "memory for the exact seen-set before it becomes a Bloom filter (default: 64MiB)")
  long seenMemory = SeenSet.DEFAULT_MEMORY_BUDGET;

  @Option(names = "--bloom-expected", paramLabel = "N", description = "URLs the Bloom filter is sized for (default: ${DEFAULT-VALUE})")
  long bloomExpected = SeenSet.DEFAULT_BLOOM_EXPECTED;

  @Option(names = "--bloom-fpp", paramLabel = "P", description = "Bloom false-positive rate (default: ${DEFAULT-VALUE})")
  double bloomFpp = SeenSet.DEFAULT_BLOOM_FPP;

  @Option(names = "--progress", paramLabel = "HOW", description = "auto, tty, plain or off (default: ${DEFAULT-VALUE})")
  String progress = "auto";

  @Option(names = "--progress-interval", paramLabel = "TIME", converter = Units.DurationConverter.class,
      description = "interval of plain progress lines (default: 10s)")
  Duration progressInterval = CrawlConfig.DEFAULT_PROGRESS_INTERVAL;

  @Option(names = "--metrics-port", paramLabel = "PORT", description = "serve OpenMetrics at http://127.0.0.1:PORT/metrics (default: off)")
  Integer metricsPort;

  @Option(names = {"-h", "--help"}, usageHelp = true, description = "show this help")
  boolean help;

  private DemoWeb.Starter demoStarter;
  private PrintStream stdout = System.out;
  private PrintStream stderr = System.err;

  /** @param out where the summary goes @param err where errors go @return this */
  public CrawlCommand streams(PrintStream out, PrintStream err) {
    this.stdout = out;
    this.stderr = err;
    return this;
  }

  /**
   * Registers the web {@code --demo} serves and crawls; without one, {@code --demo} is a usage error.
   *
   * @param starter starts the demo web
   * @return this
   */
  public CrawlCommand demo(DemoWeb.Starter starter) {
    this.demoStarter = starter;
    return this;
  }

  /**
   * Runs the crawl the flags describe.
   *
   * @return the exit status: 0 done, 1 output failure, 2 bad usage
   */
  @Override
  public Integer call() {
    try {
      if (resume != null) {
        return resumeCrawl();
      }
      if (demo) {
        return demo();
      }
      CrawlConfig config = config(false);
      Path argsFile = out.resolve(ARGS_FILE);
      if (Files.exists(out.resolve(Journal.FILE))) {
        throw new IllegalStateException("out: " + out + " holds a crawl already (use --resume " + out
            + " to continue it, or another directory)");
      }
      Files.createDirectories(out);
      Files.write(argsFile, originalArgs(), StandardCharsets.UTF_8);
      return crawl(config);
    } catch (BadUsage | IllegalArgumentException | IllegalStateException | UnsupportedOperationException e) {
      stderr.println("krill crawl: " + e.getMessage());
      return 2;
    } catch (IOException e) {
      stderr.println("krill crawl: " + e.getMessage());
      return 1;
    }
  }

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  /** @return the arguments as parsed (options with their values, then the seeds), for {@code --resume} */
  private List<String> originalArgs() {
    List<String> args = new ArrayList<>();
    CommandLine.ParseResult pr = spec.commandLine().getParseResult();
    for (CommandLine.Model.OptionSpec o : pr.matchedOptions()) {
      for (String v : o.originalStringValues().isEmpty() ? List.of("") : o.originalStringValues()) {
        args.add(o.longestName());
        if (o.arity().max() > 0) {
          args.add(v);
        }
      }
    }
    for (CommandLine.Model.PositionalParamSpec p : pr.matchedPositionals()) {
      args.addAll(p.originalStringValues());
    }
    return args;
  }

  private boolean given(String option) {
    return spec != null && spec.commandLine().getParseResult() != null
        && spec.commandLine().getParseResult().hasMatchedOption(option);
  }

  /**
   * {@code --demo}: serves the synthetic web (testweb) in this process and crawls it, then
   * compares what was fetched with the web's ground truth.
   */
  private int demo() throws IOException {
    if (demoStarter == null) {
      throw new BadUsage("--demo: no demo web in this build (run it through bin/krill)");
    }
    if (!seeds.isEmpty() || seedFile != null) {
      throw new BadUsage("--demo crawls the synthetic web; give no seed URLs with it");
    }
    if (!given("--out")) {
      out = out.resolveSibling("crawl-demo-" + java.time.LocalDateTime.now().format(
          java.time.format.DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
    }
    if (Files.exists(out.resolve(Journal.FILE))) {
      throw new IllegalStateException("out: " + out + " holds a crawl already (use another --out)");
    }
    try (DemoWeb web = demoStarter.start()) {
      if (!given("--max-depth")) {
        maxDepth = web.maxDepth();
      }
      if (!given("--delay")) {
        delay = DEMO_DELAY;
      }
      if (!given("--scope")) {
        scope = "any";
      }
      if (!given("--robots-retry")) {
        robotsRetry = Duration.ofSeconds(1);
      }
      allowPrivate = true;
      seeds = new ArrayList<>(web.seedUrls());
      stderr.println("krill crawl --demo: " + web.describe() + "; crawling into " + out);
      CrawlConfig.Builder b = builder(false).resolver(web.newResolver());
      Files.createDirectories(out);
      int code = crawl(b.build());
      stdout.println("  " + web.expectation(maxDepth));
      return code;
    }
  }

  private int resumeCrawl() throws IOException {
    Path argsFile = resume.resolve(ARGS_FILE);
    if (!Files.isReadable(argsFile)) {
      throw new BadUsage("--resume: " + resume + " holds no crawl (no " + ARGS_FILE + ")");
    }
    // killed before the journal was created: nothing was committed, so start over with the same arguments
    boolean journaled = Files.isRegularFile(resume.resolve(Journal.FILE));
    List<String> args = Files.readAllLines(argsFile, StandardCharsets.UTF_8);
    CrawlCommand original = new CrawlCommand().streams(stdout, stderr);
    try {
      new CommandLine(original).parseArgs(args.toArray(new String[0]));
    } catch (CommandLine.ParameterException e) {
      throw new BadUsage("--resume: " + argsFile + ": " + e.getMessage());
    }
    original.out = resume;
    return original.crawl(original.config(journaled));
  }

  private int crawl(CrawlConfig config) throws IOException {
    Crawler crawler = Crawler.create(config);
    Thread hook = new Thread(crawler::stop, "krill-crawl-stop");
    Runtime.getRuntime().addShutdownHook(hook);
    CrawlSummary s;
    try {
      s = crawler.run();
    } finally {
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
      } catch (IllegalStateException shuttingDown) {
        // the JVM is exiting: the hook already ran
      }
    }
    stdout.print(s.toText());
    stdout.flush();
    return s.succeeded() ? 0 : 1;
  }

  /** Builds the configuration; a bad value throws with one clear message. */
  CrawlConfig config(boolean resuming) throws IOException {
    return builder(resuming).build();
  }

  private CrawlConfig.Builder builder(boolean resuming) throws IOException {
    CrawlConfig.Builder b = CrawlConfig.builder().out(out).resume(resuming);
    List<String> all = new ArrayList<>(seeds);
    if (seedFile != null) {
      if (!Files.isReadable(seedFile) || Files.isDirectory(seedFile)) {
        throw new BadUsage("--seeds: cannot read " + seedFile);
      }
      for (String line : Files.readAllLines(seedFile, StandardCharsets.UTF_8)) {
        String t = line.trim();
        if (!t.isEmpty() && !t.startsWith("#")) {
          all.add(t);
        }
      }
    }
    if (all.isEmpty() && !resuming) {
      throw new BadUsage("no seed URLs (give URLs, --seeds FILE, --resume DIR or --demo)");
    }
    for (String s : all) {
      b.seed(s);
    }
    b.mode(choice("--mode", mode, CrawlConfig.Mode.class)).threads(threads).naive(naive).maxInFlight(maxInFlight);
    if (carriers != null) {
      b.carriers(carriers);
    }
    b.order(choice("--order", order, Frontier.Order.class)).scope(choice("--scope", scope, Scope.Kind.class));
    allowDomains.forEach(b::allowDomain);
    include.forEach(b::include);
    exclude.forEach(b::exclude);
    b.maxDepth(maxDepth).maxPages(maxPages).maxBytes(maxBytes).maxDuration(maxDuration).delay(delay).perHost(perHost)
        .perIp(perIp).maxCrawlDelay(maxCrawlDelay).backoffBase(backoffBase).backoffMax(backoffMax).maxRetries(maxRetries)
        .robotsRetry(robotsRetry).robotsAttempts(robotsAttempts).robotsAgent(robotsAgent).sitemaps(!noSitemaps)
        .userAgent(userAgent).connectTimeout(connectTimeout).readTimeout(readTimeout).totalTimeout(totalTimeout)
        .minBytesPerSecond(minRate).slowGrace(slowGrace).maxBodyBytes(maxBody).maxDecompressedBytes(maxDecompressed)
        .maxRedirects(maxRedirects).insecure(insecure).allowPrivate(allowPrivate).warcMaxSize(warcMaxSize)
        .warcGzip(!noWarcGzip).warcGzipLevel(warcGzipLevel).fsync(choice("--fsync", fsync, CrawlConfig.Fsync.class)).fsyncInterval(fsyncInterval)
        .checkpointLines(checkpointLines).seenMemory(seenMemory).bloomExpected(bloomExpected).bloomFpp(bloomFpp)
        .progress(choice("--progress", progress, CrawlConfig.Progress.class)).progressInterval(progressInterval);
    for (String d : dns) {
      b.dnsServer(hostPort(d));
    }
    if (metricsPort != null) {
      b.metricsPort(metricsPort);
    }
    return b;
  }

  private static InetSocketAddress hostPort(String s) {
    int colon = s.lastIndexOf(':');
    try {
      if (colon > 0) {
        return new InetSocketAddress(s.substring(0, colon), Integer.parseInt(s.substring(colon + 1)));
      }
      return new InetSocketAddress(s, 53);
    } catch (IllegalArgumentException e) {
      throw new BadUsage("--dns: '" + s + "' (expected: HOST or HOST:PORT)");
    }
  }

  private static <E extends Enum<E>> E choice(String flag, String value, Class<E> type) {
    for (E e : type.getEnumConstants()) {
      if (e.name().equalsIgnoreCase(value)) {
        return e;
      }
    }
    List<String> names = new ArrayList<>();
    for (E e : type.getEnumConstants()) {
      names.add(e.name().toLowerCase(java.util.Locale.ROOT));
    }
    throw new BadUsage(flag + ": '" + value + "' (expected one of: " + String.join(", ", names) + ")");
  }

  /** A usage error: one line, exit 2. */
  static final class BadUsage extends RuntimeException {
    private static final long serialVersionUID = 1L;

    BadUsage(String message) {
      super(message);
    }
  }

  /**
   * The command line of this command: a usage error prints one line naming the flag and
   * {@code krill crawl --help}, and exits 2.
   *
   * @return the command line; {@code execute(args)} returns 0, 1 (output failure) or 2 (bad usage)
   */
  public CommandLine commandLine() {
    CommandLine cl = new CommandLine(this);
    cl.setParameterExceptionHandler((e, a) -> {
      stderr.println("krill crawl: " + e.getMessage() + " (see krill crawl --help)");
      return 2;
    });
    return cl;
  }

  /**
   * Runs {@code krill crawl} standalone (the launcher registers this command as a subcommand).
   *
   * @param args the arguments after {@code crawl}
   * @return the exit status
   */
  public static int run(String... args) {
    return new CrawlCommand().commandLine().execute(args);
  }
}
