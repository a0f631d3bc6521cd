package io.krill.loadtest.harness;

import io.krill.config.ConfigSchema;
import io.krill.config.Setting;
import io.krill.config.Settings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The settings of {@code krill loadtest}, one schema under {@code loadtest.}: its flags, its
 * {@code --help} and the docs' table derive from it. Defaults are {@link RunSettings}'s
 * {@code DEFAULT_*} constants; rounds, warm-up and measured time default per scenario and run
 * kind, so they have none here. Immutable; thread-safe.
 */
final class LoadtestSettings {
  /** Most connections one cell or generator may open (the 20,000-file cap per process, with headroom). */
  static final int MAX_CONNECTIONS = 19_500;

  static final Setting<List<String>> SCENARIO = Setting.ofStringList("loadtest.scenario")
      .defaultValue(List.of(Scenario.HELLO.name))
      .check(l -> !l.isEmpty() && l.stream().allMatch(n -> n.equals("all") || Scenario.BY_NAME.containsKey(n)),
          "some of " + Scenario.BY_NAME.keySet() + ", or all")
      .doc("Scenarios to run, comma-separated, or all (default: " + Scenario.HELLO.name + ")").build();
  static final Setting<Boolean> QUICK = Setting.ofBoolean("loadtest.quick").defaultValue(false)
      .doc("1 round, 1 s warm-up, 2 s measured, the smaller connection counts").build();
  static final Setting<Integer> ROUNDS = Setting.ofInt("loadtest.rounds").optional().range(1, 20)
      .doc("Interleaved rounds (default: " + Scenario.DEFAULT_ROUNDS + "; slow-handler and idle "
          + Scenario.DEFAULT_LONG_ROUNDS + "; quick 1)").build();
  static final Setting<Long> WARMUP_MS = Setting.ofLong("loadtest.warmup-ms").optional().range(0L, 600_000L)
      .doc("Warm-up per cell in ms (default: " + RunSettings.DEFAULT_WARMUP.toMillis() + "; quick "
          + RunSettings.QUICK_WARMUP.toMillis() + ")").build();
  static final Setting<Long> MEASURE_MS = Setting.ofLong("loadtest.measure-ms").optional().range(100L, 3_600_000L)
      .doc("Measured time per cell in ms (default: " + RunSettings.DEFAULT_MEASURE.toMillis() + "; quick "
          + RunSettings.QUICK_MEASURE.toMillis() + ")").build();
  static final Setting<List<String>> CONNECTIONS = Setting.ofStringList("loadtest.connections").defaultValue(List.of())
      .check(l -> l.stream().allMatch(LoadtestSettings::isConnectionCount), "whole numbers 1.." + MAX_CONNECTIONS)
      .doc("Connection counts, comma-separated, instead of each scenario's (default: the scenario's)").build();
  static final Setting<List<String>> VARIANTS = Setting.ofStringList("loadtest.variants").defaultValue(List.of())
      .check(l -> l.stream().allMatch(LoadtestSettings::isVariant), "some of " + Scenario.HTTP_VARIANTS + ", echo "
          + Scenario.ECHO_VARIANTS + ", crawl " + CrawlScenario.FLAGS.keySet() + ", static " + StaticScenario.VARIANTS
          + ", h2-hello " + Scenario.H2_VARIANTS + ", websocket-echo " + Scenario.WEBSOCKET_VARIANTS)
      .doc("Only these servers, comma-separated (default: all; a list naming none of a scenario's variants leaves"
          + " it whole)").build();
  static final Setting<String> HEAP = Setting.ofString("loadtest.heap").defaultValue(RunSettings.DEFAULT_HEAP)
      .check(h -> h.matches("[0-9]+[kmgKMG]?"), "a JVM size such as 512m or 1g")
      .doc("Fixed heap (-Xms = -Xmx) of every child JVM").build();
  static final Setting<Path> JDK = Setting.ofPath("loadtest.jdk").optional()
      .check(p -> Files.isExecutable(p.resolve("bin").resolve("java")), "a JDK home with bin/java")
      .doc("JDK of servers and generators (default: the newest under /usr/lib/jvm)").build();
  static final Setting<Path> RESULTS = Setting.ofPath("loadtest.results").optional()
      .doc("Results directory (default: $KRILL_HOME/" + RunEnvironment.RESULTS + ", else " + RunEnvironment.RESULTS
          + ")").build();
  static final Setting<String> DATE = Setting.ofString("loadtest.date").optional()
      .check(RunEnvironment::isDate, RunEnvironment.DATE_EXPECTED)
      .doc("Date part of the report names (default: today, UTC)").build();
  static final Setting<Integer> CONNECTIONS_PER_GENERATOR = Setting.ofInt("loadtest.connections-per-generator")
      .defaultValue(RunSettings.DEFAULT_CONNECTIONS_PER_GENERATOR).range(1, MAX_CONNECTIONS)
      .doc("Most connections per generator process; more use more processes (20,000 files per process)").build();
  static final Setting<Boolean> WRK = Setting.ofBoolean("loadtest.wrk").defaultValue(true)
      .doc("Cross-check the hello cells with wrk when it is installed").build();
  /** Most console tabs of the crawl scenario's console variant. */
  static final int MAX_CONSOLE_TABS = 16;
  static final Setting<Integer> CONSOLE_TABS = Setting.ofInt("loadtest.console-tabs").defaultValue(0)
      .range(0, MAX_CONSOLE_TABS)
      .doc("Crawl scenario: also crawl with --console and this many WebSocket tabs reading it (variant "
          + CrawlScenario.CONSOLE_VARIANT + ", right after fibers in each round; 0: off)").build();
  static final Setting<List<String>> CHILD_JVM_OPTION = Setting.ofStringList("loadtest.child-jvm-option")
      .defaultValue(List.of()).doc("Extra options for every child JVM (repeatable)").build();

  static final ConfigSchema SCHEMA = ConfigSchema.builder()
      .add(SCENARIO, QUICK, ROUNDS, WARMUP_MS, MEASURE_MS, CONNECTIONS, VARIANTS, HEAP, JDK, RESULTS, DATE,
          CONNECTIONS_PER_GENERATOR, WRK, CONSOLE_TABS, CHILD_JVM_OPTION)
      .build();

  /** The flags of the list settings that also take a comma-separated list. */
  static final Set<String> COMMA_LISTS = Set.of(SCENARIO.flag(), CONNECTIONS.flag(), VARIANTS.flag());

  private LoadtestSettings() {}

  private static boolean isConnectionCount(String s) {
    return s.matches("[0-9]{1,6}") && Integer.parseInt(s) >= 1 && Integer.parseInt(s) <= MAX_CONNECTIONS;
  }

  private static boolean isVariant(String v) {
    return Scenario.HTTP_VARIANTS.contains(v) || Scenario.ECHO_VARIANTS.contains(v) || CrawlScenario.FLAGS.containsKey(v)
        || v.equals(CrawlScenario.CONSOLE_VARIANT) || StaticScenario.VARIANTS.contains(v)
        || Scenario.H2_VARIANTS.contains(v) || Scenario.WEBSOCKET_VARIANTS.contains(v);
  }

  /** @return the scenarios the settings name, {@code all} expanded, in order */
  static List<Scenario> scenarios(Settings s) {
    List<Scenario> chosen = new ArrayList<>();
    for (String name : s.get(SCENARIO)) {
      if (name.equals("all")) {
        chosen.addAll(Scenario.ALL);
      } else {
        chosen.add(Scenario.BY_NAME.get(name));
      }
    }
    return chosen;
  }

  /** @return the run's settings: the defaults of a full or quick run, then what the settings say */
  static RunSettings runSettings(Settings s) {
    RunSettings r = new RunSettings();
    if (s.get(QUICK)) {
      r.quick();
    }
    s.find(ROUNDS).ifPresent(n -> {
      r.roundsOption = n;
      r.rounds = n;
    });
    s.find(WARMUP_MS).ifPresent(ms -> {
      r.warmupOption = java.time.Duration.ofMillis(ms);
      r.warmup = r.warmupOption;
    });
    s.find(MEASURE_MS).ifPresent(ms -> {
      r.measureOption = java.time.Duration.ofMillis(ms);
      r.measure = r.measureOption;
    });
    if (!s.get(CONNECTIONS).isEmpty()) {
      r.connections = new ArrayList<>();
      s.get(CONNECTIONS).forEach(n -> r.connections.add(Integer.parseInt(n)));
    }
    if (!s.get(VARIANTS).isEmpty()) {
      r.variants = s.get(VARIANTS);
    }
    r.heap = s.get(HEAP);
    r.useJdk(RunEnvironment.pickJdk(s.find(JDK).orElse(null)));
    s.find(RESULTS).ifPresent(p -> r.resultsDir = p);
    s.find(DATE).ifPresent(d -> r.date = d);
    r.connectionsPerGenerator = s.get(CONNECTIONS_PER_GENERATOR);
    r.wrk = s.get(WRK);
    r.consoleTabs = s.get(CONSOLE_TABS);
    r.childJvmOptions = s.get(CHILD_JVM_OPTION);
    return r;
  }
}
