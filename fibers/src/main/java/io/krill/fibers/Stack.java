package io.krill.fibers;

import java.io.IOException;
import java.io.InvalidClassException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The frame store of one continuation, and the binary interface that woven code calls.
 *
 * <p><b>For generated code, not API.</b> The static {@link #reserveFrame}, {@link #openFrame},
 * their cold variants {@link #reserveColdFrame} and {@link #openColdFrame}, {@link #putRef},
 * {@link #savedAgain} and {@link #savedAgainWaiting}, and {@link #resumeResult} methods, the
 * store's arrays and tops, the {@link #flow} field and {@link #current()} are used by
 * methods that krill's weaver rewrote; their names and signatures are fixed by the weaver.
 * Users work with {@code io.krill.fibers.Continuation}, which extends this class.
 *
 * <p>Threading: a stack is run by one thread at a time. It may be resumed by another thread
 * than the one it suspended on, provided the hand-off is safely published (a scheduler's
 * queue does that).
 */
public class Stack implements Serializable {
  /*
   * Implementation notes.
   *
   * Capture is lazy and unwinds by return. A primitive (suspend) sets `flow` to CAPTURING and
   * returns. Each woven frame tests `flow < 0` after each suspendable call; when so, it
   * reserves its room on the store (reserveFrame writes the frame header and id on top) and
   * stores its live operand stack values, its live locals and the receiver of the pending
   * call below them, then returns a dummy value. run() sees the flag and marks the stack
   * suspended. A resume sets `flow` to RESTORING: each woven entry tests `flow > 0` and
   * re-enters its frame, and the primitive that suspended clears it.
   *
   * A frame id is an interned string constant "owner.name+desc#version"; the version hashes
   * the original class file and names the woven ABI ("<hash>/abi<n>"). Restore compares by
   * identity first, so the check is free unless the continuation was deserialized.
   *
   * Frames are pushed innermost first and popped outermost first, so the store is a plain
   * LIFO over two parallel arrays: `prims` (ints, floats as raw bits, longs, doubles as raw
   * bits, and the frame headers) and `refs` (references, and one frame id per frame). A
   * frame header is a long: bits 0..14 the resume index (15 unused), 16..39 the frame's reference
   * count, 40..63 its primitive count (header included). The counts let serialization walk
   * the frames and check each frame id without knowing the methods.
   *
   * Popping reads and clears nothing: a frame's slots keep their values until a capture saves
   * over them. A fiber that parks where it parked before finds its ids and references in place
   * (putRef and reserveFrame store only what changed: under G1 each store they skip into an
   * old array is a fenced write barrier), and a frame restored only to call its callee again
   * is saved again by moving the tops over it when the frames below it end where it begins
   * (the weaver's waitingAgain). runStack clears the slots above a capture that ends below the
   * top it resumed from, so a parked stack holds nothing dead.
   */
  private static final long serialVersionUID = 1L;

  /** The stack of threads that run no continuation: never captures, never restores. */
  public static final Stack NONE = new Stack(null);

  static final String WOVEN_FIELD = "$krill$woven";

  private static final ThreadLocal<Stack[]> FALLBACK = ThreadLocal.withInitial(() -> new Stack[] {NONE});

  /*
   * How many threads that are not carriers have a stack bound right now. While it is zero,
   * woven code on platform and virtual threads skips the thread-local lookup. A thread sees
   * its own increment, so a thread that bound a stack always takes the lookup.
   */
  private static final java.util.concurrent.atomic.AtomicInteger BOUND_OFF_CARRIER =
      new java.util.concurrent.atomic.AtomicInteger();

  /** The size of a carrier's scratch arrays, in slots of each, until a deeper capture grows them. */
  private static final int SCRATCH_SLOTS = 256;

  /*
   * Scratch arrays of threads that are not carriers (a generator on a platform or virtual
   * thread), smaller: such threads may be many and short-lived.
   */
  private static final ThreadLocal<Scratch> FALLBACK_SCRATCH = ThreadLocal.withInitial(() -> new Scratch(16));

  private static final byte NEW = 0;
  private static final byte RUNNING = 1;
  private static final byte SUSPENDED = 2;
  private static final byte DONE = 3;
  /*
   * Running, and a capture writes into the thread's scratch arrays (see openStore). A state,
   * not a field: a parked fiber's object has no byte to spare.
   */
  private static final byte RUNNING_IN_SCRATCH = 4;

  /*
   * The values of `flow`. One byte for both directions, not two booleans: a parked fiber's
   * object has no byte to spare (one byte less makes it 48 B, not 56, on 12-byte headers),
   * and each woven test stays one load and one branch on zero.
   */
  static final byte CAPTURING = -1;
  static final byte RESTORING = 1;

  /*
   * While a capture unwinds, flow also counts the frames of lazily woven methods saved again
   * in place (savedAgainWaiting): CAPTURING minus one for each, down to Byte.MIN_VALUE. Those
   * frames only wait for their callees, and they are the top of the store when the capture
   * ends (a frame saved fresh has fresh frames below it), so runStack knows how many it may
   * set aside (LazyResume) without walking the store.
   */
  static int waitingFrames(byte capturingFlow) {
    return CAPTURING - capturingFlow;
  }

  /*
   * The resume index is a header's bits 0..14. The three highest indices are not call sites
   * (the weaver stops below them): a dormant block on top of the store, and a result that a
   * frame's resume entry returns or throws (see LazyResume).
   */
  static final int INDEX_MASK = 0x7FFF;
  static final int DORMANT = 0x7FFD;
  static final int RESULT_THROWN = 0x7FFE;
  static final int RESULT_VALUE = 0x7FFF;

  /**
   * For generated code: which way the frames move. Negative while they unwind (a primitive
   * suspended; woven code tests {@code flow < 0} after each suspendable call), positive while
   * they are re-entered (woven code tests {@code flow > 0} at entry; the primitive that
   * suspended clears it), 0 otherwise.
   */
  public byte flow;

  private byte state;

  /**
   * For generated code: the saved primitives (ints, floats as raw bits, longs, doubles as raw
   * bits, frame headers); null until the first capture.
   */
  public transient long[] prims;

  /** For generated code: the saved references and frame ids; null until the first capture. */
  public transient Object[] refs;

  /** For generated code: the number of used slots of {@link #prims}. */
  public transient int primTop;

  /** For generated code: the number of used slots of {@link #refs}. */
  public transient int refTop;

  /** The code this stack runs; null only for {@link #NONE}. */
  protected final SuspendableRunnable body;

  /**
   * Creates a stack that will run {@code body}.
   *
   * @param body the code to run; may suspend
   */
  protected Stack(SuspendableRunnable body) {
    this.body = body;
  }

  /**
   * Returns the stack that the current thread is running, or {@link #NONE}.
   *
   * @return the current stack, never null
   */
  public static Stack current() {
    Thread t = Thread.currentThread();
    if (t instanceof CarrierThread) {
      return ((CarrierThread) t).stack;
    }
    if (t instanceof StealingWorker) {
      return ((StealingWorker) t).stack;
    }
    if (BOUND_OFF_CARRIER.get() == 0) {
      return NONE;
    }
    return FALLBACK.get()[0];
  }

  private static Stack bind(Stack s) {
    Thread t = Thread.currentThread();
    if (t instanceof CarrierThread) {
      CarrierThread c = (CarrierThread) t;
      Stack prev = c.stack;
      c.stack = s;
      return prev;
    }
    if (t instanceof StealingWorker) {
      StealingWorker w = (StealingWorker) t;
      Stack prev = w.stack;
      w.stack = s;
      return prev;
    }
    Stack[] holder = FALLBACK.get();
    Stack prev = holder[0];
    holder[0] = s;
    if (prev == NONE && s != NONE) {
      BOUND_OFF_CARRIER.incrementAndGet();
    } else if (prev != NONE && s == NONE) {
      BOUND_OFF_CARRIER.decrementAndGet();
    }
    return prev;
  }

  // ---------------------------------------------------------------- running

  /**
   * Calls {@code body} on this thread with no continuation bound, then rebinds the one that
   * was bound.
   *
   * @param body the computation
   * @param <T> the result type
   * @return its result
   */
  @Primitive
  public static <T> T callDetached(SuspendableCallable<T> body) {
    Stack prev = bind(NONE);
    try {
      return body.call();
    } catch (Throwable e) {
      throw Stack.<RuntimeException>sneaky(e);
    } finally {
      bind(prev);
    }
  }

  /**
   * Runs the body until it suspends or finishes. Not woven: this is the bottom frame.
   *
   * @throws IllegalStateException if the stack is done or already running
   */
  @Primitive
  protected final void runStack() {
    runStack(false);
  }

  /*
   * keepBound is for a scheduler's run loop that runs one stack after another on this thread:
   * a stack that suspends stays bound after the return, and the next runStack replaces it, so
   * a switch stores the thread's bound stack once instead of twice (unbind, then bind). The
   * loop binds NONE itself when it stops running stacks, and runs nothing else in between. A
   * stack that finishes or throws leaves NONE bound.
   */
  @Primitive
  final void runStack(boolean keepBound) {
    LazyResume.checkMinWaiting();
    byte st = state;
    if (st == DONE) {
      throw new IllegalStateException("continuation: done (expected: new or suspended)");
    }
    if (st == RUNNING || st == RUNNING_IN_SCRATCH) {
      throw new IllegalStateException("continuation: running (expected: new or suspended)");
    }
    Stack previous = bind(this); // a local, not a field: a parked stack stays smaller
    state = RUNNING;
    flow = st == SUSPENDED ? RESTORING : 0;
    int saved = refTop; // the slots the restore reads and leaves as they are
    if (st == SUSPENDED && primTop > 0 && (prims[primTop - 1] & INDEX_MASK) == DORMANT) {
      runBelowWaiting(keepBound, previous, saved);
      return;
    }
    try {
      body.run();
    } catch (Throwable e) {
      throw failed(keepBound, previous, e);
    }
    ran(keepBound, previous, saved, null, 0);
  }

  private RuntimeException failed(boolean keepBound, Stack previous, Throwable e) {
    bind(keepBound ? NONE : previous);
    finish();
    return Stack.<RuntimeException>sneaky(e);
  }

  /*
   * The body returned: it finished, or a capture ended. Then the stack keeps its frames and
   * nothing dead above them, and its waiting frames go aside (the marker back on top, when `aside` is its entry).
   */
  private void ran(boolean keepBound, Stack previous, int saved, Stack.Entry aside, long marker) {
    if (flow >= 0) {
      bind(keepBound ? NONE : previous);
      finish();
      return;
    }
    if (!keepBound) {
      bind(previous);
    }
    if (aside != null) {
      LazyResume.pushDormant(this, marker, aside);
    } else if (waitingFrames(flow) >= LazyResume.MIN_WAITING) {
      LazyResume.form(this, waitingFrames(flow));
    }
    flow = 0;
    if (state == RUNNING_IN_SCRATCH) {
      leaveScratch(); // arrays of exactly the capture's size: the old ones, and what they held, are dropped
    } else if (refTop < saved) { // a capture smaller than the last: what the resumed frames held above it is dead
      java.util.Arrays.fill(refs, refTop, saved, null);
    }
    state = SUSPENDED;
  }

  /*
   * runStack for a stack whose waiting frames were set aside (LazyResume): resumes the frames
   * below them, and when those return, the whole stack.
   */
  @Primitive
  private void runBelowWaiting(boolean keepBound, Stack previous, int saved) {
    primTop--;
    refTop--;
    long marker = prims[primTop];
    Entry entry = (Entry) refs[refTop];
    boolean aside;
    try {
      aside = LazyResume.resumeTop(this, entry, marker);
      if (!aside) { // the frames it resumed returned: their callers take over
        saved = refTop;
        flow = RESTORING;
        body.run();
      }
    } catch (Throwable e) {
      throw failed(keepBound, previous, e);
    }
    ran(keepBound, previous, saved, aside ? entry : null, marker);
  }

  private void finish() {
    if (state == RUNNING_IN_SCRATCH) { // a capture that failed half-way: the thread keeps its arrays, not what they held
      java.util.Arrays.fill(refs, 0, refTop, null);
    }
    state = DONE;
    flow = 0;
    prims = null;
    refs = null;
    primTop = 0;
    refTop = 0;
  }

  /** @return true once the body has finished, normally or by an exception */
  protected final boolean stackDone() {
    return state == DONE;
  }

  /** @return true while the body is suspended and may be run again */
  protected final boolean stackSuspended() {
    return state == SUSPENDED;
  }

  /**
   * The suspension primitive: suspends the current stack, or resumes from here when the
   * stack is being restored.
   *
   * @throws IllegalStateException when no continuation runs on this thread
   * @throws Suspendable never
   */
  @Primitive
  public static void suspendCurrent() throws Suspendable {
    Stack s = current();
    suspendCurrent(s, s.flow);
  }

  /**
   * {@link #suspendCurrent()} for woven callers, which hold the current stack: the weaver calls
   * this entry in place of {@code suspendCurrent()} and passes the stack and its flow. Not for
   * hand-written calls.
   *
   * @param s the current stack ({@link #current()})
   * @param flow {@code s.flow} at the call: above 0 when the woven caller is restoring
   * @throws IllegalStateException when no continuation runs on this thread
   * @throws Suspendable never
   */
  @Primitive
  public static void suspendCurrent(Stack s, byte flow) throws Suspendable {
    if (flow > 0) {
      s.flow = 0;
      return;
    }
    if (s == NONE) {
      throw new IllegalStateException("suspend: no continuation runs on " + Thread.currentThread().getName());
    }
    if (RuntimeVerifier.ENABLED) {
      RuntimeVerifier.checkFrames();
    }
    s.openStore();
    s.flow = CAPTURING;
  }

  /**
   * For hand-written primitives that already hold the current stack: starts unwinding
   * {@code s} exactly as {@link #suspendCurrent()} does when not restoring.
   *
   * @param s the current stack, not {@link #NONE}
   */
  public static void beginCapture(Stack s) {
    if (RuntimeVerifier.ENABLED) {
      RuntimeVerifier.checkFrames();
    }
    s.openStore();
    s.flow = CAPTURING;
  }

  /*
   * Where a capture writes. A stack's first capture, and a capture larger than the stack's
   * own arrays, write into the current thread's scratch arrays; when the capture ends,
   * runStack copies the frames into arrays of exactly their size, which the stack keeps.
   * A later capture of the same size or smaller (a fiber parking where it parked before)
   * writes straight into them, so a steady hop copies nothing.
   *
   * Why not grow the stack's own arrays in the frames, as reserveFrame did: growth then runs
   * in the woven frames of every new stack's first capture, often enough that C2 inlines the
   * allocation and copy into every woven method that inlines reserveFrame (1,600-2,200 B of
   * C2 code per woven loop of the corpus, measured). Here the growth branch is taken only by
   * a capture larger than all of the stack's earlier ones, or one that outgrows the scratch.
   * And a parked stack holds arrays of its frames' size: a fiber parked one frame deep with
   * nothing live holds long[1] and Object[1].
   */
  private void openStore() {
    if (prims == null) {
      Scratch sc = scratch();
      prims = sc.prims;
      refs = sc.refs;
      state = RUNNING_IN_SCRATCH;
    }
  }

  /** The scratch arrays of one thread. */
  static final class Scratch {
    long[] prims;
    Object[] refs;

    Scratch(int slots) {
      prims = new long[slots];
      refs = new Object[slots];
    }
  }

  /** @return the current thread's scratch arrays, made on first use */
  static Scratch scratch() {
    Thread t = Thread.currentThread();
    if (t instanceof CarrierThread) {
      CarrierThread c = (CarrierThread) t;
      Scratch sc = c.scratch;
      if (sc == null) {
        sc = new Scratch(SCRATCH_SLOTS);
        c.scratch = sc;
      }
      return sc;
    }
    if (t instanceof StealingWorker) {
      StealingWorker w = (StealingWorker) t;
      Scratch sc = w.scratch;
      if (sc == null) {
        sc = new Scratch(SCRATCH_SLOTS);
        w.scratch = sc;
      }
      return sc;
    }
    return FALLBACK_SCRATCH.get();
  }

  /* The capture in the scratch arrays ended: the stack takes a copy of its frames' size. */
  private void leaveScratch() {
    Object[] r = refs;
    prims = java.util.Arrays.copyOf(prims, primTop);
    refs = java.util.Arrays.copyOf(r, refTop);
    java.util.Arrays.fill(r, 0, refTop, null);
  }

  @SuppressWarnings("unchecked")
  static <E extends Throwable> E sneaky(Throwable e) throws E {
    throw (E) e;
  }

  // ---------------------------------------------------------------- ABI: capture

  /*
   * A woven frame saves itself with one call and plain array stores: reserveFrame takes the
   * frame's room on both arrays and writes its header and frame id at the top; the woven
   * code then stores each value at a fixed offset from the frame's base (the new top minus
   * the frame's count). The values of a frame keep one order (operand stack top first, live
   * locals ascending, the receiver, then the header and frame id), so a restore reads each
   * at the same offset. Growth stays in the call; the woven code has no per-value call.
   */

  /**
   * For generated code: reserves a frame's room on the store and writes its header and id
   * at the top. The frame's values go below: {@code prims[primTop - primCount + i]} and
   * {@code refs[refTop - refCount + i]}.
   *
   * @param header resume index | reference count &lt;&lt; 16 | primitive count &lt;&lt; 40,
   *     both counts including the header and the frame id
   * @param frameId the frame's id constant
   * @param s the stack
   */
  public static void reserveFrame(long header, String frameId, Stack s) {
    int pt = s.primTop + (int) (header >>> 40);
    long[] p = s.prims;
    if (p == null || pt > p.length) {
      p = s.growPrims(pt);
    }
    p[pt - 1] = header;
    s.primTop = pt;
    int rt = s.refTop + (int) ((header >>> 16) & 0xFFFFFF);
    Object[] r = s.refs;
    if (r == null || rt > r.length) {
      r = s.growRefs(rt);
    }
    if (r[rt - 1] != frameId) { // a frame saved where it was saved before: a load, not a barriered store
      r[rt - 1] = frameId;
    }
    s.refTop = rt;
  }

  /*
   * A capture outgrew the arrays it writes into: it moves to the thread's scratch arrays,
   * taking what it wrote so far along, and grows them if the capture outgrows them too. Both
   * arrays move together, so reserveFrame reads refs after growPrims returns.
   */
  long[] growPrims(int needed) {
    Scratch sc = moveToScratch();
    if (needed > sc.prims.length) {
      sc.prims = java.util.Arrays.copyOf(sc.prims, Math.max(needed, sc.prims.length * 2));
      prims = sc.prims;
    }
    return prims;
  }

  Object[] growRefs(int needed) {
    Scratch sc = moveToScratch();
    if (needed > sc.refs.length) {
      sc.refs = java.util.Arrays.copyOf(sc.refs, Math.max(needed, sc.refs.length * 2));
      refs = sc.refs;
    }
    return refs;
  }

  private Scratch moveToScratch() {
    Scratch sc = scratch();
    if (state != RUNNING_IN_SCRATCH) {
      long[] p = prims;
      Object[] r = refs;
      if (p != null) {
        if (primTop > sc.prims.length) {
          sc.prims = new long[Math.max(primTop, sc.prims.length * 2)];
        }
        System.arraycopy(p, 0, sc.prims, 0, primTop);
      }
      if (r != null) {
        if (refTop > sc.refs.length) {
          sc.refs = new Object[Math.max(refTop, sc.refs.length * 2)];
        }
        System.arraycopy(r, 0, sc.refs, 0, refTop);
      }
      prims = sc.prims;
      refs = sc.refs;
      state = RUNNING_IN_SCRATCH;
    }
    return sc;
  }

  /*
   * The cold variants. C2 inlines a callee of a hot call site when its bytecode is at most
   * FreqInlineSize (325 bytes on x86), however rarely the path that calls it runs within the
   * caller's loop; a method above that size is called, never inlined, without any JVM flag.
   * A woven site whose capture or restore the weaver judges cold (see the weaver's notes)
   * calls these: the same work as reserveFrame and openFrame, with the growth and the checks
   * of the store's consistency written out in place, which puts them above that size
   * (StackTest checks that they stay there). The hot variants keep their growth and their
   * checks out of line, to stay small enough to inline.
   */

  /**
   * For generated code: {@link #reserveFrame}, for a site whose capture is rare; never inlined
   * by C2 (its bytecode is larger than C2 inlines).
   *
   * @param header as for {@link #reserveFrame}
   * @param frameId the frame's id constant
   * @param s the stack
   */
  public static void reserveColdFrame(long header, String frameId, Stack s) {
    int np = (int) (header >>> 40);
    int nr = (int) ((header >>> 16) & 0xFFFFFF);
    if (np < 1 || nr < 1 || s.flow >= 0 || s.primTop < 0 || s.refTop < 0) {
      throw new IllegalStateException("capture: frame of " + frameId + " with " + np + " primitive and " + nr
          + " reference slots, flow " + s.flow + ", tops " + s.primTop + " and " + s.refTop
          + " (expected: positive counts while capturing)");
    }
    int pt = s.primTop + np;
    int rt = s.refTop + nr;
    long[] p = s.prims;
    Object[] r = s.refs;
    if (p == null || r == null || pt > p.length || rt > r.length) {
      Scratch sc = scratch();
      if (s.state != RUNNING_IN_SCRATCH) {
        if (s.primTop > sc.prims.length) {
          sc.prims = new long[Math.max(s.primTop, sc.prims.length * 2)];
        }
        if (s.refTop > sc.refs.length) {
          sc.refs = new Object[Math.max(s.refTop, sc.refs.length * 2)];
        }
        if (p != null) {
          System.arraycopy(p, 0, sc.prims, 0, s.primTop);
        }
        if (r != null) {
          System.arraycopy(r, 0, sc.refs, 0, s.refTop);
        }
        s.state = RUNNING_IN_SCRATCH;
      }
      if (pt > sc.prims.length) {
        sc.prims = java.util.Arrays.copyOf(sc.prims, Math.max(pt, sc.prims.length * 2));
      }
      if (rt > sc.refs.length) {
        sc.refs = java.util.Arrays.copyOf(sc.refs, Math.max(rt, sc.refs.length * 2));
      }
      p = sc.prims;
      r = sc.refs;
      s.prims = p;
      s.refs = r;
    }
    p[pt - 1] = header;
    s.primTop = pt;
    if (r[rt - 1] != frameId) {
      r[rt - 1] = frameId;
    }
    s.refTop = rt;
  }

  // ---------------------------------------------------------------- ABI: restore

  /**
   * For generated code: takes the outermost saved frame off the store and returns its resume
   * index. Its values stay in the arrays from {@link #primTop} and {@link #refTop} up, where
   * the restoring method reads them with plain array loads. Nothing is cleared: the next
   * capture saves over them, mostly the same references at the same places ({@link #putRef}),
   * and clears the slots above its own frames when it ends (see runStack).
   *
   * @param frameId the id constant of the method that restores
   * @param s the stack
   * @return the resume index
   */
  public static int openFrame(String frameId, Stack s) {
    int pt = s.primTop - 1;
    long header = s.prims[pt];
    Object[] r = s.refs;
    int rt = s.refTop - 1;
    Object id = r[rt];
    if (id != frameId) {
      checkFrameId(id, frameId, s); // a deserialized continuation: equal, not identical, ids
    }
    s.primTop = pt + 1 - (int) (header >>> 40);
    s.refTop = rt + 1 - (int) ((header >>> 16) & 0xFFFFFF);
    return (int) (header & INDEX_MASK);
  }

  /**
   * For generated code: {@link #openFrame}, for a method whose restore is rare; never inlined
   * by C2 (its bytecode is larger than C2 inlines).
   *
   * @param frameId the id constant of the method that restores
   * @param s the stack
   * @return the resume index
   */
  public static int openColdFrame(String frameId, Stack s) {
    long[] p = s.prims;
    Object[] r = s.refs;
    int pt = s.primTop - 1;
    int rt = s.refTop - 1;
    if (s.flow <= 0) {
      throw new IllegalStateException("restore: " + frameId + " re-entered while its stack is not restoring (flow "
          + s.flow + ")");
    }
    if (p == null || r == null || pt < 0 || rt < 0 || pt >= p.length || rt >= r.length) {
      s.flow = 0;
      throw new IllegalStateException("restore: " + frameId + " re-entered with no saved frame (tops " + (pt + 1)
          + " and " + (rt + 1) + "; a method on the suspended stack is not woven, or changed)");
    }
    long header = p[pt];
    Object id = r[rt];
    if (id != frameId && !frameId.equals(id)) {
      s.flow = 0;
      int mine = frameId.lastIndexOf('#');
      String saved = String.valueOf(id);
      boolean changed = mine >= 0 && saved.lastIndexOf('#') == mine && saved.regionMatches(0, frameId, 0, mine);
      throw new IllegalStateException("restore: frame of " + id + " re-entered by " + frameId
          + (changed ? " (the class changed since the continuation was suspended)"
              : " (a method on the suspended stack is not woven, or changed)"));
    }
    int np = (int) (header >>> 40);
    int nr = (int) ((header >>> 16) & 0xFFFFFF);
    if (np < 1 || nr < 1 || np > pt + 1 || nr > rt + 1) {
      s.flow = 0;
      throw new IllegalStateException("restore: frame of " + frameId + " with " + np + " primitive and " + nr
          + " reference slots above tops " + (pt + 1) + " and " + (rt + 1) + " (the store is corrupt)");
    }
    s.primTop = pt + 1 - np;
    s.refTop = rt + 1 - nr;
    return (int) (header & INDEX_MASK);
  }

  private static void checkFrameId(Object id, String frameId, Stack s) {
    if (!frameId.equals(id)) {
      s.flow = 0;
      throw new IllegalStateException("restore: frame of " + id + " re-entered by " + frameId
          + " (a method on the suspended stack is not woven, or changed)");
    }
  }

  /**
   * For generated code: saves a reference at slot {@code i}, unless the slot holds it already.
   * A frame saved again where it was saved before (a fiber that parks at the same place) finds
   * most of its references in place: a load and a compare then replace a reference store, which
   * under G1 runs a fenced post-write barrier once the store's arrays are old.
   *
   * @param a the stack's {@link #refs}
   * @param i the slot
   * @param v the reference
   */
  public static void putRef(Object[] a, int i, Object v) {
    if (a[i] != v) {
      a[i] = v;
    }
  }

  /**
   * For generated code, right after a restore's own call: whether the callee suspended again
   * and the frames it saved end exactly where the restoring frame begins. Then that frame is
   * still whole in the store (a restore clears nothing, the captures below it wrote only below
   * it, and it has run no code since it was read: it is at the same call, with the same
   * values, header and id), and this saves it again by moving the tops over it; the caller
   * then returns its dummy value. Otherwise the caller goes on after its call, whose flow test
   * takes the full capture. So a frame that only waits below the one that suspends (a loop
   * several calls up, a framework's frames) costs its restore and this per hop, not a capture.
   *
   * @param s the stack
   * @param primBase {@link #primTop} as the restore left it, before the call
   * @param refBase {@link #refTop} as the restore left it, before the call
   * @param prims the frame's primitive slots, its header included
   * @param refs the frame's reference slots, its id included
   * @return true if the frame is saved again: the caller returns at once
   */
  public static boolean savedAgain(Stack s, int primBase, int refBase, int prims, int refs) {
    if (s.flow < 0 && s.primTop == primBase && s.refTop == refBase) {
      s.primTop = primBase + prims;
      s.refTop = refBase + refs;
      return true;
    }
    return false;
  }

  /**
   * For generated code woven for lazy resume: {@link #savedAgain}, and when the frame is saved
   * again it is also counted as one that only waits (in {@link #flow}, which stays negative),
   * so that the end of the capture can leave the waiting frames out of the next resume
   * ({@code LazyResume}).
   *
   * @param s the stack
   * @param primBase as for {@link #savedAgain}
   * @param refBase as for {@link #savedAgain}
   * @param prims as for {@link #savedAgain}
   * @param refs as for {@link #savedAgain}
   * @return true if the frame is saved again: the caller returns at once
   */
  public static boolean savedAgainWaiting(Stack s, int primBase, int refBase, int prims, int refs) {
    byte f = s.flow;
    if (f < 0 && s.primTop == primBase && s.refTop == refBase) {
      s.primTop = primBase + prims;
      s.refTop = refBase + refs;
      s.flow = (byte) Math.max(f - 1, Byte.MIN_VALUE); // one more waiting frame
      return true;
    }
    return false;
  }

  /**
   * For generated code woven for lazy resume: the runtime's way into one woven method, made
   * once per method by the method's own class ({@code $krill$entry}), so that the call is an
   * interface call the JIT can inline rather than a method handle it cannot see through.
   */
  public interface Entry {
    /**
     * Re-enters the method: calls it with zeros and nulls for its arguments (a resuming method
     * reads its own values from its frame), non-virtually on {@code self}, or statically.
     *
     * @param self the receiver the frame saved, or, for a static method, its class
     * @param stack the current stack, which a method with a stack entry is given instead of
     *     looking it up
     * @return the method's result, boxed (null for void)
     * @throws Throwable whatever the method throws
     */
    Object enter(Object self, Stack stack) throws Throwable;
  }

  private static final Double DOUBLE_ZERO = 0.0;
  private static final Float FLOAT_ZERO = 0.0f;

  /**
   * For generated code woven for lazy resume: boxes a {@code double} result; a zero (what a
   * suspended run returns) without allocating.
   *
   * @param v the value
   * @return it, boxed
   */
  public static Object boxDouble(double v) {
    return Double.doubleToRawLongBits(v) == 0L ? DOUBLE_ZERO : Double.valueOf(v);
  }

  /**
   * For generated code woven for lazy resume: boxes a {@code float} result; a zero (what a
   * suspended run returns) without allocating.
   *
   * @param v the value
   * @return it, boxed
   */
  public static Object boxFloat(float v) {
    return Float.floatToRawIntBits(v) == 0 ? FLOAT_ZERO : Float.valueOf(v);
  }

  /**
   * For generated code woven for lazy resume, at the resume dispatch of a frame whose index is
   * no call site: the frame is the result that its method's run returned or threw while its
   * callers waited in the store ({@code LazyResume}). Ends the restore and returns the result
   * (boxed, for the method to unbox and return) or throws it.
   *
   * @param index the resume index that {@link #openFrame} returned
   * @param frameId the id constant of the method that restores
   * @param s the stack
   * @return the method's result, boxed; null for void
   * @throws IllegalStateException when the index names neither a call site nor a result
   */
  public static Object resumeResult(int index, String frameId, Stack s) {
    s.flow = 0;
    if (index == RESULT_VALUE || index == RESULT_THROWN) {
      Object v = s.refs[s.refTop];
      s.refs[s.refTop] = null;
      if (index == RESULT_VALUE) {
        return v;
      }
      throw Stack.<RuntimeException>sneaky((Throwable) v);
    }
    throw new IllegalStateException("restore: bad resume index " + index + " in " + frameId);
  }

  /** @return how many frames are saved (0 unless suspended) */
  protected final int savedFrameCount() {
    return frameIds().size();
  }

  /**
   * Dumps and the deadlock detector call this from other threads while the stack may resume,
   * park again or finish on its carrier: it reads each field once and stops at the first
   * inconsistency, so a racy read gives a partial list, never an exception.
   *
   * @return the ids of the saved frames, outermost first
   */
  protected final List<String> frameIds() {
    List<String> ids = new ArrayList<>();
    forEachFrame((header, id, below) -> ids.add(id));
    return ids;
  }

  /**
   * Like {@link #frameIds()}, racy reads included, as stack-trace elements: each frame's class,
   * method, source file and the line of the call it is suspended in.
   *
   * @return the saved frames, outermost first
   */
  protected final List<StackTraceElement> frameElements() {
    List<StackTraceElement> out = new ArrayList<>();
    ClassLoader loader = body == null ? null : body.getClass().getClassLoader();
    forEachFrame((header, id, below) -> out.add(element(header, id, below, loader)));
    return out;
  }

  /* A saved frame as a stack-trace element; below is what the frame saved under its id. */
  static StackTraceElement element(long header, String id, Object below, ClassLoader loader) {
    // a lazily woven frame saves its receiver (or class) below its id; another frame, a value
    Object self = id.endsWith(LazyResume.LAZY_ABI) ? below : null;
    return FrameLines.element(id, (int) (header & INDEX_MASK), self, loader);
  }

  /* A frame met by a walk of the store: its header, its id, and the slot below its id (or null). */
  interface FrameVisitor {
    void visit(long header, String id, Object below);
  }

  /* Visits the saved frames, outermost first: the waiting block's, then those above it. */
  private void forEachFrame(FrameVisitor v) {
    long[] pa = prims;
    Object[] ra = refs;
    int p = primTop;
    int r = refTop;
    if (pa == null || ra == null) {
      return;
    }
    int bp = 0;
    int br = 0;
    if (p > 0 && p <= pa.length && r > 0 && r <= ra.length && (pa[p - 1] & INDEX_MASK) == DORMANT
        && ra[r - 1] instanceof Entry) {
      long marker = pa[p - 1]; // the waiting frames, outermost, at the bottom of the store
      bp = LazyResume.basePrims(marker);
      br = LazyResume.baseRefs(marker);
      p--;
      r--;
      if (bp > p || br > r) {
        return;
      }
      forEachFrame(pa, ra, 0, 0, bp, br, v);
    }
    forEachFrame(pa, ra, bp, br, p, r, v);
  }

  /* Visits the frames below tops p and r down to floors fp and fr, outermost first, up to the first inconsistency. */
  static void forEachFrame(long[] pa, Object[] ra, int fp, int fr, int p, int r, FrameVisitor v) {
    while (p > fp && p <= pa.length && r > fr && r <= ra.length) {
      long header = pa[p - 1];
      Object id = ra[r - 1];
      int np = (int) (header >>> 40);
      int nr = (int) ((header >>> 16) & 0xFFFFFF);
      if (!(id instanceof String) || np < 1 || nr < 1) {
        break;
      }
      v.visit(header, (String) id, r >= 2 ? ra[r - 2] : null);
      p -= np;
      r -= nr;
    }
  }

  // ---------------------------------------------------------------- serialization

  private void writeObject(ObjectOutputStream out) throws IOException {
    if (state == RUNNING || state == RUNNING_IN_SCRATCH) {
      throw new IOException("continuation: running (expected: new, suspended or done)");
    }
    out.defaultWriteObject();
    long[] p = prims;
    Object[] r = refs;
    int pt = primTop;
    int rt = refTop;
    if (pt > 0 && rt > 0 && (p[pt - 1] & INDEX_MASK) == DORMANT && r[rt - 1] instanceof Entry) {
      // written as one store, the waiting block back on top: a reader resumes every frame
      int bp = LazyResume.basePrims(p[pt - 1]);
      int br = LazyResume.baseRefs(p[pt - 1]);
      pt--;
      rt--;
      long[] op = p;
      Object[] or = r;
      p = new long[pt];
      r = new Object[rt];
      System.arraycopy(op, bp, p, 0, pt - bp);
      System.arraycopy(op, 0, p, pt - bp, bp);
      System.arraycopy(or, br, r, 0, rt - br);
      System.arraycopy(or, 0, r, rt - br, br);
    }
    out.writeInt(pt);
    for (int i = 0; i < pt; i++) {
      out.writeLong(p[i]);
    }
    out.writeInt(rt);
    for (int i = 0; i < rt; i++) {
      out.writeObject(r[i]);
    }
  }

  private static int readFrameSize(ObjectInputStream in) throws IOException {
    int n = in.readInt();
    if (n < 0) {
      throw new InvalidClassException(Stack.class.getName(), "negative frame size");
    }
    return n;
  }

  private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
    in.defaultReadObject();
    int np = readFrameSize(in);
    prims = new long[Math.max(np, 2)];
    for (int i = 0; i < np; i++) {
      prims[i] = in.readLong();
    }
    primTop = np;
    int nr = readFrameSize(in);
    refs = new Object[Math.max(nr, 2)];
    for (int i = 0; i < nr; i++) {
      refs[i] = in.readObject();
    }
    refTop = nr;
    ClassLoader loader = body == null ? null : body.getClass().getClassLoader();
    for (String id : frameIds()) {
      checkFrameId(id, loader);
    }
  }

  /*
   * A frame id is "owner.name(desc)ret#version". The owner's $krill$woven field holds
   * "version|name(desc)ret|..." for the class as it is now; both must match.
   */
  private static void checkFrameId(String id, ClassLoader loader) throws InvalidClassException {
    int hash = id.lastIndexOf('#');
    int paren = id.indexOf('(');
    int dot = paren < 0 ? -1 : id.lastIndexOf('.', paren);
    if (hash < 0 || dot < 0) {
      throw new InvalidClassException(Stack.class.getName(), "malformed frame id: " + id);
    }
    String owner = id.substring(0, dot).replace('/', '.');
    String method = id.substring(dot + 1, hash);
    String version = id.substring(hash + 1);
    String woven;
    try {
      Class<?> c = Class.forName(owner, false, loader != null ? loader : Thread.currentThread().getContextClassLoader());
      Field f = c.getDeclaredField(WOVEN_FIELD);
      f.setAccessible(true);
      woven = (String) f.get(null);
    } catch (ReflectiveOperationException | RuntimeException e) {
      InvalidClassException ice = new InvalidClassException(owner,
          "cannot check the saved frame of " + method + ": " + e);
      ice.initCause(e);
      throw ice;
    }
    String[] parts = Objects.requireNonNull(woven).split("\\|");
    if (!parts[0].equals(version)) {
      throw new InvalidClassException(owner, "changed since the continuation was suspended"
          + " (saved version " + version + ", loaded version " + parts[0] + "); refusing to resume " + method);
    }
    for (int i = 1; i < parts.length; i++) {
      if (parts[i].equals(method)) {
        return;
      }
    }
    throw new InvalidClassException(owner, "has no woven method " + method);
  }
}
