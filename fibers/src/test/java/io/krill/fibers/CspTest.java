package io.krill.fibers;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Timeout;

/**
 * What every test of a CSP primitive starts from: a deterministic scheduler, so that order and
 * virtual time are exact, a log the fibers append to, and a generous hang timeout.
 */
@Timeout(30)
abstract class CspTest {
  /** Runs the test's fibers in a fixed order on virtual time. */
  final DeterministicScheduler s = FiberScheduler.deterministic();
  /** What the fibers did, in order; written by fibers of {@link #s} only. */
  final List<String> log = new ArrayList<>();

  /** Starts {@code body} on a fiber of {@link #s} and runs until every fiber is parked or done. */
  Fiber parked(String name, SuspendableRunnable body) {
    Fiber f = CspTestSupport.fiber(s, name, body);
    s.runUntilIdle();
    return f;
  }

  /** Cancels {@code f}, runs until idle again, and returns how it ended. */
  Throwable cancelled(Fiber f) {
    f.cancel();
    s.runUntilIdle();
    return CspTestSupport.failureOf(f);
  }
}
