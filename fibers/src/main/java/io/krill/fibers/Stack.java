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
 * their cold variants {@link #reserveColdFrame} and {@link #openColdFrame}, and
 * {@link #discardFrame} methods, the store's arrays and tops, the {@link #flow} field and
 * {@link #current()} are used by
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
   * frame header is a long: bits 0..15 the resume index, 16..39 the frame's reference
   * count, 40..63 its primitive count (header included). The counts let serialization walk
   * the frames and check each frame id without knowing the methods.
   *
   * Resident frames. A restore does not take a frame off the store: each woven frame peeks
   * (openFrame reads its header and id and moves the tops down, a cursor), reads its values
   * and calls its callee again. A frame whose callee suspends again returns at once and stays
   * saved, untouched: it is resident. A frame whose callee returns or throws is discarded
   * (discardFrame: the store's resident region starts above it, and the
   * reference slots of it and of everything inner to it are cleared). Frames continue
   * innermost first, so the resident region is always the outer part of the store.
   *
   * The stack's own arrays end where its frames end: the outermost frame's header and id are
   * the arrays' last slots, so the resident region is [primLo, prims.length), and with no
   * resident frame primLo is the length. A capture writes its frames from the bottom (where
   * the restore's cursor stopped) up to primLo: its frames are inner to every resident one.
   * When a fiber parks where it parked before, the capture ends exactly at primLo and nothing
   * moves. A smaller capture is moved up to primLo when it ends (endCapture: the new frames
   * only); a larger one meets primLo in reserveFrame, whose one compare is the bound check it
   * always was, and whose slow path (makeRoom) moves the store into the thread's scratch
   * arrays and the resident region up. In the scratch arrays the resident region ends at the
   * Scratch's primEnd and refEnd.
   *
   * While suspended, the saved frames are [primLo, primTop) and [refLo, refTop), and the tops
   * are the arrays' lengths: a capture moved up leaves the bottom of the arrays unused.
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
  /* Running, and a capture that started above unused slots slid down to the arrays' start (makeRoom). */
  private static final byte RUNNING_FROM_ZERO = 5;

  /*
   * The values of `flow`. One byte for both directions, not two booleans: a parked fiber's
   * object has no byte to spare (one byte less makes it 48 B, not 56, on 12-byte headers),
   * and each woven test stays one load and one branch on zero.
   */
  static final byte CAPTURING = -1;
  static final byte RESTORING = 1;

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

  /*
   * Running: the bottom of the resident region, which is the limit of a capture (the array's
   * length when no frame is resident); suspended: the bottom of the saved frames.
   */
  transient int primLo;
  transient int refLo;

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
    byte st = state;
    if (st == DONE) {
      throw new IllegalStateException("continuation: done (expected: new or suspended)");
    }
    if (st == RUNNING || st == RUNNING_IN_SCRATCH || st == RUNNING_FROM_ZERO) {
      throw new IllegalStateException("continuation: running (expected: new or suspended)");
    }
    Stack previous = bind(this); // a local, not a field: a parked stack stays smaller
    state = RUNNING;
    int baseP = primLo; // where the restore's cursor stops, and a new capture starts; every
    int baseR = refLo; // saved frame is resident until it continues
    flow = st == SUSPENDED ? RESTORING : 0;
    try {
      body.run();
    } catch (Throwable e) {
      bind(previous);
      finish();
      throw Stack.<RuntimeException>sneaky(e);
    }
    bind(previous);
    if (flow < 0) {
      flow = 0;
      endCapture(baseP, baseR);
      if (state == RUNNING_IN_SCRATCH) {
        leaveScratch();
      }
      state = SUSPENDED;
    } else {
      finish();
    }
  }

  /*
   * The capture wrote its frames from the base up; resident frames, if any are left, lie from
   * primLo up. Join them: the new frames move up to end at primLo (nothing moves when the fiber
   * parked where it parked before), and the slots they leave are cleared. In the stack's own
   * arrays primLo is their length when no frame is resident, so the frames end there too. In
   * the scratch arrays with no resident frame, leaveScratch copies them out as they lie.
   */
  private void endCapture(int cursorP, int cursorR) {
    boolean inScratch = state == RUNNING_IN_SCRATCH;
    Scratch sc = inScratch ? scratch() : null;
    int endP = inScratch ? sc.primEnd : prims.length;
    int endR = inScratch ? sc.refEnd : refs.length;
    int baseP = cursorP; // where the capture's frames start
    int baseR = cursorR;
    if (inScratch) { // it may have slid before it moved here: find where (a rare path)
      long start = captureStart();
      baseP = (int) (start >>> 32);
      baseR = (int) start;
    } else if (state == RUNNING_FROM_ZERO) {
      baseP = 0;
      baseR = 0;
    }
    if (!inScratch || primLo < endP) {
      int np = primTop - baseP;
      int nr = refTop - baseR;
      int toP = primLo - np;
      int toR = refLo - nr;
      if (toP != baseP) {
        System.arraycopy(prims, baseP, prims, toP, np);
      }
      if (toR != baseR) {
        System.arraycopy(refs, baseR, refs, toR, nr);
        java.util.Arrays.fill(refs, baseR, Math.min(toR, refTop), null);
      }
      primLo = toP;
      refLo = toR;
      primTop = endP;
      refTop = endR;
    } else {
      primLo = baseP;
      refLo = baseR;
    }
  }

  private void finish() {
    if (state == RUNNING_IN_SCRATCH) { // a capture that failed half-way: the thread keeps its arrays, not what they held
      java.util.Arrays.fill(refs, null);
    }
    state = DONE;
    flow = 0;
    prims = null;
    refs = null;
    primTop = 0;
    refTop = 0;
    primLo = 0;
    refLo = 0;
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
    if (s.flow > 0) {
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
      sc.primEnd = 0; // nothing resident
      sc.refEnd = 0;
      state = RUNNING_IN_SCRATCH;
    }
  }

  /** The scratch arrays of one thread. */
  static final class Scratch {
    long[] prims;
    Object[] refs;
    /* While a capture writes here: the top of the resident region (its bottom is the stack's primLo). */
    int primEnd;
    int refEnd;

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
    prims = java.util.Arrays.copyOfRange(prims, primLo, primTop);
    refs = java.util.Arrays.copyOfRange(r, refLo, refTop);
    java.util.Arrays.fill(r, 0, refTop, null);
    primTop -= primLo;
    refTop -= refLo;
    primLo = 0;
    refLo = 0;
  }

  @SuppressWarnings("unchecked")
  private static <E extends Throwable> E sneaky(Throwable e) throws E {
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
    int rt = s.refTop + (int) ((header >>> 16) & 0xFFFFFF);
    if (pt > s.primLo || rt > s.refLo) {
      s.makeRoom(pt, rt); // may slide the capture down: the tops change
      pt = s.primTop + (int) (header >>> 40);
      rt = s.refTop + (int) ((header >>> 16) & 0xFFFFFF);
    }
    s.prims[pt - 1] = header;
    s.primTop = pt;
    s.refs[rt - 1] = frameId;
    s.refTop = rt;
  }

  /*
   * A capture reached the resident region, or the end of the arrays it writes into: it moves
   * to the thread's scratch arrays, taking the whole store along (the resident region keeps its
   * place), and grows them if it outgrows them too. Resident frames then move up out of its way,
   * by at least 16 slots, so that the frames still to come rarely move them again (endCapture
   * moves the capture up to them when it ends).
   */
  private void makeRoom(int pt, int rt) {
    if (state == RUNNING && slide(pt, rt)) {
      return;
    }
    Scratch sc = scratch();
    if (state != RUNNING_IN_SCRATCH) {
      int endP = prims == null ? 0 : prims.length;
      int endR = refs == null ? 0 : refs.length;
      if (endP > sc.prims.length) {
        sc.prims = new long[Math.max(endP, sc.prims.length * 2)];
      }
      if (endR > sc.refs.length) {
        sc.refs = new Object[Math.max(endR, sc.refs.length * 2)];
      }
      if (prims != null) {
        System.arraycopy(prims, 0, sc.prims, 0, endP);
      }
      if (refs != null) {
        System.arraycopy(refs, 0, sc.refs, 0, endR);
      }
      sc.primEnd = endP;
      sc.refEnd = endR;
      state = RUNNING_IN_SCRATCH;
    }
    boolean resident = primLo < sc.primEnd;
    int dp = resident && pt > primLo ? Math.max(pt - primLo, 16) : 0;
    int dr = resident && rt > refLo ? Math.max(rt - refLo, 16) : 0;
    int needP = resident ? sc.primEnd + dp : pt;
    int needR = resident ? sc.refEnd + dr : rt;
    if (needP > sc.prims.length) {
      sc.prims = java.util.Arrays.copyOf(sc.prims, Math.max(needP, sc.prims.length * 2));
    }
    if (needR > sc.refs.length) {
      sc.refs = java.util.Arrays.copyOf(sc.refs, Math.max(needR, sc.refs.length * 2));
    }
    prims = sc.prims;
    refs = sc.refs;
    if (!resident) {
      primLo = prims.length;
      refLo = refs.length;
      sc.primEnd = primLo;
      sc.refEnd = refLo;
      return;
    }
    if (dp > 0) {
      System.arraycopy(prims, primLo, prims, primLo + dp, sc.primEnd - primLo);
      primLo += dp;
      sc.primEnd += dp;
    }
    if (dr > 0) {
      System.arraycopy(refs, refLo, refs, refLo + dr, sc.refEnd - refLo);
      java.util.Arrays.fill(refs, refLo, refLo + dr, null);
      refLo += dr;
      sc.refEnd += dr;
    }
  }

  /*
   * In the stack's own arrays, a capture starts where the restore's cursor stopped, above the
   * slots that an earlier, smaller capture left unused when it moved up to the resident frames.
   * When sliding what it wrote so far down to the arrays' start makes room for the frame being
   * reserved, it slides (the cost of the frames written so far), instead of moving the store to
   * the scratch arrays and leaving in a new copy: a fiber that parks alternately shallow and
   * deep keeps its arrays.
   */
  private boolean slide(int pt, int rt) {
    long start = captureStart();
    int sp = (int) (start >>> 32);
    int sr = (int) start;
    if ((sp == 0 && sr == 0) || pt - sp > primLo || rt - sr > refLo) {
      return false;
    }
    System.arraycopy(prims, sp, prims, 0, primTop - sp);
    System.arraycopy(refs, sr, refs, 0, refTop - sr);
    java.util.Arrays.fill(refs, refTop - sr, refTop, null);
    primTop -= sp;
    refTop -= sr;
    state = RUNNING_FROM_ZERO;
    return true;
  }

  /*
   * Where the running capture's frames start, found by walking them down from the tops: below
   * them lie only the arrays' start or cleared reference slots (a discard, a move up, a slide
   * and leaveScratch clear every slot they leave), and every frame's top reference is its id.
   * A slow path's tool: the cost of the frames captured so far. Returns primitive << 32 | reference.
   */
  private long captureStart() {
    int p = primTop;
    int r = refTop;
    while (p > 0 && r > 0 && refs[r - 1] != null) {
      long header = prims[p - 1];
      int np = (int) (header >>> 40);
      int nr = (int) ((header >>> 16) & 0xFFFFFF);
      if (np < 1 || nr < 1 || np > p || nr > r) {
        break;
      }
      p -= np;
      r -= nr;
    }
    return ((long) p << 32) | (r & 0xFFFFFFFFL);
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
    if (frameId == null || frameId.indexOf('#') < 0) {
      throw new IllegalStateException("capture: frame id " + frameId + " (expected: owner.name(desc)#version)");
    }
    if (s.state == DONE || s.state == SUSPENDED) {
      throw new IllegalStateException("capture: frame of " + frameId + " saved into a stack that is not running (state "
          + s.state + ")");
    }
    int pt = s.primTop + np;
    int rt = s.refTop + nr;
    if (s.primTop > s.primLo || s.refTop > s.refLo) {
      throw new IllegalStateException("capture: frame of " + frameId + " saved from tops " + s.primTop + " and "
          + s.refTop + ", above the resident frames from " + s.primLo + " and " + s.refLo + " (the store is corrupt)");
    }
    if (pt > s.primLo || rt > s.refLo) {
      s.makeRoom(pt, rt); // may slide the capture down: the tops change
      pt = s.primTop + np;
      rt = s.refTop + nr;
    }
    long[] p = s.prims;
    Object[] r = s.refs;
    if (p == null || r == null || pt > p.length || rt > r.length || pt > s.primLo || rt > s.refLo) {
      throw new IllegalStateException("capture: frame of " + frameId + " ends at " + pt + " and " + rt
          + ", past the room made for it (" + s.primLo + " and " + s.refLo + "; the store is corrupt)");
    }
    p[pt - 1] = header;
    s.primTop = pt;
    r[rt - 1] = frameId;
    s.refTop = rt;
  }

  // ---------------------------------------------------------------- ABI: restore

  /**
   * For generated code: opens the outermost saved frame not yet opened by this restore and
   * returns its resume index. The frame stays saved: the tops move down below it (a cursor),
   * and its values lie from {@link #primTop} and {@link #refTop} up, where the restoring method
   * reads them. The method calls its callee again, and then either returns at once (the callee
   * suspended again: the frame stays as it is) or calls {@link #discardFrame}.
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
    return (int) (header & 0xFFFF);
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
    return (int) (header & 0xFFFF);
  }

  private static void checkFrameId(Object id, String frameId, Stack s) {
    if (!frameId.equals(id)) {
      s.flow = 0;
      throw new IllegalStateException("restore: frame of " + id + " re-entered by " + frameId
          + " (a method on the suspended stack is not woven, or changed)");
    }
  }

  /**
   * For generated code: discards a frame that {@link #openFrame} opened, whose callee returned
   * or threw, together with every frame inner to it: the resident region starts above it, and
   * its reference slots are cleared, so that the store keeps nothing reachable that the
   * continuing method no longer saves.
   *
   * @param primEnd the top of the frame's primitives (its base plus its primitive count)
   * @param refEnd the top of the frame's references
   * @param s the stack
   */
  public static void discardFrame(int primEnd, int refEnd, Stack s) {
    java.util.Arrays.fill(s.refs, s.refLo, refEnd, null); // a small body: C2 inlines it at every site
    s.refLo = refEnd;
    s.primLo = primEnd;
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
    long[] pa = prims;
    Object[] ra = refs;
    int p = primTop;
    int r = refTop;
    int pl = primLo;
    int rl = refLo;
    if (pa == null || ra == null) {
      return ids;
    }
    while (p > pl && p <= pa.length && r > rl && r <= ra.length) {
      long header = pa[p - 1];
      Object id = ra[r - 1];
      int np = (int) (header >>> 40);
      int nr = (int) ((header >>> 16) & 0xFFFFFF);
      if (!(id instanceof String) || np < 1 || nr < 1) {
        break;
      }
      ids.add((String) id);
      p -= np;
      r -= nr;
    }
    return ids;
  }

  // ---------------------------------------------------------------- serialization

  private void writeObject(ObjectOutputStream out) throws IOException {
    if (state == RUNNING || state == RUNNING_IN_SCRATCH || state == RUNNING_FROM_ZERO) {
      throw new IOException("continuation: running (expected: new, suspended or done)");
    }
    out.defaultWriteObject();
    out.writeInt(primTop - primLo);
    for (int i = primLo; i < primTop; i++) {
      out.writeLong(prims[i]);
    }
    out.writeInt(refTop - refLo);
    for (int i = refLo; i < refTop; i++) {
      out.writeObject(refs[i]);
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
    prims = new long[np]; // exact: the frames end at the arrays' ends
    for (int i = 0; i < np; i++) {
      prims[i] = in.readLong();
    }
    primTop = np;
    int nr = readFrameSize(in);
    refs = new Object[nr];
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
