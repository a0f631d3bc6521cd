package io.krill.fibers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ContinuationTest {
  static final List<String> log = new ArrayList<>();

  static int step(String name, int x) throws Suspendable {
    log.add(name + ":" + x);
    Continuation.suspend();
    return x + 1;
  }

  static long mixed(int a, long b, double c, String s) throws Suspendable {
    int k = step("m", a);
    long r = b + k;
    double d = c * 2;
    String t = s + k;
    int k2 = step(t, k);
    return r + k2 + (long) d + t.length();
  }

  @Test
  void run_suspendsAndResumes_inOrder() {
    log.clear();
    long[] out = new long[1];
    Continuation c = new Continuation(() -> out[0] = mixed(1, 10L, 1.5, "x"));
    c.run();
    assertThat(log).containsExactly("m:1");
    assertThat(c.isSuspended()).isTrue();
    c.run();
    assertThat(log).containsExactly("m:1", "x2:2");
    c.run();
    assertThat(c.isDone()).isTrue();
    assertThat(out[0]).isEqualTo(10L + 2 + 3 + 3 + 2);
  }

  @Test
  void offFiber_behavesLikePlainCode() throws Exception {
    log.clear();
    assertThatThrownBy(() -> Continuation.runOnThread(() -> mixed(1, 10L, 1.5, "x")))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("no continuation");
  }

  @Test
  void generator_yieldsInOrder() {
    Generator<Integer> g = new Generator<>(out -> {
      for (int i = 1; i <= 3; i++) {
        out.yield(i * i);
      }
    });
    List<Integer> got = new ArrayList<>();
    for (int v : g) {
      got.add(v);
    }
    assertThat(got).containsExactly(1, 4, 9);
  }
}
