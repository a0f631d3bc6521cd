package io.krill.testkit;

import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestInstanceFactoryContext;
import org.junit.jupiter.api.extension.TestInstancePreConstructCallback;

/**
 * Fails a test after which an invariant is broken: every {@link Invariant} on the class path,
 * then Netty's paranoid leak detector (no buffer left unreleased; see
 * {@link LeakRecordingDetector}). Registered for all tests through {@code META-INF/services} and
 * JUnit's extension autodetection.
 */
public final class InvariantsExtension
    implements TestInstancePreConstructCallback, BeforeEachCallback, AfterEachCallback {
  private static final ExtensionContext.Namespace NS = ExtensionContext.Namespace.create(InvariantsExtension.class);
  private static final long POLL_MILLIS = 10;

  /* Objects created in field initializers belong to the test too: start before construction. */
  @Override
  public void preConstructTestInstance(TestInstanceFactoryContext factory, ExtensionContext context) {
    begin(context);
  }

  @Override
  public void beforeEach(ExtensionContext context) {
    if (context.getStore(NS).get(Checks.class) == null) {
      begin(context);
    }
  }

  @Override
  public void afterEach(ExtensionContext context) throws Exception {
    Checks checks = context.getStore(NS).get(Checks.class, Checks.class);
    List<String> problems = new ArrayList<>();
    if (checks != null) {
      for (Invariant invariant : checks.invariants) {
        problems.addAll(awaitHolds(invariant));
      }
    }
    problems.addAll(LeakRecordingDetector.leaks());
    if (!problems.isEmpty()) {
      throw new AssertionError("invariants broken after " + context.getDisplayName() + ":\n  "
          + String.join("\n  ", problems));
    }
  }

  private static void begin(ExtensionContext context) {
    Class<?> testClass = context.getRequiredTestClass();
    List<Invariant> invariants = new ArrayList<>();
    for (Invariant invariant : ServiceLoader.load(Invariant.class)) {
      if (invariant.appliesTo(testClass)) {
        invariant.beforeTest();
        invariants.add(invariant);
      }
    }
    context.getStore(NS).put(Checks.class, new Checks(invariants));
  }

  private static List<String> awaitHolds(Invariant invariant) throws Exception {
    long deadline = System.nanoTime() + invariant.grace().toNanos();
    List<String> problems;
    while (!(problems = invariant.problems()).isEmpty() && System.nanoTime() < deadline) {
      Thread.sleep(POLL_MILLIS);
    }
    return problems;
  }

  /** The invariants that apply to one test, each begun before it. */
  private static final class Checks {
    final List<Invariant> invariants;

    Checks(List<Invariant> invariants) {
      this.invariants = invariants;
    }
  }
}
