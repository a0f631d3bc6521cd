package io.krill.benchmarks.continuations;


/**
 * The unwoven twin of {@link WovenLoops}: the same methods, not marked {@code throws
 * Suspendable}, so the weaver leaves them alone; {@link #step} calls a plain method where
 * the woven one suspends.
 */
final class PlainLoops {
  private PlainLoops() {}

  private static void nothing() {
    // stands where the woven twin suspends
  }

  static int step(int x) {
    if (x == Integer.MIN_VALUE) {
      nothing();
      return 0;
    }
    return x * 31 + 7;
  }

  /** A tight loop: one call per element. @return a sum of the steps */
  static long tight(int[] a) {
    long sum = 0;
    for (int i = 0; i < a.length; i++) {
      sum += step(a[i]);
    }
    return sum;
  }

  /** Nested loops. @return a sum of the steps */
  static long nested(int[] a, int rows) {
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
  static long retry(int[] a) {
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
  static long switched(int[] a, int k) {
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
