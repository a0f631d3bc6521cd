package io.krill.httpd;

import io.krill.fibers.Fiber;
import io.krill.testkit.Invariant;
import java.time.Duration;
import java.util.List;

/**
 * After every httpd test: no fiber of the test scheduler is left (every connection's fiber
 * ended). Found by krill-testkit's invariants extension through {@code META-INF/services}.
 */
public final class HttpdInvariant implements Invariant {
  @Override
  public Duration grace() {
    return Duration.ofSeconds(10);
  }

  @Override
  public List<String> problems() {
    List<Fiber> live = TestServers.scheduler().liveFibers();
    return live.isEmpty() ? List.of()
        : List.of(live.size() + " leaked fiber(s):\n" + TestServers.scheduler().dumpParked());
  }
}
