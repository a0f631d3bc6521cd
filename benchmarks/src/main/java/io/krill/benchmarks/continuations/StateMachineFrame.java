package io.krill.benchmarks.continuations;

/**
 * The floor for a suspend+resume: a hand-written state machine with one object per frame.
 * {@link #resume()} re-enters the chain down to the bottom frame, which does the loop's work
 * and "suspends" by recording its resume point and returning; each frame above records its
 * own resume point on the way out, as woven code does, but in fields made for it.
 */
final class StateMachineFrame {
  private final StateMachineFrame child;
  private int resumePoint;
  long resumes;

  private StateMachineFrame(StateMachineFrame child) {
    this.child = child;
  }

  /**
   * Builds a chain of {@code depth} frames.
   *
   * @param depth the number of frames, at least 1
   * @return the outermost frame
   */
  static StateMachineFrame chain(int depth) {
    if (depth < 1) {
      throw new IllegalArgumentException("depth: " + depth + " (expected: > 0)");
    }
    StateMachineFrame f = new StateMachineFrame(null);
    for (int i = 1; i < depth; i++) {
      f = new StateMachineFrame(f);
    }
    return f;
  }

  /** @return how often the bottom frame was resumed */
  long bottomResumes() {
    StateMachineFrame f = this;
    while (f.child != null) {
      f = f.child;
    }
    return f.resumes;
  }

  /** @return true when the chain suspended (always: the loop never ends) */
  boolean resume() {
    if (child != null) {
      if (child.resume()) {
        resumePoint = 1;
        return true;
      }
      resumePoint = 2;
      return false;
    }
    if (resumePoint == 1) {
      resumes++;
    }
    resumePoint = 1;
    return true;
  }
}
