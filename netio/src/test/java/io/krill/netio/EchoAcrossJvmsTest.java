package io.krill.netio;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Issue 4's echo test at full size: 10,000 concurrent fiber connections. A loopback
 * connection costs a file descriptor at each end, and a process may hold 20,000, so the
 * server runs in a child JVM and this JVM holds the 10,000 client ends. Tagged slow; run it
 * with {@code mvn -B verify -pl netio -am -Dtest=EchoAcrossJvmsTest -Dkrill.test.excludedGroups=none
 * -Dsurefire.failIfNoSpecifiedTests=false}. Size: {@code -Dkrill.netio.jvmEcho.connections}.
 */
@Tag("slow")
class EchoAcrossJvmsTest {
  @Test
  void echo_tenThousandConnectionsToServerInChildJvm_everyByteReturnsInOrder() throws Exception {
    int connections = Integer.getInteger("krill.netio.jvmEcho.connections", 10_000);
    String java = System.getProperty("java.home") + File.separator + "bin" + File.separator + "java";
    Process server = new ProcessBuilder(List.of(java, "-Xss4m", "-Dio.netty.leakDetectionLevel=simple", "-cp",
        System.getProperty("java.class.path"), EchoServerMain.class.getName()))
        .redirectError(ProcessBuilder.Redirect.INHERIT).start();
    try {
      BufferedReader out = new BufferedReader(new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8));
      String first = out.readLine();
      assertThat(first).startsWith("port ");
      int port = Integer.parseInt(first.substring(5).trim());
      EchoClients.run("127.0.0.1", port, connections, TestLoops.scheduler());
    } finally {
      server.getOutputStream().close();
      if (!server.waitFor(20, TimeUnit.SECONDS)) {
        server.destroyForcibly();
      }
    }
  }
}
