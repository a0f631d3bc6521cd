package io.krill.httpd;

import io.krill.testkit.RawHttp;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.krill.fibers.ExecutionMode;
import io.krill.fibers.Fiber;
import io.krill.netio.FiberOutput;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The same handler code in every execution mode. */
@Timeout(60)
class ExecutionModeTest {
  /* Reads the body, waits like a call to another service, streams the answer. */
  static final Handler SAME_HANDLER = (req, res) -> {
    byte[] body = req.bodyBytes();
    Fiber.sleep(Duration.ofMillis(5));
    FiberOutput out = res.output();
    out.writeUtf8(strandKind() + ":" + new String(body, java.nio.charset.StandardCharsets.UTF_8));
  };

  /* What runs this code: a fiber, a virtual thread or a platform thread. */
  static String strandKind() {
    if (Fiber.current() != null) {
      return "FIBER";
    }
    try {
      return (boolean) Thread.class.getMethod("isVirtual").invoke(Thread.currentThread()) ? "VIRTUAL" : "PLATFORM";
    } catch (ReflectiveOperationException e) {
      return "PLATFORM"; // JDK 17: no virtual threads
    }
  }

  static boolean virtualThreads() {
    return Runtime.version().feature() >= 21;
  }

  @ParameterizedTest
  @EnumSource(ExecutionMode.class)
  void mode_sameHandler_servesConcurrentKeepAliveClients(ExecutionMode mode) throws Exception {
    HttpServer.Builder b = TestServers.builder().mode(mode).post("/work", SAME_HANDLER);
    if (mode == ExecutionMode.VIRTUAL && !virtualThreads()) {
      assertThatThrownBy(b::build).isInstanceOf(IllegalArgumentException.class)
          .hasMessageStartingWith("mode: VIRTUAL needs JDK 21+ (virtual threads are absent on JDK 17");
      return;
    }
    try (HttpServer server = b.build().start()) {
      List<RawHttp> clients = new ArrayList<>();
      long sent = 0;
      try {
        for (int i = 0; i < 20; i++) {
          clients.add(RawHttp.connect(server.port()));
        }
        for (int round = 0; round < 5; round++) {
          for (int i = 0; i < clients.size(); i++) {
            String body = "c" + i + "r" + round;
            String request = "POST /work HTTP/1.1\r\nHost: x\r\nContent-Length: " + body.length() + "\r\n\r\n" + body;
            clients.get(i).send(request);
            sent += request.length();
          }
          for (int i = 0; i < clients.size(); i++) {
            RawHttp.Response r = clients.get(i).read();
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.text()).isEqualTo(mode + ":c" + i + "r" + round);
          }
        }
      } finally {
        for (RawHttp c : clients) {
          c.close();
        }
      }
      // every mode counts exactly: on the loop in its own counts, from thread strands in the shared ones
      assertThat(server.stats().requests()).isEqualTo(100);
      assertThat(server.stats().responses(2)).isEqualTo(100);
      assertThat(server.stats().bytesIn()).isEqualTo(sent);
      assertThat(server.stats().acceptedConnections()).isEqualTo(20);
    }
  }

  @Test
  void virtual_onThisJdk_buildsOnlyWithVirtualThreads() {
    HttpServer.Builder b = TestServers.builder().mode(ExecutionMode.VIRTUAL);
    if (virtualThreads()) {
      assertThat(b.build()).isNotNull();
    } else {
      assertThatThrownBy(b::build).hasMessageContaining("use FIBER or PLATFORM");
    }
  }
}
