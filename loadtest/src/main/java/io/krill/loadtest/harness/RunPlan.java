package io.krill.loadtest.harness;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The expected wall time of a run, printed before it starts: per cell, a fixed cost (two or
 * more JVM starts, opening the connections, stopping) plus the cell's phases, times cells and
 * rounds. The constants were read off runs on this 2-core machine with other work beside
 * them, so the estimate errs long on a quiet machine.
 */
final class RunPlan {
  /** Starting a server and a generator JVM, connecting, stopping: per cell. */
  static final Duration CELL_OVERHEAD = Duration.ofSeconds(5);
  /** Opening connections, on top: per 1,000 connections of a cell. */
  static final Duration PER_THOUSAND_CONNECTIONS = Duration.ofMillis(400);
  /** Idle cells: holding, measuring memory twice and checking every held connection, on top. */
  static final Duration IDLE_EXTRA = Duration.ofSeconds(15);
  /** The crawl scenario, per round: six crawls of 150 s, each in a fresh JVM (start and drain ~10 s each). */
  static final Duration CRAWL_ROUND = Duration.ofMinutes(16);
  /** The crawl scenario, once: starting the 5,000-host web and the 10,000-in-flight check. */
  static final Duration CRAWL_FIXED = Duration.ofMinutes(5);
  /** The crawl scenario in a quick run. */
  static final Duration CRAWL_QUICK = Duration.ofMinutes(2);

  private RunPlan() {}

  /**
   * @param s the run's settings; {@link RunSettings#forScenario} is applied for each scenario
   * @return the estimate per scenario, in run order
   */
  static Map<String, Duration> estimate(RunSettings s, List<Scenario> scenarios) {
    Map<String, Duration> m = new LinkedHashMap<>();
    for (Scenario sc : scenarios) {
      m.merge(sc.name, estimate(s.forScenario(sc), sc), Duration::plus);
    }
    return m;
  }

  /** @return the expected wall time of {@code sc} with {@code s} already set for it */
  static Duration estimate(RunSettings s, Scenario sc) {
    if (sc.kind == Scenario.Kind.CRAWL) {
      return s.quick ? CRAWL_QUICK : CRAWL_FIXED.plus(CRAWL_ROUND.multipliedBy(s.rounds));
    }
    Duration phases = s.warmup.plus(s.measure);
    Duration round = Duration.ZERO;
    for (int n : s.connections(sc)) {
      Duration cell = CELL_OVERHEAD.plus(PER_THOUSAND_CONNECTIONS.multipliedBy(n / 1_000)).plus(phases);
      if (sc.kind == Scenario.Kind.IDLE) {
        cell = cell.plus(phases).plus(IDLE_EXTRA); // the active clients run twice: alone, then beside the idle ones
      }
      if (sc.kind == Scenario.Kind.WRK) {
        cell = cell.plus(PinnedWrkScenario.TYPICAL_LEAD_IN_PER_THOUSAND.multipliedBy(Math.max(1, n / 1_000))); // the connects, before the warm-up
      }
      if (sc.kind == Scenario.Kind.STATIC) {
        cell = cell.plus(s.warmup); // wrk's warm-up run, on top of its measured run
      }
      if (sc == Scenario.HELLO && s.wrk && Wrk.crossChecks(n) && Wrk.available()) {
        cell = cell.plus(s.wrkTime());
      }
      round = round.plus(cell.multipliedBy(s.variants(sc).size()));
    }
    return round.multipliedBy(s.rounds);
  }

  /** @return e.g. {@code "about 44 min (hello 13.5, pipelined 6.5, ...)"} */
  static String describe(Map<String, Duration> perScenario) {
    Duration total = Duration.ZERO;
    StringBuilder b = new StringBuilder();
    for (Map.Entry<String, Duration> e : perScenario.entrySet()) {
      total = total.plus(e.getValue());
      b.append(b.length() == 0 ? "" : ", ").append(e.getKey()).append(' ').append(minutes(e.getValue()));
    }
    return "about " + minutes(total) + " min (" + b + ")";
  }

  private static String minutes(Duration d) {
    return String.format(Locale.ROOT, "%.1f", d.toMillis() / 60_000.0);
  }
}
