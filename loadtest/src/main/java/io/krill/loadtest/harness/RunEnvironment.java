package io.krill.loadtest.harness;

import io.krill.loadtest.internal.Reports;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.stream.Stream;

/**
 * What every harness run records and where it writes: the results directory, the JDK the
 * children run on, the machine line and the commit. Shared by {@code krill loadtest} and
 * {@code krill bench}. Stateless; thread-safe.
 */
public final class RunEnvironment {
  /** Where results go, relative to the project root: {@value}. */
  public static final String RESULTS = "docs/results";

  /** What a date part given for a result's name may hold, as errors say it. */
  public static final String DATE_EXPECTED = "letters, digits, '.', '_' or '-'";

  private RunEnvironment() {}

  /** @return {@code $KRILL_HOME/docs/results} when bin/krill runs, else {@code docs/results} */
  public static Path resultsDir() {
    String home = System.getenv("KRILL_HOME");
    return home != null ? Paths.get(home).resolve(RESULTS) : Paths.get(RESULTS);
  }

  /** @return today's date in UTC, the date part of a result's name */
  public static String today() {
    return LocalDate.now(ZoneOffset.UTC).toString();
  }

  /**
   * @param date a date part given for a result's name (instead of {@link #today()})
   * @return whether it is safe in a file name: see {@link #DATE_EXPECTED}
   */
  public static boolean isDate(String date) {
    return date.matches("[0-9A-Za-z._-]+");
  }

  /**
   * Picks the JDK children run on.
   *
   * @param requested a JDK home, or null for the newest under /usr/lib/jvm (else this JVM's)
   * @return a JDK home with bin/java
   * @throws IllegalArgumentException if {@code requested} has no bin/java
   */
  public static Path pickJdk(Path requested) {
    if (requested != null) {
      if (!Files.isExecutable(requested.resolve("bin").resolve("java"))) {
        throw new IllegalArgumentException("--jdk: " + requested + " (expected: a JDK home with bin/java)");
      }
      return requested;
    }
    Path best = Paths.get(System.getProperty("java.home"));
    int bestFeature = Runtime.version().feature();
    Path jvms = Paths.get("/usr/lib/jvm");
    if (Files.isDirectory(jvms)) {
      try (Stream<Path> dirs = Files.list(jvms)) {
        for (Path d : (Iterable<Path>) dirs.sorted()::iterator) {
          int f = feature(d);
          if (f > bestFeature && Files.isExecutable(d.resolve("bin").resolve("java")) && !Files.isSymbolicLink(d)) {
            best = d;
            bestFeature = f;
          }
        }
      } catch (IOException e) {
        // Keep this JVM's JDK.
      }
    }
    return best;
  }

  /** @return the feature version of a JDK home (this JVM's when it is this JVM's home), or 0 */
  public static int feature(Path home) {
    try {
      return Integer.parseInt(javaVersion(home).split("[.+-]")[0]);
    } catch (IOException | RuntimeException e) {
      return home.equals(Paths.get(System.getProperty("java.home"))) ? Runtime.version().feature() : 0;
    }
  }

  /**
   * @param home a JDK home
   * @return its JAVA_VERSION from the release file
   * @throws IOException if it has none
   */
  public static String javaVersion(Path home) throws IOException {
    return Reports.javaVersion(home);
  }

  /** @return CPUs, memory, CPU model and OS of this machine, in one line */
  public static String machine() {
    StringBuilder b = new StringBuilder();
    b.append(Reports.cpus()).append(" CPUs");
    try {
      for (String l : Files.readAllLines(Paths.get("/proc/meminfo"))) {
        if (l.startsWith("MemTotal:")) {
          long kb = Long.parseLong(l.replaceAll("[^0-9]", ""));
          b.append(", ").append(kb / 1024 / 1024).append(" GB RAM");
        }
      }
      for (String l : Files.readAllLines(Paths.get("/proc/cpuinfo"))) {
        if (l.startsWith("model name")) {
          b.append(", ").append(l.substring(l.indexOf(':') + 1).trim());
          break;
        }
      }
    } catch (IOException | RuntimeException e) {
      // Not Linux: CPUs only.
    }
    b.append(", ").append(System.getProperty("os.name")).append(' ').append(System.getProperty("os.version"));
    return b.toString();
  }

  /** @return the short commit of {@code $KRILL_HOME} (else the working directory), or "unknown" */
  public static String commit() {
    try {
      String home = System.getenv("KRILL_HOME");
      List<String> l = Reports.exec(home == null ? List.of("git", "rev-parse", "--short", "HEAD")
          : List.of("git", "-C", home, "rev-parse", "--short", "HEAD"), false);
      return l.isEmpty() || l.get(0).contains(" ") ? "unknown" : l.get(0).trim();
    } catch (IOException e) {
      return "unknown";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "unknown";
    }
  }

  /** @return the load line of {@code uptime} */
  public static String uptime() {
    return Reports.uptime();
  }
}
