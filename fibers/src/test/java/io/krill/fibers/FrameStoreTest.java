package io.krill.fibers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
    assertThat(afterResume).as("the resumed frame's slots cleared; its caller stays saved until it continues")
        .doesNotContain(held).filteredOn(String.class::isInstance).singleElement().asString().contains("lambda$");
    assertThat(refs(c)).as("a resumed value no longer lives in the store").doesNotContain(held);

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
   * Resumes a continuation parked at the bottom of {@link #deep}: the restore clears every slot
   * and keeps no dead reference, and the run ends with the value {@code deep} computes.
   */
  private static void resumeToTheEnd(Continuation c, Object held, int[] out, int depth) {
    c.run();
    assertThat(afterResume).as("what the resumed frame saved is cleared; its callers stay saved").doesNotContain(held)
        .filteredOn(String.class::isInstance).hasSize(depth + 2); // the body and every deep frame above the bottom one
    assertThat(refs(c)).doesNotContain(held);
    c.run();
    assertThat(c.isDone()).isTrue();
    assertThat(out[0]).isEqualTo(7 * 3 + 7 + depth);
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
    assertThat(refs(c).stream().filter(r -> r == in)).as("in, once").hasSize(1);
    assertThat(refs(c).stream().filter(r -> r == out)).as("out, once (not again below the call)").hasSize(1);
    c.run(); // in out.take
    assertThat(refs(c).stream().filter(r -> r == out)).as("out, once (not again as the receiver)").hasSize(1);
    c.run(); // in self.pair's first take
    assertThat(result[0]).isEqualTo("t:inout");
    assertThat(refs(c).stream().filter(r -> r == self))
        .as("once, as the lambda's receiver; pair's call on `this` saves none: its caller supplies it").hasSize(1);
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

  // ------------------------------------------------------------- resident frames

  /** Holds {@code held} across one suspension only, and keeps no other reference to it. */
  static int holdThenForget(Object held, int n) throws Suspendable {
    long wide = n * 3L;
    Continuation.suspend();
    wide += held == null ? 0 : 1;
    Continuation.suspend(); // the same primitives saved, one reference fewer
    return (int) wide + n;
  }

  static Object take(Object[] box) {
    Object o = box[0];
    box[0] = null;
    return o;
  }

  static int above(Object[] box, int depth) throws Suspendable {
    return depth == 0 ? holdThenForget(take(box), 4) : above(box, depth - 1) + 1;
  }

  @Test
  void resume_innerFrameSuspendsAgain_callersStayResident_storeNotCopied() {
    Object[] box = {new Object()};
    int[] out = new int[1];
    Continuation c = new Continuation(() -> out[0] = above(box, 6));
    c.run();
    List<String> ids = c.frameIds();
    assertThat(ids).hasSize(9); // the body, seven frames of above, holdThenForget
    long[] prims = c.prims;
    Object[] refs = c.refs;
    Object[] callers = Arrays.copyOfRange(refs, 2, refs.length); // above holdThenForget's held and id

    c.run(); // holdThenForget suspends again; every caller returns at once
    assertThat(c.frameIds()).isEqualTo(ids);
    assertThat(c.prims).as("a capture of the same size writes in place").isSameAs(prims);
    assertThat(c.refs).as("a smaller one moves up to its callers").isSameAs(refs);
    assertThat(refs[0]).as("the slot it left").isNull();
    assertThat(Arrays.copyOfRange(refs, 2, refs.length)).isEqualTo(callers);

    c.run();
    assertThat(c.isDone()).isTrue();
    assertThat(out[0]).isEqualTo(12 + 4 + 1 + 6);
  }

  @Test
  void resume_valueDeadAfterTheResume_notReachableFromTheStore() throws InterruptedException {
    Object[] box = {new Object()};
    java.lang.ref.WeakReference<Object> weak = new java.lang.ref.WeakReference<>(box[0]);
    int[] out = new int[1];
    Continuation c = new Continuation(() -> out[0] = above(box, 3));
    c.run();
    assertThat(refs(c)).as("saved while live").contains(weak.get());

    c.run(); // held is dead at the second suspension; its frame continued, its callers stayed resident
    for (int i = 0; i < 50 && weak.get() != null; i++) {
      System.gc();
      Thread.sleep(10);
    }
    assertThat(weak.get()).as("collected: nothing in the store or the thread keeps it").isNull();
    c.run();
    assertThat(out[0]).isEqualTo(12 + 4 + 1 + 3);
  }

  static int thrower(int depth) throws Suspendable {
    if (depth > 0) {
      return thrower(depth - 1) + 1;
    }
    Continuation.suspend();
    throw new IllegalStateException("thrown at the bottom");
  }

  /** Catches what {@code thrower} throws through its resident frames, with a local kept across. */
  static String catcher(int depth, String tag) throws Suspendable {
    long kept = depth * 10L;
    try {
      return tag + thrower(depth);
    } catch (IllegalStateException e) {
      Continuation.suspend();
      return tag + kept + e.getMessage().length();
    } finally {
      trail.append(tag).append(kept).append(';');
    }
  }

  static final StringBuilder trail = new StringBuilder();

  static int outer(int depth) throws Suspendable {
    return depth == 0 ? catcher(5, "t").length() : outer(depth - 1) + 1;
  }

  @Test
  void resume_exceptionThroughResidentFrames_caughtByAResidentCaller_thatSuspendsAgain() {
    trail.setLength(0);
    int[] out = new int[1];
    Continuation c = new Continuation(() -> out[0] = outer(3));
    c.run();
    assertThat(c.frameIds()).hasSize(12); // the body, four outer, catcher, six thrower

    c.run(); // thrower throws through five resident thrower frames into catcher's catch, which suspends
    assertThat(c.frameIds()).hasSize(6).last().asString().contains(".catcher(");
    assertThat(refs(c).stream().filter(r -> r instanceof String && ((String) r).contains(".thrower(")))
        .as("the thrower frames were discarded").isEmpty();
    assertThat(trail).isEmpty();

    c.run();
    assertThat(c.isDone()).isTrue();
    assertThat(out[0]).isEqualTo("t5020".length() + 3);
    assertThat(trail).hasToString("t50;");
  }

  @Test
  void resume_exceptionThroughEveryResidentFrame_endsTheContinuation() {
    Continuation c = new Continuation(() -> thrower(4));
    c.run();
    assertThat(c.frameIds()).hasSize(6);
    assertThatThrownBy(c::run).isInstanceOf(IllegalStateException.class).hasMessage("thrown at the bottom");
    assertThat(c.isDone()).isTrue();
    assertThat(Arrays.asList(Stack.scratch().refs)).containsOnlyNulls();
  }

  static int down(int d) throws Suspendable {
    if (d == 0) {
      Continuation.suspend();
      return 1;
    }
    return down(d - 1) + d;
  }

  /** Suspends at depth, then shallower, then deeper, then as deep as the first time. */
  static int seesaw(int depth, Object mark) throws Suspendable {
    int a = down(depth);
    Continuation.suspend();
    int b = down(depth + 30);
    int c = down(depth);
    return a + b + c + (mark == null ? 0 : 1);
  }

  static int wrap(int depth, Object mark) throws Suspendable {
    return depth == 0 ? seesaw(4, mark) : wrap(depth - 1, mark) * 2;
  }

  @Test
  void resume_suspendShallowerThenDeeper_residentCallersKeepTheirValues() {
    Object mark = new Object();
    int[] out = new int[1];
    Continuation c = new Continuation(() -> out[0] = wrap(3, mark));
    int[] sizes = new int[4];
    for (int i = 0; i < 4; i++) {
      c.run();
      sizes[i] = c.frameIds().size();
      assertThat(c.frameIds().get(0)).contains("lambda$");
      assertThat(refs(c).stream().filter(r -> r == mark)).as("the mark, once, in seesaw's resident frame").hasSize(1);
      assertThat(Arrays.asList(Stack.scratch().refs)).as("the thread keeps no saved reference").containsOnlyNulls();
      assertThat(c.refs.length).as("suspended: the frames end at the arrays' ends").isEqualTo(c.refTop);
    }
    assertThat(sizes).containsExactly(1 + 4 + 1 + 5, 1 + 4 + 1, 1 + 4 + 1 + 35, 1 + 4 + 1 + 5);
    c.run();
    assertThat(c.isDone()).isTrue();
    int down4 = 1 + 4 + 3 + 2 + 1;
    int down34 = 1 + 34 * 35 / 2;
    assertThat(out[0]).isEqualTo((down4 + down34 + down4 + 1) * 8);
  }

  static int alternate(int rounds) throws Suspendable {
    int sum = 0;
    for (int i = 0; i < rounds; i++) {
      sum += down(i % 2 == 0 ? 2 : 8);
    }
    return sum;
  }

  @Test
  void resume_alternatingShallowAndDeepParks_keepTheStacksArrays() {
    int[] out = new int[1];
    Continuation c = new Continuation(() -> out[0] = alternate(6));
    c.run(); // shallow
    c.run(); // deep: outgrows the arrays the first park left
    long[] prims = c.prims;
    Object[] refs = c.refs;
    for (int park = 3; park <= 6; park++) {
      c.run();
      assertThat(c.frameIds()).hasSize(park % 2 == 1 ? 2 + 3 : 2 + 9); // the body, alternate, down's frames
      assertThat(c.prims).as("park %d: the same arrays", park).isSameAs(prims);
      assertThat(c.refs).isSameAs(refs);
      assertThat(Arrays.asList(Stack.scratch().refs)).containsOnlyNulls();
    }
    c.run();
    assertThat(c.isDone()).isTrue();
    assertThat(out[0]).isEqualTo(3 * 4 + 3 * 37);
  }

  private static List<Object> refs(Stack s) {
    return s.refs == null ? List.of() : Arrays.asList(s.refs.clone());
  }
}
