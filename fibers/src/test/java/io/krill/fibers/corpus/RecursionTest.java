package io.krill.fibers.corpus;

import static io.krill.fibers.corpus.Points.point;
import static org.assertj.core.api.Assertions.assertThat;

import io.krill.fibers.Suspendable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** A deep stack of woven frames is captured and restored whole. */
class RecursionTest {
  static final int DEPTH = 10_000;

  static long descend(int n, long acc, String tag) throws Suspendable {
    if (n == 0) {
      point(); // the only suspension, at the bottom
      return acc + tag.length();
    }
    long below = descend(n - 1, acc + n, tag);
    return below + (n % 7);
  }

  int depthSeen;

  int instanceDescend(int n) throws Suspendable {
    if (n == 0) {
      return point(depthSeen);
    }
    depthSeen++;
    return 1 + instanceDescend(n - 1);
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void recursion_tenThousandDeepSuspendAtBottom_resumesWholeStack(Mode mode) throws Exception {
    long[] result = new long[2];
    Throwable[] failure = new Throwable[1];
    // A big stack of its own, so the depth does not depend on the runner's -Xss.
    Thread t = new Thread(null, () -> {
      try {
        result[0] = mode.call(() -> descend(DEPTH, 0L, "xyz"));
        if (mode.suspends) {
          assertThat(Mode.lastSuspensions).isEqualTo(1);
        }
        RecursionTest r = new RecursionTest();
        result[1] = mode.call(() -> r.instanceDescend(DEPTH));
      } catch (Throwable e) {
        failure[0] = e;
      }
    }, "deep-recursion", 256L << 20);
    t.start();
    t.join();
    if (failure[0] != null) {
      throw new AssertionError(failure[0]);
    }
    long expected = (long) DEPTH * (DEPTH + 1) / 2 + 3;
    for (int n = 1; n <= DEPTH; n++) {
      expected += n % 7;
    }
    assertThat(result[0]).isEqualTo(expected);
    assertThat(result[1]).isEqualTo(2L * DEPTH);
  }
}
