package io.krill.netio.dns;

import io.krill.fibers.Continuation;
import io.krill.testkit.TestDnsServer;
import java.time.Duration;
import java.util.List;

/** A JVM that exits while threads look names up, for {@link DnsResolverTest}: it must end. */
public final class LookupsAtExitMain {
  private LookupsAtExitMain() {}

  public static void main(String[] args) throws Exception {
    TestDnsServer server = TestDnsServer.start();
    server.answer("exit.krill.test", 0, "10.0.0.1"); // TTL 0: never cached, every lookup asks the server
    DnsResolver r = DnsResolver.builder().servers(List.of(server.address())).hostsFile(null)
        .timeout(Duration.ofMillis(200)).retries(1).build();
    for (int i = 0; i < 8; i++) {
      Thread t = new Thread(() -> {
        for (;;) {
          try {
            Continuation.callOnThread(() -> r.resolveAll("exit.krill.test"));
          } catch (Exception e) {
            // failures while the JVM exits are expected; only the exit counts
          }
        }
      }, "lookups-" + i);
      t.setDaemon(true);
      t.start();
    }
    Thread.sleep(Long.parseLong(args.length > 0 ? args[0] : "300"));
    System.exit(0);
  }
}
