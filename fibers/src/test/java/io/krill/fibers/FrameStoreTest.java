package io.krill.fibers;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The frame store as woven code leaves it: what a suspension saves and what a resume takes back. */
class FrameStoreTest {
  static Object used;
  /** The store's references as a resume left them, read by the resumed frame itself. */
  static List<Object> afterResume;

  /** Holds {@code held} live across one suspension, then suspends again with it dead. */
  static int holdThenDrop(Object held, int n) throws Suspendable {
    long wide = n * 3L;
    Continuation.suspend();
    afterResume = refs(Stack.current());
    used = held; // live across the first suspension only
    Continuation.suspend();
    return (int) wide + n;
  }

  static int deep(Object held, int depth) throws Suspendable {
    return depth == 0 ? holdThenDrop(held, 7) : deep(held, depth - 1) + 1;
  }

  @Test
  void resume_takesSavedReferencesBack_storeKeepsNoneThatAreDead() {
    Object held = new Object();
    int[] out = new int[1];
    Continuation c = new Continuation(() -> out[0] = holdThenDrop(held, 5));

    c.run();
    assertThat(refs(c)).as("saved while live").contains(held);

    c.run();
    assertThat(used).isSameAs(held);
    assertThat(afterResume).as("every slot cleared once its frame is restored").containsOnlyNulls();
    assertThat(refs(c)).as("a resumed value no longer lives in the store").doesNotContain(held);

    c.run();
    assertThat(c.isDone()).isTrue();
    assertThat(out[0]).isEqualTo(5 * 3 + 5);
  }

  @Test
  void suspend_deeperThanTheFirstStore_growsAndRestoresEveryFrame() {
    Object held = new Object();
    int[] out = new int[1];
    Continuation c = new Continuation(() -> out[0] = deep(held, 40));

    c.run();
    assertThat(c.frameIds()).hasSizeGreaterThan(40);
    assertThat(c.prims.length).isGreaterThanOrEqualTo(c.primTop);
    c.run();
    assertThat(afterResume).containsOnlyNulls();
    assertThat(refs(c)).doesNotContain(held);
    c.run();
    assertThat(c.isDone()).isTrue();
    assertThat(out[0]).isEqualTo(7 * 3 + 7 + 40);
  }

  private static List<Object> refs(Stack s) {
    return s.refs == null ? List.of() : Arrays.asList(s.refs.clone());
  }
}
