package io.krill.testweb;

import io.krill.config.CommandOptions;
import io.krill.config.ConfigException;
import io.krill.config.ConfigSchema;
import io.krill.config.Settings;
import java.io.IOException;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code krill testweb}: serves the synthetic web in the foreground and prints its DNS server,
 * its seed URL(s) and a {@code krill crawl} command line that crawls it. Its flags derive from
 * {@link TestWebSettings} and show their defaults; a bad value prints one line naming the flag and
 * exits 2.
 *
 * <p>Threading: {@link #call()} blocks the calling thread until the duration ends or the JVM
 * is interrupted (Ctrl-C), then closes the web.
 */
public final class TestWebCommand implements Callable<Integer> {
  private static final ConfigSchema SCHEMA = TestWebSettings.BINDING.schema();

  private final PrintStream out;
  private final PrintStream err;
  private CommandSpec spec;

  private TestWebCommand(PrintStream out, PrintStream err) {
    this.out = out;
    this.err = err;
  }

  /**
   * Builds the command line of {@code krill testweb} for the launcher to register
   * ({@code krill.addSubcommand("testweb", TestWebCommand.commandLine(System.out, System.err))}).
   *
   * @param out where the addresses and the crawl command go
   * @param err where errors go
   * @return the command line; {@code execute(args)} returns 0, 1 (failure) or 2 (bad usage)
   */
  public static CommandLine commandLine(PrintStream out, PrintStream err) {
    TestWebCommand command = new TestWebCommand(out, err);
    command.spec = CommandOptions.spec(command, "testweb", "Serve the synthetic web (virtual hosts on 127.0.x.y, a DNS"
        + " server on 127.0.0.1) in the foreground, and print the command that crawls it. Ctrl-C stops it.", SCHEMA);
    return CommandOptions.commandLine(command.spec, out, err);
  }

  private int usageError(String message) {
    return CommandOptions.usageError(err, "testweb", message);
  }

  @Override
  public Integer call() {
    TestWebConfig config;
    Settings settings;
    try {
      settings = CommandOptions.flags(spec, SCHEMA, SCHEMA.loader()).load();
      config = TestWebSettings.BINDING.build(settings, TestWebConfig.builder(), TestWebConfig.Builder::build);
      SyntheticWeb.of(config); // trap counts are checked against the generated hosts
    } catch (ConfigException e) {
      return CommandOptions.usageError(err, "testweb", e);
    } catch (IllegalArgumentException e) {
      return usageError(e.getMessage());
    }
    int maxDepth = TestWebSettings.depth(settings.get(TestWebSettings.MAX_DEPTH));
    Duration duration = settings.find(TestWebSettings.DURATION).orElse(null);
    TestWeb web;
    try {
      web = TestWeb.start(config);
    } catch (IOException e) {
      return CommandOptions.ioError(err, "testweb", "cannot serve", e);
    }
    describe(web, maxDepth);
    serve(web, duration);
    out.println("krill testweb: stopped after " + web.accessLog().total() + " requests");
    return 0;
  }

  /** Serves until {@code duration} is over ({@code null}: until Ctrl-C or an interrupt), then closes the web. */
  private static void serve(TestWeb web, Duration duration) {
    CountDownLatch stopped = new CountDownLatch(1);
    Thread hook = new Thread(() -> {
      web.close();
      stopped.countDown();
    }, "krill-testweb-shutdown");
    Runtime.getRuntime().addShutdownHook(hook);
    try {
      if (duration == null) {
        stopped.await();
      } else {
        stopped.await(duration.toNanos(), TimeUnit.NANOSECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
        web.close();
      } catch (IllegalStateException shuttingDown) {
        // the hook closes it
      }
    }
  }

  private void describe(TestWeb web, int maxDepth) {
    TestWebConfig c = web.config();
    List<java.net.InetAddress> ips = web.web().addresses();
    out.printf(Locale.ROOT, "krill testweb: %d hosts on %d loopback address%s (%s%s), port %d, seed %d%n", c.hosts(), ips.size(),
        ips.size() == 1 ? "" : "es", ips.get(0).getHostAddress(), ips.size() == 1 ? "" : ".." + ips.get(ips.size() - 1).getHostAddress(),
        web.port(), c.seed());
    out.println("dns:   " + web.dnsServer().getAddress().getHostAddress() + ":" + web.dnsServer().getPort() + " (UDP and TCP)");
    out.println("seeds: " + String.join(" ", web.seedUrls()));
    try {
      GroundTruth truth = web.groundTruth(Scope.builder().maxDepth(maxDepth).build());
      out.printf(Locale.ROOT, "ground truth at depth %d: %d URLs fetched (%d pages), %d disallowed by robots.txt, %d unresolvable, %d hosts%n",
          maxDepth, truth.urls().size(), truth.pages().size(), truth.disallowed().size(), truth.unresolvable().size(),
          truth.hostsContacted().size());
    } catch (IllegalArgumentException e) {
      out.println("ground truth: " + e.getMessage());
    }
    out.println("crawl it: " + crawlCommand(web, maxDepth));
    out.println("serving; Ctrl-C stops");
    out.flush();
  }

  /** @return a {@code krill crawl} command line that crawls {@code web} within depth {@code maxDepth} */
  static String crawlCommand(TestWeb web, int maxDepth) {
    List<String> args = new ArrayList<>(List.of("bin/krill", "crawl", "--dns",
        web.dnsServer().getAddress().getHostAddress() + ":" + web.dnsServer().getPort(), "--allow-private",
        "--scope", "any"));
    if (maxDepth != Scope.UNLIMITED) {
      args.add("--max-depth");
      args.add(Integer.toString(maxDepth));
    }
    args.addAll(web.seedUrls());
    return String.join(" ", args);
  }
}
