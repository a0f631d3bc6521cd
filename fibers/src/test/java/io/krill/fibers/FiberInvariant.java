package io.krill.fibers;

import io.krill.testkit.Invariant;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * After every test of this module, for every scheduler the test created: no leaked fiber, run
 * queues drained, no timers left. Found by krill-testkit's invariants extension through
 * {@code META-INF/services}.
 */
public final class FiberInvariant implements Invariant {
  private int before = Integer.MAX_VALUE;

  @Override
  public void beforeTest() {
    before = FiberScheduler.SEQUENCE.get();
  }

  @Override
  public Duration grace() {
    return Duration.ofSeconds(2);
  }

  @Override
  public List<String> problems() {
    List<String> out = new ArrayList<>();
    for (FiberScheduler s : created()) {
      if (s.tracking && !s.live.isEmpty()) {
        StringBuilder sb = new StringBuilder(s.name() + ": " + s.live.size() + " leaked fiber(s):");
        for (Fiber f : s.liveFibers()) {
          sb.append("\n    ").append(f.describe().trim());
        }
        out.add(sb.toString());
      }
      if (s.timers.sum() != 0) {
        out.add(s.name() + ": " + s.timers.sum() + " timer(s) left");
      }
      if (s instanceof DeterministicScheduler && !((DeterministicScheduler) s).isIdle()) {
        out.add(s.name() + ": run queue or timers not drained");
      }
    }
    return out;
  }

  private List<FiberScheduler> created() {
    List<FiberScheduler> created = new ArrayList<>();
    synchronized (FiberScheduler.CREATED) {
      for (Map.Entry<FiberScheduler, Integer> e : FiberScheduler.CREATED.entrySet()) {
        if (e.getValue() > before) {
          created.add(e.getKey());
        }
      }
    }
    return created;
  }
}
