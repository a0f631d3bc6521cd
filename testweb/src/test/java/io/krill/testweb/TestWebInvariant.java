package io.krill.testweb;

import io.krill.fibers.Fiber;
import io.krill.fibers.FiberScheduler;
import io.krill.testkit.Invariant;
import java.util.List;

/**
 * After every test of the synthetic web: no fiber of the default scheduler is left (every
 * connection ended with {@code close()}). Found by krill-testkit's invariants extension through
 * {@code META-INF/services}; applies to the tests in this package.
 */
public final class TestWebInvariant implements Invariant {
  @Override
  public boolean appliesTo(Class<?> testClass) {
    return testClass.getPackageName().equals(TestWebInvariant.class.getPackageName());
  }

  @Override
  public List<String> problems() {
    FiberScheduler scheduler = FiberScheduler.defaultScheduler();
    List<Fiber> live = scheduler.liveFibers();
    return live.isEmpty() ? List.of() : List.of(live.size() + " fiber(s) left:\n" + scheduler.dumpParked());
  }
}
