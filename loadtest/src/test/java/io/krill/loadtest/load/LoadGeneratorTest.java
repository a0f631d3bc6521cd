package io.krill.loadtest.load;

import static org.assertj.core.api.Assertions.assertThat;

import io.krill.fibers.FiberScheduler;
import io.krill.netio.FiberServerSocket;
import io.krill.netio.SocketOptions;
import io.krill.testkit.TestHttpServer;
import io.krill.testkit.TestHttpServer.Response;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 120, unit = TimeUnit.SECONDS)
class LoadGeneratorTest {
  private static final Duration LONG = Duration.ofSeconds(60);

  /** @return the answer of the test server: 200 with the two-byte body "hi" */
  private static Response hi() {
    return Response.ok("text/plain", "hi");
  }

  /** @return a server on loopback that gives every request {@code answer} */
  private static TestHttpServer server(Response answer) throws InterruptedException {
    return TestHttpServer.start(r -> answer);
  }

  /** @return a server that answers at once, except request number {@code request} (from 1): {@code stallMillis} later */
  private static TestHttpServer stallsOnce(long request, long stallMillis) throws InterruptedException {
    AtomicLong n = new AtomicLong();
    return TestHttpServer.start(r -> n.incrementAndGet() == request ? hi().delay(stallMillis) : hi());
  }

  private static LoadSpec.Builder spec(int port) {
    return LoadSpec.builder().port(port).threads(1).sources(4).requestTimeout(Duration.ofSeconds(20));
  }

  /* Exactly the bounded numbers of warm-up and measured requests, every answer checked and good. */
  private static void assertCounts(LoadResult r, long warmup, long measured) {
    assertThat(r.warmupRequests).isEqualTo(warmup);
    assertThat(r.requests).isEqualTo(measured);
    assertThat(r.errors()).isZero();
  }

  @Test
  void run_closedLoopCountBounds_serverSeesExactlyWarmupPlusMeasuredRequests() throws Exception {
    try (TestHttpServer server = server(hi())) {
      LoadResult r = LoadGenerator.run(spec(server.port()).connections(7).warmup(LONG, 53).measure(LONG, 211).build());
      assertCounts(r, 53, 211);
      assertThat(server.requests()).isEqualTo(264);
      assertThat(r.unfinished).isZero();
      assertThat(r.latency.getTotalCount()).isEqualTo(211);
      assertThat(r.connections).isEqualTo(7);
      assertThat(server.maxOpenConnections()).isEqualTo(7);
    }
  }

  @Test
  void run_pipelinedDepth16_countBoundHonouredAcrossPartialBatches() throws Exception {
    try (TestHttpServer server = server(hi())) {
      LoadResult r = LoadGenerator.run(spec(server.port()).connections(3).pipeline(16).warmup(LONG, 10)
          .measure(LONG, 100).build());
      assertCounts(r, 10, 100);
      assertThat(server.requests()).isEqualTo(110);
    }
  }

  @Test
  void run_echoProtocol_countsCheckedRoundTrips() throws Exception {
    FiberScheduler scheduler = FiberScheduler.eventLoop(1);
    FiberServerSocket server = io.krill.fibers.Continuation.callOnThread(() -> FiberServerSocket.bind("127.0.0.1", 0,
        SocketOptions.builder().scheduler(scheduler).build()));
    server.serve(s -> {
      byte[] buf = new byte[1024];
      for (int n; (n = s.input().read(buf)) > 0; ) {
        s.output().write(buf, 0, n);
        s.output().flush();
      }
    });
    try {
      LoadResult r = LoadGenerator.run(spec(server.port()).protocol(LoadSpec.Protocol.ECHO).echoSize(300).connections(4)
          .warmup(LONG, 20).measure(LONG, 120).build());
      assertCounts(r, 20, 120);
    } finally {
      server.close();
      scheduler.close();
    }
  }

  @Test
  void run_serverAnswers500_everyAnswerCountedAsNon2xx() throws Exception {
    try (TestHttpServer server = server(Response.status(500))) {
      LoadResult r = LoadGenerator.run(spec(server.port()).connections(2).warmup(Duration.ZERO, 0).measure(LONG, 40)
          .build());
      assertThat(r.requests).isEqualTo(40);
      assertThat(r.non2xx).isEqualTo(40);
      assertThat(r.errors()).isEqualTo(40);
      assertThat(r.firstError).contains("500");
    }
  }

  @Test
  void run_serverResetsEveryConnection_eachLostRequestCountedAsResetNoneAsAnswered() throws Exception {
    try (TestHttpServer server = server(Response.reset())) {
      LoadResult r = LoadGenerator.run(spec(server.port()).connections(2).warmup(Duration.ZERO, 0).measure(LONG, 25)
          .build());
      assertThat(r.requests).isZero();
      assertThat(r.resetErrors).isEqualTo(25);
      assertThat(r.latency.getTotalCount()).isZero();
      assertThat(server.requests()).isEqualTo(25);
      assertThat(r.errorsByKind()).containsEntry("reset", 25L);
    }
  }

  @Test
  void run_nothingListening_connectErrorsCountedAndRunEndsOnItsTimeBound() throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      port = s.getLocalPort();
    }
    LoadResult r = LoadGenerator.run(spec(port).connections(3).warmup(Duration.ofMillis(100), 1_000_000)
        .measure(Duration.ofMillis(300), 1_000_000).build());
    assertThat(r.connectErrors).isGreaterThanOrEqualTo(3);
    assertThat(r.requests).isZero();
    assertThat(r.connections).isZero();
    assertThat(r.firstError).contains("connect 127.0.0.1:" + port);
  }

  @Test
  void run_answerBodyOverTheLimit_eachCountedAsBadNoneAsAnswered() throws Exception {
    try (TestHttpServer server = server(hi())) {
      // The test server's body is "hi": two bytes, one over this limit.
      LoadResult r = LoadGenerator.run(spec(server.port()).connections(1).maxResponseBytes(1)
          .warmup(Duration.ZERO, 0).measure(LONG, 5).build());
      assertThat(r.requests).isZero();
      assertThat(r.badResponses).isEqualTo(5);
      assertThat(r.firstError).contains("bad response: body over 1 bytes");
      assertThat(server.requests()).isEqualTo(5);
    }
  }

  @Test
  void run_serverNeverAnswers_eachLostRequestCountedAsTimeoutNoneAsAnswered() throws Exception {
    try (TestHttpServer server = server(Response.silent())) {
      LoadResult r = LoadGenerator.run(spec(server.port()).connections(2).requestTimeout(Duration.ofMillis(300))
          .warmup(Duration.ZERO, 0).measure(Duration.ofMillis(1_500), 1_000).build());
      assertThat(r.requests).isZero();
      assertThat(r.latency.getTotalCount()).isZero();
      // Each connection loses a request per timeout, then reconnects and tries again.
      assertThat(r.timeoutErrors).isGreaterThanOrEqualTo(2);
      assertThat(r.resetErrors).isZero();
      assertThat(r.timeoutErrors + r.unfinished).isLessThanOrEqualTo(server.requests());
      assertThat(r.firstError).contains("timeout: no answer in 300 ms");
    }
  }

  @Test
  void run_timeBoundOnly_measuredPhaseEndsAtItsTime() throws Exception {
    try (TestHttpServer server = server(hi().delay(5))) {
      LoadResult r = LoadGenerator.run(spec(server.port()).connections(2).warmup(Duration.ofMillis(200), Long.MAX_VALUE)
          .measure(Duration.ofMillis(700), Long.MAX_VALUE).build());
      assertThat(r.measuredNanos).isBetween(TimeUnit.MILLISECONDS.toNanos(700), TimeUnit.SECONDS.toNanos(20));
      assertThat(r.requests).isPositive();
      assertThat(server.requests()).isEqualTo(r.warmupRequests + r.requests + r.unfinished);
      assertThat(r.errors()).isZero();
    }
  }

  @Test
  void run_fixedServerDelay_everyLatencyAtLeastTheDelayAndInNanoseconds() throws Exception {
    try (TestHttpServer server = server(hi().delay(30))) {
      LoadResult r = LoadGenerator.run(spec(server.port()).connections(3).warmup(Duration.ZERO, 0).measure(LONG, 45)
          .build());
      assertThat(r.requests).isEqualTo(45);
      assertThat(r.latency.getMinValue()).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(30));
      // A unit slip (micro- for nanoseconds) would put the median at 30 s or 30 µs.
      assertThat(r.latencyMicros(50)).isBetween(30_000.0, 10_000_000.0);
      assertThat(r.serviceTime.getTotalCount()).isEqualTo(45);
    }
  }

  @Test
  void run_openLoopServerStallsOnce_correctedPercentilesShowTheStallUncorrectedDoNot() throws Exception {
    long stall = 600;
    try (TestHttpServer server = stallsOnce(40, stall)) {
      LoadResult r = LoadGenerator.run(spec(server.port()).connections(1).mode(LoadSpec.Mode.OPEN).rate(200)
          .warmup(Duration.ZERO, 0).measure(Duration.ofSeconds(2), Long.MAX_VALUE).build());
      long stallNanos = TimeUnit.MILLISECONDS.toNanos(stall);
      // ~120 of ~400 requests were due while the server stalled: they carry 600..0 ms of waiting.
      assertThat(r.latency.getValueAtPercentile(99)).isGreaterThanOrEqualTo(stallNanos / 2);
      assertThat(r.latency.getValueAtPercentile(90)).isGreaterThanOrEqualTo(stallNanos / 4);
      // Measured from the actual send, only the stalled request itself is slow: the requests that queued
      // behind it are slow in the corrected histogram and not in the uncorrected one.
      long slowLatencies = r.latency.getCountBetweenValues(stallNanos / 2, r.latency.getMaxValue());
      long slowServiceTimes = r.serviceTime.getCountBetweenValues(stallNanos / 2, r.serviceTime.getMaxValue());
      assertThat(slowServiceTimes).isPositive().isLessThan(slowLatencies / 4);
      assertThat(r.serviceTime.getMaxValue()).isGreaterThanOrEqualTo(stallNanos * 99 / 100);
      assertThat(r.errors()).isZero();
    }
  }

  @Test
  void run_idleMode_holdsEveryConnectionThenChecksEachOnce() throws Exception {
    try (TestHttpServer server = server(hi())) {
      LoadGenerator g = LoadGenerator.start(spec(server.port()).connections(25).mode(LoadSpec.Mode.IDLE)
          .measure(Duration.ofSeconds(60), 1).build(), line -> { });
      assertThat(g.awaitMeasuring(Duration.ofSeconds(60))).isTrue();
      assertThat(server.openConnections()).isEqualTo(25);
      assertThat(server.requests()).isEqualTo(25);
      g.stop();
      LoadResult r = g.awaitResult(Duration.ofSeconds(60));
      assertCounts(r, 25, 25);
      assertThat(r.connections).isEqualTo(25);
      assertThat(server.requests()).isEqualTo(50);
    }
  }

  @Test
  void parseAndMerge_twoProcessResults_countsAndHistogramsAddUp() throws Exception {
    try (TestHttpServer server = server(hi())) {
      LoadResult a = LoadGenerator.run(spec(server.port()).connections(2).warmup(Duration.ZERO, 0).measure(LONG, 30).build());
      LoadResult b = LoadGenerator.run(spec(server.port()).connections(2).warmup(Duration.ZERO, 0).measure(LONG, 20).build());
      b.non2xx = 3;
      b.firstError = "status 503 for /x";
      LoadResult parsed = LoadResult.parse(a.toLine()).merge(LoadResult.parse(b.toLine()));
      assertThat(parsed.requests).isEqualTo(50);
      assertThat(parsed.latency.getTotalCount()).isEqualTo(50);
      assertThat(parsed.non2xx).isEqualTo(3);
      assertThat(parsed.firstError).isEqualTo("status 503 for /x");
      assertThat(parsed.connections).isEqualTo(4);
    }
  }
}
