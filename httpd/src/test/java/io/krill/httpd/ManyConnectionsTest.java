package io.krill.httpd;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * 10,000 concurrent keep-alive connections served correctly in fiber mode. A loopback
 * connection costs a file descriptor at each end and a process may hold 20,000, so the clients
 * run in a child JVM ({@link KeepAliveClientsMain}). It took 46 s on the 2-core machine under a
 * load of 17, so it stays in the default run; shrink it with
 * {@code -Dkrill.httpd.manyConnections=2000} on a slower machine.
 */
class ManyConnectionsTest {
  @Test
  @Timeout(600)
  void fiberMode_tenThousandKeepAliveConnections_allServedCorrectly() throws Exception {
    run(Integer.getInteger("krill.httpd.manyConnections", 10_000));
  }

  private static void run(int connections) throws Exception {
    int rounds = 3;
    try (HttpServer server = TestServers.builder().maxConnections(connections + 100)
        .idleTimeout(java.time.Duration.ofMinutes(5)).backlog(4096)
        .get("/c/{id}/{round}", (req, res) -> res.send(req.pathParam("id") + ":" + req.pathParam("round")))
        .build().start()) {
      String java = System.getProperty("java.home") + File.separator + "bin" + File.separator + "java";
      Process clients = new ProcessBuilder(List.of(java, "-Xss4m", "-Xmx1g", "-Dio.netty.leakDetectionLevel=simple",
          "-cp", System.getProperty("java.class.path"), KeepAliveClientsMain.class.getName(),
          String.valueOf(server.port()), String.valueOf(connections), String.valueOf(rounds)))
          .redirectError(ProcessBuilder.Redirect.INHERIT).start();
      try {
        BufferedReader out = new BufferedReader(new InputStreamReader(clients.getInputStream(), StandardCharsets.UTF_8));
        assertThat(out.readLine()).isEqualTo("connected " + connections);
        assertThat(server.stats().openConnections()).as("connections held at once").isEqualTo(connections);
        OutputStream in = clients.getOutputStream();
        in.write('\n');
        in.flush();
        assertThat(out.readLine()).isEqualTo("ok " + connections);
        assertThat(server.stats().requests()).isEqualTo((long) connections * rounds);
        assertThat(server.stats().responses(2)).isEqualTo((long) connections * rounds);
      } finally {
        if (!clients.waitFor(60, TimeUnit.SECONDS)) {
          clients.destroyForcibly();
        }
      }
    }
  }
}
