package io.krill.benchmarks.continuations;

import io.krill.fibers.Continuation;
import io.krill.fibers.Suspendable;

/**
 * Loops whose body calls a suspendable method, woven; {@link PlainLoops} is the unwoven twin.
 * {@link #step} suspends only on {@link Integer#MIN_VALUE}, so a caller chooses how often a
 * loop is resumed (entered from its restore path) rather than entered afresh.
 */
final class WovenLoops {
  private WovenLoops() {}

  static int step(int x) throws Suspendable {
    if (x == Integer.MIN_VALUE) {
      Continuation.suspend();
      return 0;
    }
    return x * 31 + 7;
  }

  /** A tight loop: one call per element. @return a sum of the steps */
  static long tight(int[] a) throws Suspendable {
    long sum = 0;
    for (int i = 0; i < a.length; i++) {
      sum += step(a[i]);
    }
    return sum;
  }

  /** Nested loops. @return a sum of the steps */
  static long nested(int[] a, int rows) throws Suspendable {
    long sum = 0;
    for (int r = 0; r < rows; r++) {
      long row = r;
      for (int i = 0; i < a.length; i++) {
        row += step(a[i] ^ r);
      }
      sum += row * 3;
    }
    return sum;
  }

  /** A retry loop around a try block. @return what the attempts summed */
  static long retry(int[] a) throws Suspendable {
    long sum = 0;
    int attempt = 0;
    for (;;) {
      try {
        for (int i = 0; i < a.length; i++) {
          sum += step(a[i]);
        }
        if (++attempt < 3) {
          throw new IllegalStateException("again");
        }
        return sum;
      } catch (IllegalStateException e) {
        sum += step(attempt);
      }
    }
  }

  /** Loops in a switch's arms. @return a sum of the steps */
  static long switched(int[] a, int k) throws Suspendable {
    long sum = 0;
    switch (k & 3) {
      case 0:
        for (int x : a) {
          sum += step(x);
        }
        break;
      case 1:
        for (int i = a.length - 1; i >= 0; i--) {
          sum -= step(a[i]);
        }
        break;
      default:
        int i = 0;
        while (i < a.length) {
          sum ^= step(a[i]);
          i += 2;
        }
    }
    return sum;
  }
}
