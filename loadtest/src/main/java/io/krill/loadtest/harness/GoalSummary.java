package io.krill.loadtest.harness;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The summary of a run of several scenarios, {@code <results>/<date>-summary.md}: every ratio
 * goal of httpd, netio, the crawler and fibers, met or missed, with the number. The load goals
 * come from the scenario reports of this run; the fiber goals, which JMH measures
 * ({@code krill bench fibers}), from the {@code goals} of the newest
 * {@code *-fibers.json} in the results directory, named with its date, or "not measured" when
 * there is none.
 *
 * <p>Threading: one thread.
 */
final class GoalSummary {
  /** The fiber goals' file: {@code <date>-fibers.json}. */
  static final Pattern FIBERS_FILE = Pattern.compile("(\\d{4}-\\d{2}-\\d{2})-fibers\\.json");

  /** One scenario's goals and the report they come from. */
  static final class Section {
    final String scenario;
    final Path report;
    final List<Report.Goal> goals;

    Section(String scenario, Path report, List<Report.Goal> goals) {
      this.scenario = scenario;
      this.report = report;
      this.goals = goals;
    }
  }

  private final RunSettings settings;
  private final List<Section> sections;
  /** The fibers file used, or null. */
  private Path fibersFile;
  private final List<Report.Goal> fiberGoals = new ArrayList<>();
  private String fibersProblem;

  GoalSummary(RunSettings settings, List<Section> sections) {
    this.settings = settings;
    this.sections = sections;
    readFibers();
  }

  /** @return the summary's path */
  Path file() {
    return settings.resultsDir.resolve(settings.date + "-summary.md");
  }

  /** Writes the summary. @return its path */
  Path write() throws IOException {
    Files.createDirectories(settings.resultsDir);
    Files.writeString(file(), markdown(), StandardCharsets.UTF_8);
    return file();
  }

  /** @return the module a scenario's goals belong to */
  static String module(String scenario) {
    switch (scenario) {
      case "echo":
        return "netio";
      case "crawl":
        return "crawler";
      default:
        return "httpd";
    }
  }

  String markdown() {
    StringBuilder b = new StringBuilder();
    b.append("# loadtest: every ratio goal (").append(settings.date).append(")\n\n");
    b.append("Command: `").append(settings.command).append("`  \n");
    b.append("Commit: ").append(settings.commit).append("  \n");
    b.append("JDK of servers and generators: ").append(settings.javaVersion).append("\n\n");
    int met = 0;
    int missed = 0;
    int unmeasured = 0;
    StringBuilder rows = new StringBuilder();
    for (Section s : sections) {
      for (Report.Goal g : s.goals) {
        rows.append(row(module(s.scenario), s.scenario + " ([report](" + link(s.report) + "))", g));
      }
    }
    String fibersSource = fibersFile == null ? "not measured" : "`" + fibersFile.getFileName() + "`";
    for (Report.Goal g : fiberGoals) {
      rows.append(row("fibers", "JMH, " + fibersSource, g));
    }
    if (fiberGoals.isEmpty()) {
      rows.append("| fibers | JMH | every fiber goal | see docs/fibers.md | — | not measured: ")
          .append(fibersProblem).append(" |\n");
    }
    for (String line : rows.toString().split("\n")) {
      String verdict = line.substring(line.lastIndexOf("| ", line.length() - 3) + 2).toLowerCase(Locale.ROOT);
      if (verdict.startsWith("met")) {
        met++;
      } else if (verdict.startsWith("missed")) {
        missed++;
      } else {
        unmeasured++;
      }
    }
    b.append("**").append(met).append(" met, ").append(missed).append(" missed, ").append(unmeasured)
        .append(" not measured.** Load goals: this run's scenario reports (each ratio is a median over rounds, spread in")
        .append(" brackets, both sides from the same round). Fiber goals: ")
        .append(fibersFile == null ? "not measured (no `*-fibers.json` in " + settings.resultsDir
            + "; run `krill bench fibers`)" : "`" + fibersFile.getFileName() + "`, the newest run of "
            + "`krill bench fibers`, dated " + fibersDate())
        .append(".\n\n");
    b.append("| module | from | goal | target | measured | verdict |\n|---|---|---|---|---|---|\n");
    b.append(rows);
    return b.toString();
  }

  private String link(Path report) {
    Path dir = settings.resultsDir.toAbsolutePath().normalize();
    Path r = report.toAbsolutePath().normalize();
    return r.startsWith(dir) ? dir.relativize(r).toString() : r.toString();
  }

  private static String row(String module, String from, Report.Goal g) {
    return "| " + module + " | " + from + " | " + cell(g.goal()) + " | " + cell(g.target()) + " | " + cell(g.measured()) + " | "
        + cell(g.verdict()) + " |\n";
  }

  private static String cell(String s) {
    return s.replace("|", "\\|").replace("\n", " ");
  }

  private String fibersDate() {
    Matcher m = FIBERS_FILE.matcher(fibersFile.getFileName().toString());
    return m.matches() ? m.group(1) : "?";
  }

  /* The newest <date>-fibers.json by its date, and its "goals" array. */
  private void readFibers() {
    Path newest = null;
    if (Files.isDirectory(settings.resultsDir)) {
      try (Stream<Path> files = Files.list(settings.resultsDir)) {
        for (Path p : (Iterable<Path>) files::iterator) {
          if (FIBERS_FILE.matcher(p.getFileName().toString()).matches()
              && (newest == null || p.getFileName().toString().compareTo(newest.getFileName().toString()) > 0)) {
            newest = p;
          }
        }
      } catch (IOException e) {
        fibersProblem = "cannot list " + settings.resultsDir + ": " + e.getMessage();
        return;
      }
    }
    if (newest == null) {
      fibersProblem = "no *-fibers.json in " + settings.resultsDir + " (run krill bench fibers)";
      return;
    }
    try {
      for (JsonNode g : Json.MAPPER.readTree(newest.toFile()).path("goals")) {
        fiberGoals.add(new Report.Goal(g.path("goal").asText(), g.path("target").asText(), g.path("measured").asText(),
            g.path("verdict").asText().toLowerCase(Locale.ROOT)));
      }
      fibersFile = newest;
      if (fiberGoals.isEmpty()) {
        fibersProblem = newest.getFileName() + " lists no goals";
      }
    } catch (IOException e) {
      fibersProblem = "cannot read " + newest + ": " + e.getMessage();
    }
  }
}
