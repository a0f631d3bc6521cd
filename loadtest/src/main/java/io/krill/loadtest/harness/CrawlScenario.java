package io.krill.loadtest.harness;

import io.krill.loadtest.internal.Reports;
import java.io.PrintStream;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The crawler comparison of issue 6: pages per second of {@code krill crawl --demo} (which
 * serves the synthetic web of testweb in the same process and crawls it) in each execution
 * mode, interleaved, each crawl in its own JVM writing to the report's {@code logs/} directory.
 * Runs only when the launcher on the classpath has the {@code crawl} subcommand; otherwise
 * every row says the crawler is not yet available.
 *
 * <p>The flags per variant are the crawler's ({@code --mode fibers|threads|virtual},
 * {@code --threads N}, {@code --naive}); the figure is read from the crawl summary's
 * {@code N pages (P/s)}, the last such line of its output. The demo's synthetic web has the
 * testweb defaults, not yet issue 6's 5,000 hosts with 50 ms per request: the report says so.
 */
final class CrawlScenario {
  /** Variant name to the crawl flags that select it. */
  static final Map<String, List<String>> FLAGS = Map.of(
      "fibers", List.of("--mode", "fibers"),
      "threads-32", List.of("--mode", "threads", "--threads", "32"),
      "threads-512", List.of("--mode", "threads", "--threads", "512"),
      "virtual", List.of("--mode", "virtual"),
      "naive-fibers", List.of("--mode", "fibers", "--naive"),
      "naive-threads", List.of("--mode", "threads", "--naive"));
  /** The launcher class whose subcommands are checked. */
  static final String LAUNCHER = "io.krill.cli.Krill";
  private static final Pattern PAGES = Pattern.compile("[0-9]+ pages \\(([0-9.]+)/s\\)");

  private final RunSettings settings;
  private final PrintStream out;
  private final Path logs;

  CrawlScenario(RunSettings settings, PrintStream out, Path logs) {
    this.settings = settings;
    this.out = out;
    this.logs = logs;
  }

  /** @return null when the crawler can run here, else why not */
  static String unavailable() {
    try {
      Class<?> launcher = Class.forName(LAUNCHER);
      List<String> names = subcommands(launcher);
      if (names.contains("crawl")) {
        return null;
      }
      return "not yet available: the launcher has no 'crawl' subcommand in this build (issue 6's crawler is not merged)";
    } catch (ClassNotFoundException e) {
      return "not yet available: no krill launcher on the classpath (run it through bin/krill loadtest)";
    }
  }

  /* Reads picocli's @Command(subcommands = ...) by reflection: loadtest must not depend on cli. */
  private static List<String> subcommands(Class<?> launcher) {
    List<String> names = new ArrayList<>();
    for (Annotation a : launcher.getAnnotations()) {
      if (!a.annotationType().getSimpleName().equals("Command")) {
        continue;
      }
      try {
        Method sub = a.annotationType().getMethod("subcommands");
        for (Class<?> c : (Class<?>[]) sub.invoke(a)) {
          for (Annotation ca : c.getAnnotations()) {
            if (ca.annotationType().getSimpleName().equals("Command")) {
              names.add((String) ca.annotationType().getMethod("name").invoke(ca));
            }
          }
        }
      } catch (ReflectiveOperationException e) {
        return names;
      }
    }
    return names;
  }

  List<Cell> run(Scenario s) throws InterruptedException {
    List<Cell> cells = new ArrayList<>();
    String why = unavailable();
    List<String> variants = settings.variants(s);
    for (int round = 1; round <= (why == null ? settings.rounds : 1); round++) {
      for (String variant : variants) {
        Cell c = new Cell(s.name, variant, 0, round);
        if (why != null) {
          c.skipped = why;
        } else {
          crawl(c);
        }
        cells.add(c);
        out.println("crawl round " + round + " " + variant + ": " + LoadtestRun.summary(c)
            + (Double.isNaN(c.pagesPerSecond) ? "" : " " + c.pagesPerSecond + " pages/s"));
      }
    }
    return cells;
  }

  private void crawl(Cell c) throws InterruptedException {
    List<String> cmd = new LoadtestRun(settings, out, logs).jvm();
    cmd.addAll(List.of(LAUNCHER, "crawl", "--demo", "--progress", "off", "--out",
        logs.resolve("crawl-" + c.variant + "-" + c.round).toString()));
    cmd.addAll(FLAGS.get(c.variant));
    try {
      List<String> lines = Reports.exec(cmd, false);
      for (String l : lines) {
        Matcher m = PAGES.matcher(l);
        if (m.find()) {
          c.pagesPerSecond = Double.parseDouble(m.group(1));
        }
      }
      if (Double.isNaN(c.pagesPerSecond)) {
        c.error = "no 'N pages (P/s)' summary in the crawl's output (last line: "
            + (lines.isEmpty() ? "none" : lines.get(lines.size() - 1)) + ")";
      }
    } catch (java.io.IOException e) {
      c.error = e.getMessage();
    }
  }
}
