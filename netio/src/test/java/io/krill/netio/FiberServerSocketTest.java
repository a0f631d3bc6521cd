package io.krill.netio;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.time.Duration;

/** accept with and without a deadline, on every transport. */
class FiberServerSocketTest {
  @EveryTransport
  void accept_noClientWithinTimeout_throwsSocketTimeoutThenStillAccepts(Transport transport) throws Exception {
    TestLoops.Carriers c = TestLoops.on(transport);
    try (FiberServerSocket server = TestLoops.bind(c.options().build())) {
      long start = System.nanoTime();
      assertThatThrownBy(() -> c.inFiber(() -> server.accept(Duration.ofMillis(200))))
          .isInstanceOf(SocketTimeoutException.class)
          .hasMessage("Accept timed out after 200 ms: 127.0.0.1:" + server.port());
      assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(200));
      // The timeout left the server usable: a client that comes now is accepted.
      String got = c.inFiber(() -> {
        try (FiberSocket client = FiberSocket.connect("127.0.0.1", server.port(), c.options().build());
            FiberSocket accepted = server.accept(Duration.ofSeconds(10))) {
          client.output().writeUtf8("late\n");
          client.output().flush();
          return accepted.input().readLine();
        }
      });
      assertThat(got).isEqualTo("late");
    }
  }

  @EveryTransport
  void accept_clientAlreadyWaiting_returnsWithoutWaitingForTheDeadline(Transport transport) throws Exception {
    TestLoops.Carriers c = TestLoops.on(transport);
    try (FiberServerSocket server = TestLoops.bind(c.options().build())) {
      int port = c.inFiber(() -> {
        try (FiberSocket client = FiberSocket.connect("127.0.0.1", server.port(), c.options().build());
            FiberSocket accepted = server.accept(Duration.ofSeconds(30))) {
          return ((java.net.InetSocketAddress) accepted.localAddress()).getPort();
        }
      });
      assertThat(port).isEqualTo(server.port());
    }
  }

  @org.junit.jupiter.api.Test
  void accept_closedWhileWaitingWithDeadline_throwsSocketClosedNotTimeout() throws Exception {
    TestLoops.Carriers c = TestLoops.on(Transport.NIO);
    FiberServerSocket server = TestLoops.bind(c.options().build());
    Thread closer = new Thread(() -> {
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      server.close();
    });
    closer.start();
    assertThatThrownBy(() -> c.inFiber(() -> server.accept(Duration.ofSeconds(30))))
        .isInstanceOf(SocketException.class)
        .hasMessageStartingWith("Socket closed: FiberServerSocket[");
    closer.join();
  }

  @org.junit.jupiter.api.Test
  void accept_negativeTimeout_rejectedInHouseFormat() throws Exception {
    try (FiberServerSocket server = TestLoops.bind(TestLoops.options().build())) {
      assertThatThrownBy(() -> TestLoops.inFiber(() -> server.accept(Duration.ofMillis(-1))))
          .isInstanceOf(IllegalArgumentException.class).hasMessage("timeout: -1ms (expected: >= 0)");
    }
  }
}
