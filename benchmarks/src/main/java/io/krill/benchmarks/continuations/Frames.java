package io.krill.benchmarks.continuations;

/** Plain (unwoven) recursion, to run a thread's work below a given number of frames. */
final class Frames {
  private Frames() {}

  /**
   * Runs {@code task} below {@code depth - 1} frames of this method, so that with the frame
   * that called it the task runs at depth {@code depth}.
   *
   * @param depth the depth, at least 1
   * @param task the work
   */
  static void below(int depth, Runnable task) {
    if (depth > 1) {
      below(depth - 1, task);
      return;
    }
    task.run();
  }
}
