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
  void resume_readsSavedReferences_nextCaptureKeepsNoneThatAreDead() {
    Object held = new Object();
    int[] out = new int[1];
    Continuation c = new Continuation(() -> out[0] = holdThenDrop(held, 5));

    c.run();
    assertThat(refs(c)).as("saved while live").contains(held);

    c.run();
    assertThat(used).isSameAs(held);
    assertThat(afterResume).as("a restore reads the slots and leaves them until the next capture").contains(held);
    assertThat(refs(c)).as("a value dead at the next capture no longer lives in the store").doesNotContain(held);

    c.run();
    assertThat(c.isDone()).isTrue();
    assertThat(out[0]).isEqualTo(5 * 3 + 5);
  }

  @Test
  void frameIds_readWhileTheStackFinishesOnItsCarrier_partialListNotAnException() {
    Continuation c = new Continuation(() -> deep(new Object(), 3));
    c.run();
    List<String> whole = c.frameIds();
    assertThat(whole).hasSize(6); // the body, four deep frames, holdThenDrop
    long[] prims = c.prims;
    Object[] refs = c.refs;

    // What a dump on another thread may see while finish() clears the store field by field.
    c.prims = null;
    assertThat(c.frameIds()).as("arrays already dropped, tops not yet cleared").isEmpty();
    c.prims = new long[1];
    assertThat(c.frameIds()).as("a top past the arrays it reads").isEmpty();
    c.prims = prims;
    c.refs = new Object[refs.length];
    assertThat(c.frameIds()).as("slots already cleared by a restore").isEmpty();
    c.refs = refs;
    assertThat(c.frameIds()).isEqualTo(whole);
  }

  @Test
  void suspend_deeperThanTheFirstStore_growsAndRestoresEveryFrame() {
    Object held = new Object();
    int[] out = new int[1];
    Continuation c = new Continuation(() -> out[0] = deep(held, 40));

    c.run();
    assertThat(c.frameIds()).hasSizeGreaterThan(40);
    assertThat(c.prims.length).isGreaterThanOrEqualTo(c.primTop);
    resumeToTheEnd(c, held, out, 40);
  }

  @Test
  void suspend_deeperThanTheScratchArrays_growsThemAndKeepsAnExactCopy() {
    Object held = new Object();
    int[] out = new int[1];
    Continuation c = new Continuation(() -> out[0] = deep(held, 300)); // one slot of each array a frame: past 256

    c.run();
    assertThat(c.frameIds()).hasSizeGreaterThan(300);
    assertThat(c.prims.length).as("the stack keeps its frames' size").isEqualTo(c.primTop);
    assertThat(c.refs.length).isEqualTo(c.refTop);
    assertThat(refs(c)).contains(held);
    assertThat(Arrays.asList(Stack.scratch().refs)).as("the thread keeps no saved reference").containsOnlyNulls();
    resumeToTheEnd(c, held, out, 300);
  }

  @Test
  void suspend_largerThanEveryEarlierCapture_movesToScratchAndRestoresEveryFrame() {
    Object held = new Object();
    int[] out = new int[1];
    Continuation c = new Continuation(() -> {
      Continuation.suspend();
      out[0] = deep(held, 40);
    });

    c.run();
    int shallow = c.prims.length;
    assertThat(shallow).isEqualTo(c.primTop);
    c.run(); // this capture outgrows the arrays the first one left
    assertThat(c.prims.length).isGreaterThan(shallow).isEqualTo(c.primTop);
    assertThat(c.refs.length).isEqualTo(c.refTop);
    assertThat(Arrays.asList(Stack.scratch().refs)).containsOnlyNulls();
    resumeToTheEnd(c, held, out, 40);
  }

  /**
   * Resumes a continuation parked at the bottom of {@link #deep}: the next capture, smaller,
   * keeps no dead reference, and the run ends with the value {@code deep} computes.
   */
  private static void resumeToTheEnd(Continuation c, Object held, int[] out, int depth) {
    c.run();
    assertThat(afterResume).contains(held);
    assertThat(refs(c)).doesNotContain(held);
    assertThat(refs(c).subList(c.refTop, c.refs.length)).as("nothing above the frames").containsOnlyNulls();
    c.run();
    assertThat(c.isDone()).isTrue();
    assertThat(out[0]).isEqualTo(7 * 3 + 7 + depth);
  }

  /** Holds {@code held} live across a suspension {@code depth} frames down only. */
  static Object deepHold(Object held, int depth) throws Suspendable {
    if (depth == 0) {
      Continuation.suspend();
      return held;
    }
    Object r = deepHold(held, depth - 1);
    return r;
  }

  @Test
  void suspend_smallerThanTheLastCapture_clearsTheSlotsAboveItsFrames() {
    Object held = new Object();
    Object[] out = new Object[1];
    Continuation c = new Continuation(() -> {
      out[0] = deepHold(held, 5);
      Continuation.suspend();
    });

    c.run();
    int deepTop = c.refTop;
    assertThat(refs(c)).contains(held);
    List<Object> first = refs(c);
    c.run(); // resumes at the bottom of deepHold, returns to the body, suspends one frame deep
    assertThat(c.refTop).isLessThan(deepTop);
    assertThat(c.refs.length).as("the same arrays, not a copy").isEqualTo(first.size());
    assertThat(refs(c).subList(c.refTop, c.refs.length)).as("nothing above the frames").containsOnlyNulls();
    assertThat(refs(c)).doesNotContain(held);

    c.run();
    assertThat(c.isDone()).isTrue();
    assertThat(out[0]).isSameAs(held);
  }

  @Test
  void suspend_whereItSuspendedBefore_savesTheSameReferencesInTheSameSlots() {
    Object held = new Object();
    Continuation c = new Continuation(() -> {
      for (int i = 0; i < 3; i++) {
        used = deepHold(held, 3);
      }
    });

    c.run();
    List<Object> first = refs(c);
    c.run();
    assertThat(refs(c)).as("a frame saved again at the same place").isEqualTo(first);
    c.run();
    c.run();
    assertThat(c.isDone()).isTrue();
    assertThat(used).isSameAs(held);
  }

  /*
   * level frames, each holding a value of its own across the calls below it; the bottom one
   * suspends `hops` times, `hop / 2 % 3` frames deeper, so the frames above it find the store
   * below them as large as at the last suspension every other time (saved again in place) and
   * larger or smaller in between (saved again in full).
   */
  static long waitingChain(int level, Object mine, int hops) throws Suspendable {
    long wide = level * 1_000_003L;
    if (level == 0) {
      long sum = 0;
      for (int hop = 0; hop < hops; hop++) {
        sum += (Integer) deepHold(hop, hop / 2 % 3);
      }
      return sum + wide;
    }
    long below = waitingChain(level - 1, new Object[] {mine}, hops);
    assertThat(mine).isNotNull();
    return below + wide + ((Object[]) mine).length;
  }

  /** {@link #waitingChain}'s levels, each calling the next through an interface (no stack entry). */
  interface Level {
    long run(int level, Object mine, int hops) throws Suspendable;
  }

  /** The levels of {@link #waitingChain} above the first, made through {@link Level}: a framework's handler chain. */
  static final class InterfaceLevels implements Level {
    static final Level NEXT = new InterfaceLevels();

    @Override
    public long run(int level, Object mine, int hops) throws Suspendable {
      long wide = level * 1_000_003L;
      Object[] wrapped = {mine};
      long below = level == 1 ? waitingChain(0, wrapped, hops) : NEXT.run(level - 1, wrapped, hops); // level 0 is the static one's
      assertThat(mine).isNotNull();
      return below + wide + ((Object[]) mine).length;
    }
  }

  @Test
  void resume_framesThatOnlyWait_keepTheirValuesWhetherSavedInPlaceOrAgain() {
    Object[] mine = new Object[7];
    long[] out = new long[1];
    runWaitingChain(new Continuation(() -> out[0] = waitingChain(6, mine, 40)), mine);
    assertThat(out[0]).isEqualTo(waitingChainResult());
  }

  @Test
  void resume_framesThatOnlyWaitOnAnInterfaceCall_keepTheirValuesWhetherSavedInPlaceOrAgain() {
    Object[] mine = new Object[7];
    long[] out = new long[1];
    runWaitingChain(new Continuation(() -> out[0] = InterfaceLevels.NEXT.run(6, mine, 40)), mine);
    assertThat(out[0]).isEqualTo(waitingChainResult());
  }

  /* Runs a waiting chain of seven levels over 40 hops, checking the store after each. */
  private static void runWaitingChain(Continuation c, Object[] mine) {
    int runs = 0;
    while (!c.isDone()) {
      c.run();
      runs++;
      if (runs == 1) {
        assertThat(refs(c).stream().anyMatch(o -> o == mine)).as("the top frame's value saved").isTrue();
      }
      if (!c.isDone()) {
        assertThat(c.frameIds()).as("run " + runs).hasSize(9 + (runs - 1) / 2 % 3); // the body, seven levels, deepHold and the extra frames
        assertThat(refs(c).subList(c.refTop, c.refs.length)).as("nothing above the frames").allMatch(o -> o == null);
      }
    }
    assertThat(runs).isEqualTo(41);
  }

  private static long waitingChainResult() {
    long expected = 0;
    for (int hop = 0; hop < 40; hop++) {
      expected += hop;
    }
    for (int level = 0; level <= 6; level++) {
      expected += level * 1_000_003L;
    }
    return expected + 6 * 1 + 7 - 1; // level 6 sees mine (7 slots), levels 1..5 a one-slot wrapper
  }

  /** Holds twenty references across a suspension. */
  static int manyRefs(Object x) throws Suspendable {
    Object a = x, b = x, c = x, d = x, e = x, f = x, g = x, h = x, i = x, j = x;
    Object k = x, l = x, m = x, n = x, o = x, p = x, q = x, r = x, s = x, t = x;
    Continuation.suspend();
    Object[] all = {a, b, c, d, e, f, g, h, i, j, k, l, m, n, o, p, q, r, s, t};
    int same = 0;
    for (Object v : all) {
      same += v == x ? 1 : 0;
    }
    return same;
  }

  /** Holds twenty longs across a suspension. */
  static long manyPrims(long x) throws Suspendable {
    long a = x, b = x + 1, c = x + 2, d = x + 3, e = x + 4, f = x + 5, g = x + 6, h = x + 7, i = x + 8, j = x + 9;
    long k = x + 10, l = x + 11, m = x + 12, n = x + 13, o = x + 14, p = x + 15, q = x + 16, r = x + 17;
    Continuation.suspend();
    return a + b + c + d + e + f + g + h + i + j + k + l + m + n + o + p + q + r;
  }

  @Test
  void resume_onAnotherThread_aCaptureWithMorePrimitivesAndFewerReferences_endsClean() throws Exception {
    Object held = new Object();
    long[] out = new long[2];
    Continuation c = new Continuation(() -> {
      out[0] = manyRefs(held);
      out[1] = manyPrims(100);
    });
    // Each run on a new thread: off a carrier the scratch arrays are the thread's own (16 slots at first).
    for (int run = 0; run < 3; run++) {
      Throwable[] failed = new Throwable[1];
      Thread t = new Thread(() -> {
        try {
          c.run();
        } catch (Throwable e) {
          failed[0] = e;
        }
      });
      t.start();
      t.join();
      assertThat(failed[0]).as("run " + run).isNull();
      if (!c.isDone()) {
        assertThat(refs(c).subList(c.refTop, c.refs.length)).as("nothing above the frames").allMatch(o -> o == null);
      }
    }
    assertThat(c.isDone()).isTrue();
    assertThat(out[0]).isEqualTo(20);
    assertThat(out[1]).isEqualTo(18 * 100 + 17 * 18 / 2);
  }

  static Object raw(int n) throws Suspendable {
    Continuation.suspend();
    return "r" + n;
  }

  static int prim(long n) throws Suspendable {
    Continuation.suspend();
    return (int) n * 2;
  }

  /** A pure forwarder: loads its argument, calls, casts the result. */
  static String forwardCast(int n) throws Suspendable {
    return (String) raw(n);
  }

  /** A pure forwarder: widens its argument, returns a primitive. */
  static int forwardPrim(int n) throws Suspendable {
    return prim(n);
  }

  /** Passes a constant: not a pure forwarder, keeps its frame. */
  static int withConstant() throws Suspendable {
    return prim(4L);
  }

  /** Delegations through final fields: pure forwarders; one through a plain field keeps its frame. */
  static final class Delegate {
    static final Delegate SHARED = new Delegate(null, 11);
    final Delegate inner;
    final int n;
    Delegate swapped;

    Delegate(Delegate inner, int n) {
      this.inner = inner;
      this.n = n;
      this.swapped = inner;
    }

    String value() throws Suspendable {
      return (String) raw(n);
    }

    String viaInner() throws Suspendable {
      return inner.value();
    }

    String viaChain() throws Suspendable {
      return inner.inner.value();
    }

    static String viaStatic() throws Suspendable {
      return SHARED.value();
    }

    String viaPlainField() throws Suspendable {
      return swapped.value();
    }
  }

  /** Calls on `this` and on locals, with a local's copy on the operand stack below a call. */
  static final class Relay {
    final String name;

    Relay(String name) {
      this.name = name;
    }

    Object take(Object o) throws Suspendable {
      Continuation.suspend();
      return o;
    }

    Object named(Object o) throws Suspendable {
      Continuation.suspend();
      return name + o;
    }

    Object pair() throws Suspendable {
      Object a = take("a");
      return a + "/" + take("b");
    }

    @Override
    public String toString() {
      return name;
    }
  }

  static Object relay(Relay in, Relay out, Object token) throws Suspendable {
    Object r = out.take(in.take(token));
    return r + ":" + in + out;
  }

  /** The receiver is loaded from {@code r}, then {@code r} is overwritten before the call: not a copy. */
  static Object swapReceiver(Relay r, Relay other) throws Suspendable {
    return r.named(r = other) + "/" + r;
  }

  static long wide(long x) throws Suspendable {
    Continuation.suspend();
    return x * 2;
  }

  /** A long below the call that is a copy of the saved local {@code x}. */
  static long keepsLong(long x) throws Suspendable {
    long r = x + wide(x);
    return r + x;
  }

  static void suspendTwice() throws Suspendable {
    Continuation.suspend();
    Continuation.suspend();
  }

  private static boolean savedFrameOf(Continuation c, String method) {
    return c.frameIds().stream().anyMatch(id -> id.contains("." + method + "("));
  }

  @Test
  void suspend_throughPureForwarders_savesNoFrameForThem_resumesThroughThem() {
    String[] text = new String[1];
    int[] out = new int[2];
    Continuation c = new Continuation(() -> {
      text[0] = forwardCast(3);
      out[0] = forwardPrim(5);
      out[1] = withConstant();
    });

    c.run();
    assertThat(savedFrameOf(c, "raw")).isTrue();
    assertThat(savedFrameOf(c, "forwardCast")).as("a forwarder saves no frame").isFalse();
    int withForwarder = c.frameIds().size();
    c.run();
    assertThat(text[0]).isEqualTo("r3");
    assertThat(savedFrameOf(c, "prim")).isTrue();
    assertThat(savedFrameOf(c, "forwardPrim")).isFalse();
    assertThat(c.frameIds()).hasSize(withForwarder);
    c.run();
    assertThat(out[0]).isEqualTo(10);
    assertThat(savedFrameOf(c, "withConstant")).as("a method passing a constant keeps its frame").isTrue();
    assertThat(c.frameIds()).hasSize(withForwarder + 1);
    c.run();
    assertThat(c.isDone()).isTrue();
    assertThat(out[1]).isEqualTo(8);
  }

  @Test
  void suspend_throughFinalFieldForwarders_savesNoFrameForThem_resumesOnTheSameObjects() {
    Delegate d = new Delegate(new Delegate(new Delegate(null, 3), 5), 7);
    String[] out = new String[4];
    Continuation c = new Continuation(() -> {
      out[0] = d.viaInner();
      out[1] = d.viaChain();
      out[2] = Delegate.viaStatic();
      out[3] = d.viaPlainField();
    });

    for (String forwarder : List.of("viaInner", "viaChain", "viaStatic")) {
      c.run();
      assertThat(savedFrameOf(c, "raw")).isTrue();
      assertThat(savedFrameOf(c, forwarder)).as(forwarder + " saves no frame").isFalse();
      assertThat(savedFrameOf(c, "value")).as("value passes a final field: no frame either").isFalse();
    }
    c.run();
    assertThat(savedFrameOf(c, "viaPlainField")).as("a plain field's delegation keeps its frame").isTrue();
    d.swapped = d; // changed while parked: the saved frame resumes the object of the first call
    c.run();

    assertThat(c.isDone()).isTrue();
    assertThat(out).containsExactly("r5", "r3", "r11", "r5");
  }

  /*
   * A receiver or an operand-stack value that is a copy of a saved local (or `this`) is not
   * saved again: at `out.take(in.take(token))` the store holds `in` and `out` once each (as
   * locals), not also as the inner call's receiver and the outer call's receiver below it.
   */
  @Test
  void suspend_copiesOfLocals_savedOnce_restoredFromTheLocal() {
    Relay in = new Relay("in");
    Relay out = new Relay("out");
    Relay self = new Relay("self");
    Object[] result = new Object[2];
    Continuation c = new Continuation(() -> {
      result[0] = relay(in, out, "t");
      result[1] = self.pair();
    });

    c.run(); // in in.take
    // woven for lazy resume, each frame of an instance method also saves its own receiver
    int self1 = lazilyWoven(c) ? 1 : 0;
    assertThat(refs(c).stream().filter(r -> r == in)).as("in, once").hasSize(1 + self1);
    assertThat(refs(c).stream().filter(r -> r == out)).as("out, once (not again below the call)").hasSize(1);
    c.run(); // in out.take
    assertThat(refs(c).stream().filter(r -> r == out)).as("out, once (not again as the receiver)").hasSize(1 + self1);
    c.run(); // in self.pair's first take
    assertThat(result[0]).isEqualTo("t:inout");
    assertThat(refs(c).stream().filter(r -> r == self))
        .as("once, as the lambda's receiver; pair's call on `this` saves none: its caller supplies it")
        .hasSize(1 + 2 * self1);
    c.run();
    c.run();

    assertThat(c.isDone()).isTrue();
    assertThat(result[1]).isEqualTo("a/b");
  }

  /* A local written between its load and the call is no copy; a two-slot copy restores whole. */
  @Test
  void suspend_localOverwrittenBeforeTheCall_receiverSavedApart_longCopyRestored() {
    Object[] out = new Object[2];
    Continuation c = new Continuation(() -> {
      out[0] = swapReceiver(new Relay("first"), new Relay("second"));
      out[1] = keepsLong(5L);
    });

    c.run();
    c.run();
    assertThat(out[0]).as("the call went to the object loaded before the write").isEqualTo("firstsecond/second");
    c.run();

    assertThat(c.isDone()).isTrue();
    assertThat(out[1]).isEqualTo(20L);
  }

  /* The heap of a parked fiber: a method reference's forwarding body adds no frame to the target's one. */
  @Test
  void suspend_inMethodReferenceBody_storeHoldsOnlyTheTargetsFrame() {
    Continuation c = new Continuation(FrameStoreTest::suspendTwice);

    c.run();
    assertThat(c.frameIds()).singleElement().asString().contains(".suspendTwice(");
    c.run();
    assertThat(c.frameIds()).singleElement().asString().contains(".suspendTwice(");
    c.run();
    assertThat(c.isDone()).isTrue();
  }

  private static boolean lazilyWoven(Stack s) {
    return s.frameIds().stream().anyMatch(id -> id.endsWith("+lazy"));
  }

  private static List<Object> refs(Stack s) {
    return s.refs == null ? List.of() : Arrays.asList(s.refs.clone());
  }
}
