package io.krill.benchmarks.continuations;

import io.krill.fibers.Continuation;
import io.krill.fibers.Suspendable;
import io.krill.fibers.SuspendableRunnable;

/**
 * A continuation body that recurses to {@code depth} suspendable frames (the body counts as
 * the first) and then suspends in an endless loop: each {@code run()} of its continuation is
 * one resume and one suspend of the whole stack.
 */
final class SuspendingLoop implements SuspendableRunnable {
  private final int depth;
  long resumes;

  SuspendingLoop(int depth) {
    if (depth < 1) {
      throw new IllegalArgumentException("depth: " + depth + " (expected: > 0)");
    }
    this.depth = depth;
  }

  @Override
  public void run() throws Suspendable {
    if (depth == 1) {
      for (;;) {
        Continuation.suspend();
        resumes++;
      }
    }
    down(depth - 1);
  }

  private void down(int frames) throws Suspendable {
    if (frames > 1) {
      down(frames - 1);
      return;
    }
    for (;;) {
      Continuation.suspend();
      resumes++;
    }
  }
}
