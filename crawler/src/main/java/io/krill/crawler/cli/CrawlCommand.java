package io.krill.crawler.cli;

import io.krill.config.CommandOptions;
import io.krill.config.ConfigException;
import io.krill.config.ConfigLoader;
import io.krill.config.ConfigSchema;
import io.krill.config.HostPort;
import io.krill.config.Setting;
import io.krill.config.Settings;
import io.krill.crawler.CrawlConfig;
import io.krill.crawler.CrawlSettings;
import io.krill.crawler.CrawlSummary;
import io.krill.crawler.Crawler;
import io.krill.crawler.cluster.ClusterCrawl;
import io.krill.crawler.cluster.ClusterException;
import io.krill.crawler.cluster.ClusterSettings;
import io.krill.crawler.journal.Journal;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code krill crawl}: the crawler's command line. Its settings flags derive from
 * {@link CrawlSettings} and show their defaults. Bad input (an invalid URL, an unknown flag, an
 * unreadable seed file, a bad value) prints one line naming the flag and exits 2; a failing host
 * never stops the crawl; exit 1 means the output could not be written or a strand could not be
 * started.
 *
 * <p>Threading: runs the crawl on the calling thread (see {@link Crawler#run()}).
 */
@Command(name = "crawl", sortOptions = false, usageHelpAutoWidth = true,
    description = {"Crawl the web from seed URLs, politely, into WARC and JSONL files; resumable after kill -9.",
        "Durations: 500ms, 10s, 2m, 1h. Sizes: 65536, 64KiB, 10MiB, 1GiB."},
    footer = {"", "Every setting may also come from a KRILL_CRAWL_* environment variable (--max-pages is KRILL_CRAWL_MAX_PAGES).",
        "Exit status: 0 done, 1 output could not be written, 2 bad usage."})
public final class CrawlCommand implements Callable<Integer> {
  /** The per-host delay of {@code --demo} unless {@code --delay} is given (robots.txt there asks for more). */
  public static final Duration DEMO_DELAY = Duration.ofMillis(100);

  /** The file in the output directory holding the original arguments, for {@code --resume}. */
  public static final String ARGS_FILE = "crawl-args.txt";

  private static final ConfigSchema SCHEMA = CrawlSettings.BINDING.schema();

  /** The flags {@code --resume} applies over the saved arguments; it refuses every other one. */
  static final List<String> RESUMABLE_FLAGS = List.of("--max-pages", "--max-bytes", "--max-duration", "--delay",
      "--per-host", "--per-ip", "--max-crawl-delay", "--backoff-base", "--backoff-max", "--max-retries",
      "--robots-retry", "--robots-attempts", "--progress", "--progress-interval", "--metrics-port", "--console",
      "--console-token");

  @Parameters(paramLabel = "URL", arity = "0..*", description = "seed URLs (http or https)")
  List<String> seeds = new ArrayList<>();

  @Option(names = "--seeds", paramLabel = "FILE", description = "read seed URLs from FILE, one per line ('#' comments)")
  Path seedFile;

  @Option(names = "--resume", paramLabel = "DIR", description = "continue the crawl journaled in DIR with its original arguments")
  Path resume;

  @Option(names = "--demo", description = "serve the synthetic web (testweb) on loopback in this process and crawl it "
      + "(implies --allow-private, --scope any, --max-depth 8, --delay 100ms, --robots-retry 1s and a new --out crawl-demo-TIME unless given)")
  boolean demo;

  @Option(names = {"-h", "--help"}, usageHelp = true, description = "show this help")
  boolean help;

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  private DemoWeb.Starter demoStarter;
  /* Where a demo crawl's directory keeps its web's port, so that --resume can serve the same URLs. */
  static final String DEMO_PORT_FILE = "demo-web.port";
  /* How long a stop signal waits beyond --total-timeout for the drain and the summary. */
  private static final java.time.Duration STOP_GRACE = java.time.Duration.ofSeconds(30);
  private DemoBroker.Starter demoBroker;
  private CrawlConsole.Starter consoleStarter;
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
   * Registers the broker {@code --demo --nodes N} runs; without one, {@code --nodes} is a usage error.
   *
   * @param starter starts the demo broker
   * @return this
   */
  public CrawlCommand demoBroker(DemoBroker.Starter starter) {
    this.demoBroker = starter;
    return this;
  }

  /**
   * Registers the console {@code --console} serves; without one, {@code --console} is a usage error.
   *
   * @param starter starts the console
   * @return this
   */
  public CrawlCommand console(CrawlConsole.Starter starter) {
    this.consoleStarter = starter;
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
      Settings clusterFlags = CommandOptions.flags(spec, ClusterSettings.SCHEMA, ClusterSettings.SCHEMA.loader()).load();
      Optional<ClusterCrawl.Options> cluster = ClusterCrawl.Options.of(clusterFlags);
      if (cluster.isPresent()) {
        return clusterCrawl(cluster.get(), clusterFlags);
      }
      if (resume != null) {
        return resumeCrawl();
      }
      if (demo && given(ClusterSettings.NODES.flag())) {
        return clusterDemo(clusterFlags.get(ClusterSettings.NODES));
      }
      if (demo) {
        return demo();
      }
      Settings settings = loader(Map.of()).load();
      Path out = startOutput(settings);
      Files.write(out.resolve(ARGS_FILE), originalArgs(), StandardCharsets.UTF_8);
      return crawl(settings, config(settings, false).build());
    } catch (ConfigException e) {
      return CommandOptions.usageError(stderr, "crawl", e);
    } catch (BadUsage | IllegalArgumentException | IllegalStateException | UnsupportedOperationException e) {
      return usageError(e.getMessage());
    } catch (IOException e) {
      return CommandOptions.ioError(stderr, "crawl", "", e);
    }
  }

  /** The settings layers: defaults, environment, {@code implied} values unless flagged, flags. */
  private ConfigLoader loader(Map<Setting<?>, String> implied) {
    ConfigLoader loader = SCHEMA.loader();
    implied.forEach((s, v) -> {
      if (!given(s.flag())) {
        loader.flag(s, v, s.flag());
      }
    });
    return CommandOptions.flags(spec, SCHEMA, loader);
  }

  /** Creates the output directory, refusing one that holds a crawl already. */
  private static Path startOutput(Settings settings) throws IOException {
    Path out = settings.get(CrawlSettings.OUT);
    if (Files.exists(out.resolve(Journal.FILE))) {
      throw new IllegalStateException("out: " + out + " holds a crawl already (use --resume " + out
          + " to continue it, or another directory)");
    }
    return CommandOptions.writableDirectory("--out", out);
  }

  /**
   * @return the arguments as parsed (options with their values, then the seeds), for {@code --resume};
   *     never the console's token, a secret that a file in the output directory would show to
   *     anyone who can read it (a resume takes a new one, or the one given again)
   */
  private List<String> originalArgs() {
    List<String> args = new ArrayList<>();
    CommandLine.ParseResult pr = spec.commandLine().getParseResult();
    for (CommandLine.Model.OptionSpec o : pr.matchedOptions()) {
      if (o.longestName().equals(CrawlSettings.CONSOLE_TOKEN.flag())) {
        continue;
      }
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
   * {@code --demo}: serves the demo web in this process and crawls it, then prints what a crawl
   * of it should have fetched.
   */
  private int demo() throws IOException {
    if (demoStarter == null) {
      throw new BadUsage("--demo: no demo web in this build (run it through bin/krill)");
    }
    if (!seeds.isEmpty() || seedFile != null) {
      throw new BadUsage("--demo crawls the synthetic web; give no seed URLs with it");
    }
    try (DemoWeb web = demoStarter.start(0)) {
      Map<Setting<?>, String> implied = demoImplied(web);
      implied.put(CrawlSettings.OUT, "crawl-demo-" + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
      Settings settings = loader(implied).flag(setting("--allow-private"), "true", "--demo").load();
      seeds = new ArrayList<>(web.seedUrls());
      Path out = startOutput(settings);
      // --resume finds the demo's flags here and serves the web again on the same port (the journal's URLs name it)
      Files.write(out.resolve(ARGS_FILE), originalArgs(), StandardCharsets.UTF_8);
      Files.writeString(out.resolve(DEMO_PORT_FILE), web.port() + "\n", StandardCharsets.UTF_8);
      stderr.println("krill crawl --demo: " + web.describe() + "; crawling into " + out);
      int code = crawl(settings, config(settings, false).resolver(web.newResolver()).build());
      stdout.println("  " + web.expectation(settings.get(CrawlSettings.MAX_DEPTH)));
      stdout.println("  " + web.check(settings.get(CrawlSettings.MAX_DEPTH)));
      return code;
    }
  }

  /* What --demo implies unless flagged: the same on the first run and on --resume. */
  private static Map<Setting<?>, String> demoImplied(DemoWeb web) {
    Map<Setting<?>, String> implied = new LinkedHashMap<>();
    implied.put(CrawlSettings.MAX_DEPTH, Integer.toString(web.maxDepth()));
    implied.put(setting("--delay"), DEMO_DELAY.toMillis() + "ms");
    implied.put(setting("--scope"), "any");
    implied.put(setting("--robots-retry"), "1s");
    return implied;
  }

  /**
   * {@code --demo --nodes N}: the demo web and a broker in this process, N nodes of one crawl in
   * child JVMs; one node is killed with SIGKILL part-way and the others take its partitions over;
   * then the nodes' URLs beside the ground truth.
   */
  private int clusterDemo(int nodes) throws IOException {
    if (demoStarter == null || demoBroker == null) {
      throw new BadUsage("--nodes: no demo web or broker in this build (run it through bin/krill)");
    }
    if (!seeds.isEmpty() || seedFile != null) {
      throw new BadUsage("--demo crawls the synthetic web; give no seed URLs with it");
    }
    String stamp = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
    try (DemoWeb web = demoStarter.start(0)) {
      Map<Setting<?>, String> implied = demoImplied(web);
      implied.put(CrawlSettings.OUT, "crawl-demo-" + stamp);
      implied.put(setting("--progress"), "off");
      Settings settings = loader(implied).flag(setting("--allow-private"), "true", "--demo").load();
      seeds = new ArrayList<>(web.seedUrls());
      Path out = startOutput(settings);
      try (DemoBroker broker = demoBroker.start(out.resolve("broker"))) {
        stderr.println("krill crawl --demo: " + web.describe() + "; a Kafka broker on " + broker.bootstrap() + "; "
            + nodes + " nodes crawling into " + out);
        ClusterDemo demo = new ClusterDemo(new ClusterCrawl.Options(List.of(broker.bootstrap()), "demo-" + stamp,
            io.krill.crawler.cluster.PartitionBy.HOST, ClusterSettings.DEFAULT_PARTITIONS, true,
            ClusterSettings.DEFAULT_CONNECT_TIMEOUT, ClusterSettings.DEFAULT_HANDOVER_TIMEOUT), stdout, stderr);
        int code = demo.run(nodes, nodeArgs(demoImplied(web), web), out);
        stdout.println("  " + web.expectation(settings.get(CrawlSettings.MAX_DEPTH)));
        stdout.println("  " + web.check(settings.get(CrawlSettings.MAX_DEPTH)));
        return code;
      }
    } catch (ClusterException e) {
      stderr.println("krill crawl --demo: " + e.getMessage());
      return 1;
    }
  }

  /*
   * The arguments of a demo node in a child JVM: what --demo implies, the flags given here (but
   * --demo, --nodes, --out and --progress), the web's DNS server and seeds.
   */
  private List<String> nodeArgs(Map<Setting<?>, String> implied, DemoWeb web) {
    List<String> args = new ArrayList<>();
    implied.forEach((s, v) -> {
      if (!given(s.flag())) {
        args.add(s.flag());
        args.add(v);
      }
    });
    List<String> given = originalArgs();
    for (int i = 0; i < given.size(); i++) {
      String a = given.get(i);
      boolean withValue = List.of("--nodes", "--out", "--progress").contains(a);
      if (withValue) {
        i++;
      } else if (!a.equals("--demo")) {
        args.add(a);
      }
    }
    args.addAll(List.of("--allow-private", "--progress", "off", "--dns", web.dns()));
    args.addAll(web.seedUrls());
    return args;
  }

  private static Setting<?> setting(String flag) {
    for (Setting<?> s : SCHEMA.settings()) {
      if (s.flag().equals(flag)) {
        return s;
      }
    }
    throw new IllegalStateException("no setting for " + flag);
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
    original.consoleStarter = consoleStarter;
    try {
      original.commandLine().parseArgs(args.toArray(new String[0]));
    } catch (CommandLine.ParameterException e) {
      throw new BadUsage("--resume: " + argsFile + ": " + e.getMessage());
    }
    refuseFixedFlags(original.demo);
    if (original.demo) {
      return resumeDemo(original, journaled);
    }
    // the saved arguments, then the flags that may change on this command line over them
    ConfigLoader loader = original.loader(Map.of());
    CommandOptions.flags(spec, SCHEMA, loader);
    Settings settings = loader.flag(CrawlSettings.OUT, resume.toString(), "--resume").load();
    return original.crawl(settings, original.config(settings, journaled).build());
  }

  /* A demo crawl resumes against its synthetic web, served again on the port its URLs name. */
  private int resumeDemo(CrawlCommand original, boolean journaled) throws IOException {
    if (demoStarter == null) {
      throw new BadUsage("--resume: " + resume + " is a --demo crawl; resume it through bin/krill");
    }
    Path portFile = resume.resolve(DEMO_PORT_FILE);
    int port;
    try {
      port = Integer.parseInt(Files.readString(portFile, StandardCharsets.UTF_8).trim());
    } catch (IOException | NumberFormatException e) {
      throw new BadUsage("--resume: " + portFile + ": cannot read the demo web's port (" + e.getMessage() + ")");
    }
    try (DemoWeb web = demoStarter.start(port)) {
      ConfigLoader loader = original.loader(demoImplied(web)).flag(setting("--allow-private"), "true", "--demo");
      CommandOptions.flags(spec, SCHEMA, loader);
      Settings settings = loader.flag(CrawlSettings.OUT, resume.toString(), "--resume").load();
      original.seeds = new ArrayList<>(web.seedUrls());
      original.demoStarter = demoStarter;
      stderr.println("krill crawl --demo: " + web.describe() + "; resuming " + resume);
      int code = original.crawl(settings, original.config(settings, journaled).resolver(web.newResolver()).build());
      stdout.println("  " + web.expectation(settings.get(CrawlSettings.MAX_DEPTH)));
      return code;
    }
  }

  /*
   * What a crawl journaled its work under stays: its seeds, scope, output and fetch settings. Limits,
   * politeness, progress and metrics only shape how the rest is fetched, so a resume may change them.
   */
  private void refuseFixedFlags(boolean demoCrawl) {
    List<String> fixed = new ArrayList<>();
    if (!seeds.isEmpty()) {
      fixed.add("URL");
    }
    for (CommandLine.Model.OptionSpec o : spec.commandLine().getParseResult().matchedOptions()) {
      String name = o.longestName();
      if (!name.equals("--resume") && !RESUMABLE_FLAGS.contains(name) && !(demoCrawl && name.equals("--demo"))) {
        fixed.add(name);
      }
    }
    if (!fixed.isEmpty()) {
      throw new BadUsage("--resume continues a crawl with its own " + String.join(", ", fixed)
          + "; only limits, politeness, progress and metrics may change (" + String.join(", ", RESUMABLE_FLAGS) + ")");
    }
  }

  /** The flags every node of a crawl across machines must agree on: they decide which URLs belong to the crawl. */
  static final List<String> CLUSTER_FIXED_FLAGS = List.of("--max-depth", "--scope", "--allow-domain", "--include", "--exclude");

  /** {@code --kafka}: this process is one node of a crawl across machines (or asks for its {@code --status}). */
  private int clusterCrawl(ClusterCrawl.Options options, Settings clusterFlags) throws IOException {
    try {
      if (clusterFlags.get(ClusterSettings.STATUS)) {
        stdout.print(ClusterCrawl.status(options, stderr));
        stdout.flush();
        return 0;
      }
      if (resume != null || demo) {
        throw new BadUsage((resume != null ? "--resume" : "--demo") + " with --kafka: a crawl across machines resumes from"
            + " Kafka (start its nodes again with the same --crawl-id)");
      }
      Settings settings = loader(Map.of()).load();
      CrawlConfig.Builder b = config(settings, false);
      Map<String, String> fixed = new LinkedHashMap<>();
      for (String flag : CLUSTER_FIXED_FLAGS) {
        fixed.put(flag, format(setting(flag), settings));
      }
      List<String> sortedSeeds = new ArrayList<>(seeds);
      if (seedFile != null) {
        sortedSeeds.addAll(readSeeds(seedFile));
      }
      java.util.Collections.sort(sortedSeeds);
      fixed.put("URL", String.join(" ", sortedSeeds));
      ClusterCrawl node = ClusterCrawl.join(options, fixed, stderr);
      Path out = CommandOptions.writableDirectory("--out", node.outputDir(settings.get(CrawlSettings.OUT)));
      Files.write(out.resolve(ARGS_FILE), originalArgs(), StandardCharsets.UTF_8);
      Crawler crawler = Crawler.create(b.out(out).build());
      CrawlConsole console = startConsole(settings, crawler);
      CountDownLatch reported = new CountDownLatch(1);
      // a node stopped by a signal also hands its partitions over before it leaves
      Thread hook = stopHook(crawler, reported, drainMillis(settings) + options.handoverTimeout().toMillis());
      CrawlSummary s;
      try {
        s = node.run(crawler, (Duration) settings.get(setting("--delay")));
        stdout.print(s.toText());
        stdout.flush();
      } finally {
        finish(reported, console, hook);
      }
      return s.succeeded() ? 0 : 1;
    } catch (ClusterException e) {
      if (e.kind() == ClusterException.Kind.MISMATCH) {
        return usageError(e.getMessage());
      }
      stderr.println("krill crawl: " + e.getMessage());
      return 1;
    }
  }

  @SuppressWarnings("unchecked")
  private static String format(Setting<?> s, Settings settings) {
    return ((Setting<Object>) s).format(settings.get(s));
  }

  private int crawl(Settings settings, CrawlConfig config) throws IOException {
    if (settings.get(CrawlSettings.INSECURE)) {
      stderr.println("krill crawl: WARNING: --insecure: TLS certificates and host names are not verified");
    }
    Crawler crawler = Crawler.create(config);
    CrawlConsole console = startConsole(settings, crawler);
    CountDownLatch reported = new CountDownLatch(1);
    Path out = settings.get(CrawlSettings.OUT);
    Thread hook = stopHook(crawler, reported, drainMillis(settings));
    try {
      CrawlSummary s = crawler.run();
      stdout.print(s.toText());
      if (!s.succeeded()) {
        stderr.println("krill crawl: " + s.stoppedBy());
      }
      if (!s.stoppedBy().equals("done") && !s.stoppedBy().startsWith("failed: no seed")) {
        stderr.println("krill crawl: " + s.stoppedBy() + "; to continue: krill crawl --resume " + out);
      }
      stdout.flush();
      stderr.flush();
      return s.succeeded() ? 0 : 1;
    } finally {
      finish(reported, console, hook);
    }
  }

  /**
   * Ends a run on either path (single node or cluster): releases the stop hook that waits for the
   * report, closes the console and removes the hook.
   */
  private static void finish(CountDownLatch reported, CrawlConsole console, Thread hook) {
    reported.countDown();
    if (console != null) {
      console.close();
    }
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException shuttingDown) {
      // the JVM is exiting: the hook is running and has just been released
    }
  }

  /*
   * SIGINT/SIGTERM: stop dispatching, let the fetches in flight finish and be written, and keep
   * the JVM up until {@code reported} says the summary is out (bounded: a fetch ends by its
   * deadline). Without the wait the JVM ends as soon as the hook returns, as after kill -9.
   */
  private static Thread stopHook(Crawler crawler, CountDownLatch reported, long drainMillis) {
    Thread hook = new Thread(() -> {
      crawler.stop();
      try {
        reported.await(drainMillis, TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }, "krill-crawl-stop");
    Runtime.getRuntime().addShutdownHook(hook);
    return hook;
  }

  /* How long a stopped crawl may take to drain: its fetches' deadline and a grace for the writing. */
  private long drainMillis(Settings settings) {
    return ((java.time.Duration) settings.get(setting("--total-timeout"))).toMillis() + STOP_GRACE.toMillis();
  }

  /** Starts {@code --console} if given; a used port or a bad address is a usage error. */
  private CrawlConsole startConsole(Settings settings, Crawler crawler) throws IOException {
    String where = settings.find(CrawlSettings.CONSOLE).orElse(null);
    if (where == null) {
      return null;
    }
    HostPort address = HostPort.parse(CrawlSettings.CONSOLE.flag(), where);
    if (consoleStarter == null) {
      throw new BadUsage("--console: no console in this build (run it through bin/krill)");
    }
    CrawlConsole console;
    String token = settings.find(CrawlSettings.CONSOLE_TOKEN).orElse(null);
    try {
      console = consoleStarter.start(crawler.view(), address.host(), address.port(), token);
    } catch (java.net.BindException e) {
      throw new BadUsage("--console " + where + ": " + e.getMessage());
    } catch (IllegalArgumentException e) {
      throw new BadUsage("--console " + where + ": " + e.getMessage());
    }
    // a token the operator chose is a secret they hold already: not echoed into logs
    stderr.println("krill crawl: console at " + console.url() + " (control token: "
        + (token == null ? console.token() : "the one given with " + CrawlSettings.CONSOLE_TOKEN.flag()) + ")");
    return console;
  }

  /** The configuration the settings and seeds describe; a bad value throws with one clear message. */
  private CrawlConfig.Builder config(Settings settings, boolean resuming) throws IOException {
    CrawlConfig.Builder b = CrawlSettings.BINDING.apply(settings, CrawlConfig.builder()).resume(resuming);
    List<String> all = new ArrayList<>(seeds);
    if (seedFile != null) {
      all.addAll(readSeeds(seedFile));
    }
    if (all.isEmpty() && !resuming) {
      throw new BadUsage("no seed URLs (give URLs, --seeds FILE, --resume DIR or --demo)");
    }
    all.forEach(b::seed);
    return b;
  }

  private static List<String> readSeeds(Path file) throws IOException {
    if (!Files.isReadable(file) || Files.isDirectory(file)) {
      throw new BadUsage("--seeds: cannot read " + file);
    }
    List<String> seeds = new ArrayList<>();
    for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
      String t = line.trim();
      if (!t.isEmpty() && !t.startsWith("#")) {
        seeds.add(t);
      }
    }
    return seeds;
  }

  /** A usage error: one line, exit 2. */
  static final class BadUsage extends RuntimeException {
    private static final long serialVersionUID = 1L;

    BadUsage(String message) {
      super(message);
    }
  }

  /**
   * The command line of this command, with one flag per crawl setting: a usage error prints one
   * line naming the flag and {@code krill crawl --help}, and exits 2.
   *
   * @return the command line; {@code execute(args)} returns 0, 1 (output failure) or 2 (bad usage)
   */
  public CommandLine commandLine() {
    CommandLine cl = new CommandLine(this);
    CommandOptions.addTo(cl.getCommandSpec(), SCHEMA);
    CommandOptions.addTo(cl.getCommandSpec(), ClusterSettings.SCHEMA);
    cl.setOut(new java.io.PrintWriter(stdout, true));
    cl.setErr(new java.io.PrintWriter(stderr, true));
    cl.setParameterExceptionHandler((e, a) -> CommandOptions.usageError(stderr, e));
    return cl;
  }

  private int usageError(String message) {
    return CommandOptions.usageError(stderr, "crawl", message);
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
