package io.krill.fibers;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A primitive's stack entry, {@code name(args..., Stack, byte)}: woven callers pass the stack
 * they hold and its flow, 0 at the call and above 0 when the restore makes the call again.
 */
class PrimitiveEntryTest {
  static final List<String> seen = new ArrayList<>();

  /** A primitive with an entry beside it; both suspend through the real runtime. */
  static final class Gate {
    private Gate() {}

    @Primitive
    static void pass() throws Suspendable {
      seen.add("original");
      Continuation.suspend();
    }

    @Primitive
    static void pass(Stack s, byte flow) throws Suspendable {
      seen.add("entry " + flow + (s == Stack.current() ? "" : " (another stack)"));
      Continuation.suspend(s, flow);
    }
  }

  static int loop(int n) throws Suspendable {
    int sum = 0;
    for (int i = 0; i < n; i++) {
      Gate.pass();
      sum += i;
    }
    return sum;
  }

  @Test
  void wovenCaller_callsTheEntry_withFlow0_thenFlow1OnTheRestore() {
    seen.clear();
    int[] out = new int[1];
    Continuation c = new Continuation(() -> out[0] = loop(2));
    c.run();
    assertThat(seen).containsExactly("entry 0");
    assertThat(c.isSuspended()).isTrue();
    c.run();
    assertThat(seen).containsExactly("entry 0", "entry 1", "entry 0");
    c.run();
    assertThat(c.isDone()).isTrue();
    assertThat(seen).containsExactly("entry 0", "entry 1", "entry 0", "entry 1");
    assertThat(out[0]).isEqualTo(1);
  }

  @Test
  void handWrittenCallers_reachTheOriginal_whichLooksTheStackUp() {
    seen.clear();
    Continuation c = new Continuation(Gate::pass);
    c.run();
    assertThat(seen).containsExactly("original");
    c.run();
    assertThat(c.isDone()).isTrue();
    assertThat(seen).containsExactly("original", "original");
  }
}
