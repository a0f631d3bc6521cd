package io.krill.benchmarks.continuations;

import org.openjdk.jmh.annotations.CompilerControl;

/**
 * The unwoven twin of {@link WovenOutlinedChain}: the same methods, not marked {@code throws
 * Suspendable}, so the weaver leaves them alone; {@code p1} calls a plain method where
 * {@code w1} would suspend. Every method of the chain is
 * kept out of line ({@code DONT_INLINE}), so each level is a real call, as it is for methods
 * too big to inline.
 */
final class PlainOutlinedChain {
  private PlainOutlinedChain() {}

  /**
   * Calls the chain at depth {@code depth} {@code n} times.
   *
   * @return a sum of the results, so that no call is dead code
   */
  static int calls(int depth, int n) {
    int sum = 0;
    switch (depth) {
      case 1:
        for (int i = 0; i < n; i++) {
          sum += p1(i);
        }
        return sum;
      case 5:
        for (int i = 0; i < n; i++) {
          sum += p5(i);
        }
        return sum;
      case 20:
        for (int i = 0; i < n; i++) {
          sum += p20(i);
        }
        return sum;
      default:
        throw new IllegalArgumentException("depth: " + depth + " (expected: 1, 5 or 20)");
    }
  }

  @CompilerControl(CompilerControl.Mode.DONT_INLINE)
  static int p1(int x) {
    if (x < 0) {
      neverCalled();
    }
    return x * 31 + 7;
  }

  @CompilerControl(CompilerControl.Mode.DONT_INLINE)
  static int p2(int x) {
    return p1(x + 2) ^ 2;
  }

  @CompilerControl(CompilerControl.Mode.DONT_INLINE)
  static int p3(int x) {
    return p2(x + 3) ^ 3;
  }

  @CompilerControl(CompilerControl.Mode.DONT_INLINE)
  static int p4(int x) {
    return p3(x + 4) ^ 4;
  }

  @CompilerControl(CompilerControl.Mode.DONT_INLINE)
  static int p5(int x) {
    return p4(x + 5) ^ 5;
  }

  @CompilerControl(CompilerControl.Mode.DONT_INLINE)
  static int p6(int x) {
    return p5(x + 6) ^ 6;
  }

  @CompilerControl(CompilerControl.Mode.DONT_INLINE)
  static int p7(int x) {
    return p6(x + 7) ^ 7;
  }

  @CompilerControl(CompilerControl.Mode.DONT_INLINE)
  static int p8(int x) {
    return p7(x + 8) ^ 8;
  }

  @CompilerControl(CompilerControl.Mode.DONT_INLINE)
  static int p9(int x) {
    return p8(x + 9) ^ 9;
  }

  @CompilerControl(CompilerControl.Mode.DONT_INLINE)
  static int p10(int x) {
    return p9(x + 10) ^ 10;
  }

  @CompilerControl(CompilerControl.Mode.DONT_INLINE)
  static int p11(int x) {
    return p10(x + 11) ^ 11;
  }

  @CompilerControl(CompilerControl.Mode.DONT_INLINE)
  static int p12(int x) {
    return p11(x + 12) ^ 12;
  }

  @CompilerControl(CompilerControl.Mode.DONT_INLINE)
  static int p13(int x) {
    return p12(x + 13) ^ 13;
  }

  @CompilerControl(CompilerControl.Mode.DONT_INLINE)
  static int p14(int x) {
    return p13(x + 14) ^ 14;
  }

  @CompilerControl(CompilerControl.Mode.DONT_INLINE)
  static int p15(int x) {
    return p14(x + 15) ^ 15;
  }

  @CompilerControl(CompilerControl.Mode.DONT_INLINE)
  static int p16(int x) {
    return p15(x + 16) ^ 16;
  }

  @CompilerControl(CompilerControl.Mode.DONT_INLINE)
  static int p17(int x) {
    return p16(x + 17) ^ 17;
  }

  @CompilerControl(CompilerControl.Mode.DONT_INLINE)
  static int p18(int x) {
    return p17(x + 18) ^ 18;
  }

  @CompilerControl(CompilerControl.Mode.DONT_INLINE)
  static int p19(int x) {
    return p18(x + 19) ^ 19;
  }

  @CompilerControl(CompilerControl.Mode.DONT_INLINE)
  static int p20(int x) {
    return p19(x + 20) ^ 20;
  }

  /** Stands where {@code w1} suspends; never called. */
  static void neverCalled() {
    throw new IllegalStateException("x < 0");
  }
}
