package io.krill.fibers;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestInstanceFactoryContext;
import org.junit.jupiter.api.extension.TestInstancePreConstructCallback;

/**
 * Checks, after every test of this module, the invariants of every scheduler the test created:
 * no leaked fiber, run queues drained, no timers left. Registered for all tests through
 * {@code META-INF/services} and JUnit's extension autodetection.
 */
public final class FiberInvariantsExtension
    implements TestInstancePreConstructCallback, BeforeEachCallback, AfterEachCallback {
  private static final ExtensionContext.Namespace NS = ExtensionContext.Namespace.create(FiberInvariantsExtension.class);
  private static final long GRACE_NANOS = 2_000_000_000L;

  /* Schedulers created in field initializers belong to the test too: record before construction. */
  @Override
  public void preConstructTestInstance(TestInstanceFactoryContext factory, ExtensionContext context) {
    context.getStore(NS).put("serial", FiberScheduler.SEQUENCE.get());
  }

  @Override
  public void beforeEach(ExtensionContext context) {
    if (context.getStore(NS).get("serial") == null) {
      context.getStore(NS).put("serial", FiberScheduler.SEQUENCE.get());
    }
  }

  @Override
  public void afterEach(ExtensionContext context) throws InterruptedException {
    Integer recorded = context.getStore(NS).get("serial", Integer.class);
    int before = recorded != null ? recorded : Integer.MAX_VALUE;
    List<FiberScheduler> created = new ArrayList<>();
    synchronized (FiberScheduler.CREATED) {
      for (Map.Entry<FiberScheduler, Integer> e : FiberScheduler.CREATED.entrySet()) {
        if (e.getValue() > before) {
          created.add(e.getKey());
        }
      }
    }
    long deadline = System.nanoTime() + GRACE_NANOS;
    List<String> problems;
    do {
      problems = problems(created);
      if (problems.isEmpty()) {
        return;
      }
      Thread.sleep(10);
    } while (System.nanoTime() < deadline);
    throw new AssertionError("fiber invariants broken after " + context.getDisplayName() + ":\n  "
        + String.join("\n  ", problems));
  }

  private static List<String> problems(List<FiberScheduler> schedulers) {
    List<String> out = new ArrayList<>();
    for (FiberScheduler s : schedulers) {
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
}
