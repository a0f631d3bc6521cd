package io.krill.netio;

import io.krill.fibers.Fiber;
import io.krill.fibers.FiberScheduler;
import io.krill.testkit.Invariant;
import java.util.ArrayList;
import java.util.List;

/**
 * After every netio test: no fiber of the test schedulers is left, and every handler of the
 * transport matrix ran on its channel's own loop. Found by krill-testkit's invariants extension
 * through {@code META-INF/services}.
 */
public final class NetioInvariant implements Invariant {
  private final List<String> carrierProblems = new ArrayList<>();

  @Override
  public List<String> problems() {
    List<String> problems = new ArrayList<>();
    for (FiberScheduler scheduler : TestLoops.schedulers()) {
      List<Fiber> live = scheduler.liveFibers();
      if (!live.isEmpty()) {
        problems.add(live.size() + " leaked fiber(s) on " + scheduler + ":\n" + scheduler.dumpParked());
      }
    }
    carrierProblems.addAll(TestLoops.drainCarrierProblems());
    problems.addAll(carrierProblems);
    return problems;
  }
}
