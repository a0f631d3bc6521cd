package io.krill.fibers.corpus;

import static org.assertj.core.api.Assertions.assertThat;

import io.krill.fibers.Continuation;
import io.krill.fibers.Suspendable;
import io.krill.fibers.SuspendableCallable;

/**
 * How a corpus case runs. Every case runs in each mode and must give the same result:
 * plain on the thread, inside a continuation that never suspends, and inside a continuation
 * that suspends at every {@link Points} call and is resumed until done.
 */
enum Mode {
  /** Outside any continuation, via {@link Continuation#callOnThread}. */
  ON_THREAD(false),
  /** Inside a continuation whose suspension points do not suspend. */
  IN_CONTINUATION(false),
  /** Inside a continuation that suspends at every suspension point. */
  SUSPEND_EVERYWHERE(true);

  /** Suspensions of the last {@link #call}, counted by the driver loop; static, one test at a time. */
  static int lastSuspensions;

  final boolean suspends;

  Mode(boolean suspends) {
    this.suspends = suspends;
  }

  /**
   * Runs {@code body} in this mode and returns its result. An exception of the body propagates
   * unchanged (same instance, same stack trace). When the mode suspends, checks that every
   * suspension point reached suspended the continuation exactly once, and at least once.
   */
  <T> T call(SuspendableCallable<T> body) {
    Points.reset(suspends);
    lastSuspensions = 0;
    if (this == ON_THREAD) {
      T v = Continuation.callOnThread(body);
      assertThat(Points.hits).as("suspension points that suspended").isZero();
      return v;
    }
    Object[] box = new Object[1];
    Continuation c = new Continuation(() -> box[0] = callSneaky(body));
    int runs = 0;
    try {
      do {
        runs++;
        c.run();
        if (runs > 10_000_000) {
          throw new AssertionError("continuation never finished");
        }
      } while (!c.isDone());
    } finally {
      lastSuspensions = runs - 1;
      Points.force = false;
    }
    assertThat(lastSuspensions).as("suspensions seen by run()").isEqualTo(Points.hits);
    if (suspends) {
      assertThat(lastSuspensions).as("suspensions in %s", this).isPositive();
    }
    @SuppressWarnings("unchecked")
    T v = (T) box[0];
    return v;
  }

  /** Runs a body that returns nothing; see {@link #call}. */
  void run(io.krill.fibers.SuspendableRunnable body) {
    call(() -> {
      body.run();
      return null;
    });
  }

  private static <T> T callSneaky(SuspendableCallable<T> body) throws Suspendable {
    try {
      return body.call();
    } catch (Exception e) {
      throw Mode.<RuntimeException>sneaky(e);
    }
  }

  @SuppressWarnings("unchecked")
  private static <E extends Throwable> E sneaky(Throwable e) throws E {
    throw (E) e;
  }
}
