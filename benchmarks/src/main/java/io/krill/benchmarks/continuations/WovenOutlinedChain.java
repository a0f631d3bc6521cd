package io.krill.benchmarks.continuations;

import io.krill.fibers.Continuation;
import io.krill.fibers.Suspendable;
import org.openjdk.jmh.annotations.CompilerControl;

/**
 * A chain of 20 suspendable methods that can suspend but do not: {@code wN(x)} calls
 * {@code wN-1(x + N)}, and {@code w1} suspends only for a negative argument, which the
 * benchmark never passes. Woven by the build. Every method of the chain is
 * kept out of line ({@code DONT_INLINE}), so each level is a real call, as it is for methods
 * too big to inline. {@link PlainOutlinedChain} is the same code without
 * {@code throws Suspendable}, which the weaver leaves alone.
 */
final class WovenOutlinedChain {
  private WovenOutlinedChain() {}

  /**
   * Calls the chain at depth {@code depth} {@code n} times.
   *
   * @return a sum of the results, so that no call is dead code
   */
  static int calls(int depth, int n) throws Suspendable {
    int sum = 0;
    switch (depth) {
      case 1:
        for (int i = 0; i < n; i++) {
          sum += w1(i);
        }
        return sum;
      case 5:
        for (int i = 0; i < n; i++) {
          sum += w5(i);
        }
        return sum;
      case 20:
        for (int i = 0; i < n; i++) {
          sum += w20(i);
        }
        return sum;
      default:
        throw new IllegalArgumentException("depth: " + depth + " (expected: 1, 5 or 20)");
    }
  }

  @CompilerControl(CompilerControl.Mode.DONT_INLINE)
  static int w1(int x) throws Suspendable {
    if (x < 0) {
      Continuation.suspend();
    }
    return x * 31 + 7;
  }

  @CompilerControl(CompilerControl.Mode.DONT_INLINE)
  static int w2(int x) throws Suspendable {
    return w1(x + 2) ^ 2;
  }

  @CompilerControl(CompilerControl.Mode.DONT_INLINE)
  static int w3(int x) throws Suspendable {
    return w2(x + 3) ^ 3;
  }

  @CompilerControl(CompilerControl.Mode.DONT_INLINE)
  static int w4(int x) throws Suspendable {
    return w3(x + 4) ^ 4;
  }

  @CompilerControl(CompilerControl.Mode.DONT_INLINE)
  static int w5(int x) throws Suspendable {
    return w4(x + 5) ^ 5;
  }

  @CompilerControl(CompilerControl.Mode.DONT_INLINE)
  static int w6(int x) throws Suspendable {
    return w5(x + 6) ^ 6;
  }

  @CompilerControl(CompilerControl.Mode.DONT_INLINE)
  static int w7(int x) throws Suspendable {
    return w6(x + 7) ^ 7;
  }

  @CompilerControl(CompilerControl.Mode.DONT_INLINE)
  static int w8(int x) throws Suspendable {
    return w7(x + 8) ^ 8;
  }

  @CompilerControl(CompilerControl.Mode.DONT_INLINE)
  static int w9(int x) throws Suspendable {
    return w8(x + 9) ^ 9;
  }

  @CompilerControl(CompilerControl.Mode.DONT_INLINE)
  static int w10(int x) throws Suspendable {
    return w9(x + 10) ^ 10;
  }

  @CompilerControl(CompilerControl.Mode.DONT_INLINE)
  static int w11(int x) throws Suspendable {
    return w10(x + 11) ^ 11;
  }

  @CompilerControl(CompilerControl.Mode.DONT_INLINE)
  static int w12(int x) throws Suspendable {
    return w11(x + 12) ^ 12;
  }

  @CompilerControl(CompilerControl.Mode.DONT_INLINE)
  static int w13(int x) throws Suspendable {
    return w12(x + 13) ^ 13;
  }

  @CompilerControl(CompilerControl.Mode.DONT_INLINE)
  static int w14(int x) throws Suspendable {
    return w13(x + 14) ^ 14;
  }

  @CompilerControl(CompilerControl.Mode.DONT_INLINE)
  static int w15(int x) throws Suspendable {
    return w14(x + 15) ^ 15;
  }

  @CompilerControl(CompilerControl.Mode.DONT_INLINE)
  static int w16(int x) throws Suspendable {
    return w15(x + 16) ^ 16;
  }

  @CompilerControl(CompilerControl.Mode.DONT_INLINE)
  static int w17(int x) throws Suspendable {
    return w16(x + 17) ^ 17;
  }

  @CompilerControl(CompilerControl.Mode.DONT_INLINE)
  static int w18(int x) throws Suspendable {
    return w17(x + 18) ^ 18;
  }

  @CompilerControl(CompilerControl.Mode.DONT_INLINE)
  static int w19(int x) throws Suspendable {
    return w18(x + 19) ^ 19;
  }

  @CompilerControl(CompilerControl.Mode.DONT_INLINE)
  static int w20(int x) throws Suspendable {
    return w19(x + 20) ^ 20;
  }
}
