package io.krill.loadtest.harness;

import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * One scenario of the comparison: what the generator sends, which servers it runs against,
 * and at which connection counts in the full and the quick run.
 */
final class Scenario {
  /** What a scenario measures. */
  enum Kind {
    /** Closed-loop HTTP throughput and latency. */
    HTTP,
    /** Idle connections held: memory per connection, and the throughput of a few active clients beside them. */
    IDLE,
    /** Raw TCP echo round trips. */
    ECHO,
    /** The crawler comparison. */
    CRAWL,
    /** Static files: krill serve against nginx, driven by wrk and h2load. */
    STATIC,
    /** HTTP/2 hello, driven by h2load. */
    H2,
    /** WebSocket echo round trips, driven by the raw Netty echo client. */
    WEBSOCKET,
    /** HTTP/1.1 hello driven by wrk, the server and wrk each pinned to its own CPU. */
    WRK
  }

  /** The HTTP servers, in the interleaving order. */
  static final List<String> HTTP_VARIANTS = List.of("netty", "threads", "httpd-fiber", "httpd-virtual", "httpd-platform");
  /** The echo servers of {@link io.krill.loadtest.echo.EchoServerMain}. */
  static final List<String> ECHO_VARIANTS = List.of("netty", "platform", "fiber", "virtual");
  /** httpd's goal: resident memory per idle keep-alive connection, in bytes. */
  static final int IDLE_RSS_GOAL_BYTES = 2048;
  /** Active clients run beside the idle connections. */
  static final int IDLE_ACTIVE_CLIENTS = 100;

  /** Default rounds of a full run for the short cells (hello, pipelined, echo, crawl). */
  static final int DEFAULT_ROUNDS = 3;
  /**
   * Default rounds of a full run for the long cells (slow-handler and idle: 10,000 and 19,000
   * connections to open per cell, idle with two measured phases), so the full run fits its
   * time budget; their figures (memory per connection, a 100 ms handler) vary less.
   */
  static final int DEFAULT_LONG_ROUNDS = 2;

  static final Scenario HELLO = new Scenario("hello", Kind.HTTP, "/hello", 1, HTTP_VARIANTS,
      List.of(100, 1_000, 10_000), List.of(100, 1_000), DEFAULT_ROUNDS);
  static final Scenario PIPELINED = new Scenario("pipelined", Kind.HTTP, "/hello", 16, HTTP_VARIANTS,
      List.of(100, 1_000), List.of(100), DEFAULT_ROUNDS);
  static final Scenario SLOW = new Scenario("slow-handler", Kind.HTTP, "/slow", 1, HTTP_VARIANTS,
      List.of(10_000), List.of(1_000), DEFAULT_LONG_ROUNDS);
  /**
   * Idle connections: 19,000, the connections-held goal; the RSS goal (stated at 15,000) is judged
   * on the same growth per connection.
   */
  static final Scenario IDLE = new Scenario("idle", Kind.IDLE, "/hello", 1, HTTP_VARIANTS,
      List.of(19_000), List.of(2_000), DEFAULT_LONG_ROUNDS);
  /**
   * Hello with wrk on connections already open, the server on one CPU and wrk on the other
   * ({@link PinnedWrkScenario}): raw Netty against httpd's fiber mode at 10,000 connections.
   */
  static final Scenario HELLO_WRK = new Scenario("hello-wrk", Kind.WRK, "/hello", 1, List.of("netty", "httpd-fiber"),
      List.of(10_000), List.of(1_000), DEFAULT_ROUNDS);
  /** The netio echo benchmark: 1, 100 and 10,000 connections. */
  static final Scenario ECHO = new Scenario("echo", Kind.ECHO, "", 1, ECHO_VARIANTS,
      List.of(1, 100, 10_000), List.of(1, 100), DEFAULT_ROUNDS);
  static final Scenario CRAWL = new Scenario("crawl", Kind.CRAWL, "", 1,
      List.of("fibers", "threads-32", "threads-512", "virtual", "naive-fibers", "naive-threads"), List.of(0), List.of(0),
      DEFAULT_LONG_ROUNDS);

  /** krill serve (one carrier) against nginx (one worker): the variants of {@link StaticScenario}. */
  static final Scenario STATIC = new Scenario("static", Kind.STATIC, "", 1, StaticScenario.VARIANTS,
      List.of(100), List.of(100), DEFAULT_LONG_ROUNDS);

  /** The HTTP/2 hello servers: raw Netty and httpd, h2c then h2 over TLS. */
  static final List<String> H2_VARIANTS = List.of("netty-h2", "httpd-h2", "netty-h2-tls", "httpd-h2-tls");
  /** The WebSocket echo servers of {@link io.krill.loadtest.echo.WebSocketEchoServerMain}. */
  static final List<String> WEBSOCKET_VARIANTS = List.of("netty", "fiber", "virtual");
  /**
   * HTTP/2 hello: h2load with {@value Http2WebSocketScenario#H2_STREAMS} streams per connection;
   * the counts are connections (10 × 100 streams in flight; more with {@code --connections}).
   */
  static final Scenario H2_HELLO = new Scenario("h2-hello", Kind.H2, "/hello", 1, H2_VARIANTS,
      List.of(10), List.of(10), DEFAULT_ROUNDS);
  /** WebSocket echo at 10,000 sockets (quick: 1,000). */
  static final Scenario WEBSOCKET_ECHO = new Scenario("websocket-echo", Kind.WEBSOCKET, "/echo", 1, WEBSOCKET_VARIANTS,
      List.of(10_000), List.of(1_000), DEFAULT_ROUNDS);

  /** Every scenario, in the order {@code --scenario all} runs them. */
  static final List<Scenario> ALL = List.of(HELLO, HELLO_WRK, PIPELINED, SLOW, IDLE, ECHO, H2_HELLO, WEBSOCKET_ECHO, STATIC, CRAWL);
  static final Map<String, Scenario> BY_NAME = ALL.stream().collect(
      Collectors.toMap(s -> s.name, Function.identity(), (a, b) -> a, java.util.LinkedHashMap::new));

  final String name;
  final Kind kind;
  final String path;
  final int pipeline;
  final List<String> variants;
  final List<Integer> connections;
  final List<Integer> quickConnections;
  /** Interleaved rounds in a full run, unless {@code --rounds} says otherwise. */
  final int fullRounds;

  private Scenario(String name, Kind kind, String path, int pipeline, List<String> variants, List<Integer> connections,
      List<Integer> quickConnections, int fullRounds) {
    this.name = name;
    this.kind = kind;
    this.path = path;
    this.pipeline = pipeline;
    this.variants = variants;
    this.connections = connections;
    this.quickConnections = quickConnections;
    this.fullRounds = fullRounds;
  }

  /** @return the variant whose throughput is the ceiling: raw Netty */
  String nettyVariant() {
    return kind == Kind.STATIC ? StaticScenario.NGINX : "netty";
  }

  /** @return the variants that stand for "platform threads", best first: httpd's platform mode, else the classic server */
  List<String> platformVariants() {
    return kind == Kind.ECHO ? List.of("platform") : kind == Kind.WEBSOCKET ? List.of("virtual")
        : List.of("httpd-platform", "threads");
  }

  @Override
  public String toString() {
    return name;
  }
}
