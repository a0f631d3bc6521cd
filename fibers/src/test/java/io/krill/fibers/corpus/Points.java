package io.krill.fibers.corpus;

import io.krill.fibers.Continuation;
import io.krill.fibers.Suspendable;

/**
 * The suspension points of the corpus: identity functions that suspend the running
 * continuation when {@link Mode#SUSPEND_EVERYWHERE} forces them to, and do nothing otherwise.
 *
 * <p>State is static and confined to one test at a time (the corpus does not run in parallel).
 */
public final class Points {
  static boolean force;
  static int hits;

  private Points() {}

  static void reset(boolean forcing) {
    force = forcing;
    hits = 0;
  }

  /**
   * Suspends when forced; the bare point, with no value on the callee's side. May suspend.
   *
   * @throws Suspendable never; marks that this method may suspend
   */
  public static void point() throws Suspendable {
    if (force) {
      hits++;
      Continuation.suspend();
    }
  }

  static int point(int v) throws Suspendable {
    if (force) {
      hits++;
      Continuation.suspend();
    }
    return v;
  }

  static long point(long v) throws Suspendable {
    if (force) {
      hits++;
      Continuation.suspend();
    }
    return v;
  }

  static double point(double v) throws Suspendable {
    if (force) {
      hits++;
      Continuation.suspend();
    }
    return v;
  }

  static float point(float v) throws Suspendable {
    point();
    return v;
  }

  static boolean point(boolean v) throws Suspendable {
    point();
    return v;
  }

  static char point(char v) throws Suspendable {
    point();
    return v;
  }

  static byte point(byte v) throws Suspendable {
    point();
    return v;
  }

  static short point(short v) throws Suspendable {
    point();
    return v;
  }

  static <T> T point(T v) throws Suspendable {
    if (force) {
      hits++;
      Continuation.suspend();
    }
    return v;
  }
}
