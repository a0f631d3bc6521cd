package io.krill.fibers;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Array;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Lazy resume: a stack whose outer frames only wait resumes without re-entering them.
 *
 * <p>Only frames of classes woven with {@code -Dkrill.weave.lazyResume=true} take part; the
 * runtime needs nothing switched on. See docs/transform.md.
 */
final class LazyResume {
  /*
   * Implementation notes.
   *
   * A resume re-enters every saved frame, outermost first: each restores its values and calls
   * its callee again. A frame that only waits (a loop's callers: a framework's dispatch, a
   * handler's outer methods) is re-entered and saved again in place on every hop, ~5-10 ns a
   * frame. Lazy resume leaves such frames in the store:
   *
   * - Counting. A method woven for lazy resume counts its frame as waiting (in Stack.flow,
   *   which stays negative) when the restore's own call suspends again and the frame is saved
   *   again in place (Stack.savedAgainWaiting): it ran no code of its own since it was saved.
   *   Such frames are the top of the store when the capture ends: a frame saved fresh called
   *   its callee fresh, so every frame below it was saved fresh too. (One exception: inside a
   *   loop, a restore makes an interface call again at its own call instruction, so the caller
   *   is saved fresh above a callee saved again. Any cut is correct, since every frame in the
   *   store only waits for the one below it; the count only chooses where the cut falls.)
   * - Forming. When a capture ends with at least MIN_WAITING such frames (runStack), they move
   *   to the bottom of the store as one waiting block, the frames below them move up over it,
   *   and a marker goes on top: one primitive slot (index DORMANT, the block's size in place
   *   of the counts; see marker()) and one reference slot (the entry). The frame below the
   *   waiting ones, the first that ran code of its own, is the resume's entry: its method must
   *   be woven for lazy resume (its id ends in +lazy), which saves the method's own receiver
   *   (or, static, its class) in the slot below its id, and its method must be callable from
   *   here (entry()).
   * - Resuming. runStack pops the marker and calls the entry's method with zero and null
   *   arguments on that receiver, non-virtually, through the Stack.Entry its class made (see
   *   entry(); an interface call the JIT inlines where few kinds of frame resume here): the
   *   method restores itself as if its caller had called it, and the frames below it follow,
   *   down to the block. If they suspend again, their capture writes from the block's end up
   *   (it is where their restore left the tops) and the marker goes back on top: the waiting
   *   frames were never touched, and a parked stack holds them in its own arrays, one marker
   *   slot more than without lazy resume (a separate block would cost ~80 B per fiber).
   * - Returning. When the entry's method returns (or throws), its caller must go on with that
   *   result. The store becomes a result frame (the entry's id, index RESULT_VALUE or
   *   RESULT_THROWN, the boxed value or the exception) with the waiting frames back on top,
   *   and the body is re-entered eagerly: the waiting frames restore, and the one that called
   *   the entry's method calls it again; that method's dispatch finds the result frame and
   *   returns the value (Stack.resumeResult, called from the tableswitch's default) or throws
   *   the exception into its caller's handlers. From there on the stack runs as always.
   *
   * What it changes for users: an exception thrown while the waiting frames are aside carries
   * a stack trace that ends at the entry's method (the frames above it are not on the thread's
   * stack); once it reaches them it propagates through them as always. Fiber dumps, frameIds()
   * and serialization see every frame (a serialized stack is written as one store and resumes
   * eagerly).
   */

  /* The property's value as given. */
  private static final String MIN_WAITING_VALUE = System.getProperty("krill.lazyResume.minFrames", "1");

  /**
   * How many waiting frames on top of a capture make a dormant block; 0 when the property is
   * not an integer of at least 1, and then no stack runs ({@link #checkMinWaiting()}): a bad
   * value fails every run with the same message, not the class's initialization once.
   */
  static final int MIN_WAITING = minWaitingOrZero(MIN_WAITING_VALUE);

  /** The suffix of a frame id whose class was woven for lazy resume. */
  static final String LAZY_ABI = "+lazy";

  private static final MethodType ENTRY_TYPE = MethodType.methodType(Object.class, Object.class);

  /* Per declaring class: frame id -> the entry's handle, or NO_ENTRY. */
  private static final ClassValue<ConcurrentHashMap<String, Object>> ENTRIES =
      new ClassValue<ConcurrentHashMap<String, Object>>() {
        @Override
        protected ConcurrentHashMap<String, Object> computeValue(Class<?> type) {
          return new ConcurrentHashMap<>();
        }
      };

  private static final Object NO_ENTRY = new Object();

  /* The woven class's factory of entries (transform's ResumeEntries). */
  private static final String ENTRY_FACTORY = "$krill$entry";

  /* The woven class's switch into its methods: a frame of its own between the entry and resumeTop. */
  static final String ENTER_METHOD = "$krill$enter";
  private static final MethodType ENTER_TYPE = MethodType.methodType(Object.class, int.class, Object.class, Stack.class);

  private LazyResume() {}

  private static int minWaitingOrZero(String v) {
    try {
      return minWaiting(v);
    } catch (IllegalArgumentException e) {
      return 0;
    }
  }

  /**
   * Called as a stack starts or resumes: a bad {@code krill.lazyResume.minFrames} fails it, naming
   * the property, before anything runs. A constant test the JIT drops when the value is good.
   *
   * @throws IllegalArgumentException if the property is not an integer of at least 1
   */
  static void checkMinWaiting() {
    if (MIN_WAITING < 1) {
      minWaiting(MIN_WAITING_VALUE);
    }
  }

  static int minWaiting(String v) {
    try {
      int n = Integer.parseInt(v.trim());
      if (n >= 1) {
        return n;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalArgumentException("krill.lazyResume.minFrames: " + v + " (expected: an integer >= 1)");
  }

  /*
   * The dormant marker: one primitive slot, this header, and one reference slot, the entry. Its
   * counts are not its own size (a marker is always one slot of each) but the waiting block's,
   * which lies at the bottom of the store: base refs in bits 16..39, base prims in 40..63.
   */
  static long marker(int basePrims, int baseRefs) {
    return Stack.DORMANT | ((long) baseRefs << 16) | ((long) basePrims << 40);
  }

  static int basePrims(long marker) {
    return (int) (marker >>> 40);
  }

  static int baseRefs(long marker) {
    return (int) ((marker >>> 16) & 0xFFFFFF);
  }

  /* The most slots of either kind a waiting block may hold: its size goes in a marker's 24-bit count. */
  private static final int MAX_BASE = 0xFFFFFF;

  /**
   * Resumes the frames above the waiting block, whose marker runStack took off the top.
   *
   * @param marker the marker's header: where the waiting block ends
   * @return true if they suspended again; false if the entry's method returned or threw, and
   *     the store now holds its result below the waiting frames, to be re-entered eagerly
   */
  @Primitive
  static boolean resumeTop(Stack s, Stack.Entry entry, long marker) throws Throwable {
    Object[] r = s.refs;
    Object self = r[s.refTop - 2]; // the entry's receiver, or its class: below its id
    Object id = r[s.refTop - 1];
    Object v;
    boolean threw = false;
    try {
      v = entry.enter(self, s);
    } catch (Throwable t) {
      if (s.flow < 0) {
        throw t; // a capture that failed half-way: the stack fails
      }
      withWaitingFrames(t, s, marker, self);
      v = t;
      threw = true;
    }
    if (s.flow < 0) {
      return true;
    }
    wake(s, marker, id, v, threw);
    return false;
  }

  /*
   * An exception leaving the entry's method was thrown while the waiting frames were aside, so
   * its stack trace ends at the entry's method (then this class and runStack). The waiting
   * frames are put where they stand, innermost first, each with the line of the call it waits
   * in (FrameLines), so a trace reads as it would without lazy resume.
   */
  static void withWaitingFrames(Throwable t, Stack s, long marker, Object entrySelf) {
    StackTraceElement[] full = t.getStackTrace();
    int at = -1;
    for (int i = 0; i < full.length; i++) {
      if (full[i].getClassName().equals(LazyResume.class.getName())) {
        at = i;
        break;
      }
    }
    if (at < 0) { // no trace written, or a trace of another stack
      return;
    }
    StackTraceElement[] trace = withoutEntryFrames(full, at);
    at -= full.length - trace.length;
    ClassLoader loader = (entrySelf instanceof Class ? (Class<?>) entrySelf : entrySelf.getClass()).getClassLoader();
    java.util.List<StackTraceElement> waiting = new java.util.ArrayList<>(); // outermost first
    Stack.forEachFrame(s.prims, s.refs, 0, 0, basePrims(marker), baseRefs(marker),
        (header, id, below) -> waiting.add(Stack.element(header, id, below, loader)));
    StackTraceElement[] spliced = new StackTraceElement[trace.length + waiting.size()];
    System.arraycopy(trace, 0, spliced, 0, at);
    for (int k = 0; k < waiting.size(); k++) {
      spliced[at + k] = waiting.get(waiting.size() - 1 - k);
    }
    System.arraycopy(trace, at, spliced, at + waiting.size(), trace.length - at);
    t.setStackTrace(spliced);
  }

  /* The trace without the frames of the call into the entry's method, above `at`: its class's switch, a handle's. */
  private static StackTraceElement[] withoutEntryFrames(StackTraceElement[] trace, int at) {
    java.util.List<StackTraceElement> kept = new java.util.ArrayList<>(trace.length);
    for (int i = 0; i < trace.length; i++) {
      if (i < at && (trace[i].getMethodName().equals(ENTER_METHOD)
          || trace[i].getClassName().equals(HandleEntry.class.getName()))) {
        continue;
      }
      kept.add(trace[i]);
    }
    return kept.size() == trace.length ? trace : kept.toArray(new StackTraceElement[0]);
  }

  /*
   * The frames above the waiting block all returned (or threw): the store becomes [result frame
   * of the entry] [the waiting frames], the block moved up by the result frame's slots.
   */
  private static void wake(Stack s, long marker, Object entryId, Object v, boolean threw) {
    int bp = basePrims(marker);
    int br = baseRefs(marker);
    int np = bp + 1;
    int nr = br + 2;
    long[] p = s.prims;
    Object[] r = s.refs;
    if (p.length < np) {
      p = Arrays.copyOf(p, np);
      s.prims = p;
    }
    if (r.length < nr) {
      r = Arrays.copyOf(r, nr);
      s.refs = r;
    }
    System.arraycopy(p, 0, p, 1, bp);
    System.arraycopy(r, 0, r, 2, br);
    p[0] = (threw ? Stack.RESULT_THROWN : Stack.RESULT_VALUE) | (2L << 16) | (1L << 40);
    r[0] = v;
    r[1] = entryId;
    s.primTop = np;
    s.refTop = nr;
  }

  /** After a capture of the frames above the waiting block: the marker goes back on top. */
  static void pushDormant(Stack s, long marker, Stack.Entry entry) {
    int pt = s.primTop;
    int rt = s.refTop;
    if (s.prims == null || pt >= s.prims.length) {
      s.growPrims(pt + 1);
    }
    if (s.refs == null || rt >= s.refs.length) {
      s.growRefs(rt + 1); // may move both arrays: read them after
    }
    long[] p = s.prims;
    Object[] r = s.refs;
    p[pt] = marker;
    if (r[rt] != entry) {
      r[rt] = entry;
    }
    s.primTop = pt + 1;
    s.refTop = rt + 1;
  }

  /**
   * At the end of a capture that saved {@code waiting} frames again in place, the top of the
   * store: if the frame below them can be called as the resume's entry, moves them aside into
   * a dormant block.
   */
  static void form(Stack s, int waiting) {
    long[] p = s.prims;
    Object[] r = s.refs;
    int top = s.primTop;
    int rtop = s.refTop;
    int pt = top;
    int rt = rtop;
    for (int k = 0; k < waiting; k++) {
      long h = pt > 0 ? p[pt - 1] : 0;
      int np = (int) (h >>> 40);
      int nr = (int) ((h >>> 16) & 0xFFFFFF);
      if (np < 1 || nr < 1 || np > pt || nr > rt) {
        return; // not a whole frame: leave the store as it is
      }
      pt -= np;
      rt -= nr;
    }
    if (pt <= 0 || rt < 2 || top - pt > MAX_BASE || rtop - rt > MAX_BASE) {
      return;
    }
    Object id = r[rt - 1];
    if (!(id instanceof String) || !((String) id).endsWith(LAZY_ABI)) {
      return;
    }
    Stack.Entry entry = entry((String) id, r[rt - 2]);
    if (entry == null) {
      return;
    }
    // [frames below][waiting block] -> [waiting block][frames below], in place (three reversals,
    // no allocation: a fiber whose entry method returns now and then forms its block again)
    reverse(p, 0, pt);
    reverse(p, pt, top);
    reverse(p, 0, top);
    reverse(r, 0, rt);
    reverse(r, rt, rtop);
    reverse(r, 0, rtop);
    pushDormant(s, marker(top - pt, rtop - rt), entry);
  }

  private static void reverse(long[] a, int from, int to) {
    for (int i = from, j = to - 1; i < j; i++, j--) {
      long t = a[i];
      a[i] = a[j];
      a[j] = t;
    }
  }

  private static void reverse(Object[] a, int from, int to) {
    for (int i = from, j = to - 1; i < j; i++, j--) {
      Object t = a[i];
      a[i] = a[j];
      a[j] = t;
    }
  }

  /*
   * The entry that re-enters the method of frame id on self (its receiver, or its class when
   * static): non-virtual, zeros and nulls for the arguments (a resuming method reads its own
   * values from its frame), the result boxed. The class's own $krill$entry makes it where the
   * weaver wrote one; otherwise a method handle. Null when neither can be made: the stack then
   * resumes every frame, as without lazy resume.
   */
  static Stack.Entry entry(String id, Object self) {
    if (self == null) {
      return null;
    }
    int hash = id.lastIndexOf('#');
    int paren = id.indexOf('(');
    int dot = paren < 0 ? -1 : id.lastIndexOf('.', paren);
    if (hash < 0 || dot < 0) {
      return null;
    }
    String owner = id.substring(0, dot).replace('/', '.');
    Class<?> c = self instanceof Class && ((Class<?>) self).getName().equals(owner) ? (Class<?>) self
        : declaring(self.getClass(), owner);
    if (c == null) {
      return null;
    }
    ConcurrentHashMap<String, Object> known = ENTRIES.get(c);
    Object h = known.get(id);
    if (h == null) {
      h = woven(c, id.substring(dot + 1, hash));
      if (h == null) {
        h = handle(c, id.substring(dot + 1, paren), id.substring(paren, hash));
      }
      Object had = known.putIfAbsent(id, h);
      h = had != null ? had : h;
    }
    return h == NO_ENTRY ? null : (Stack.Entry) h;
  }

  /*
   * The entry the class's $krill$entry makes for method name+desc, or null when it has none, or
   * when its $krill$enter is not the one Stack.Entry calls (a class woven before the entries took
   * the stack: its entry would not implement the interface's method).
   */
  private static Stack.Entry woven(Class<?> c, String method) {
    try {
      MethodHandles.Lookup lookup = MethodHandles.privateLookupIn(c, MethodHandles.lookup());
      lookup.findStatic(c, ENTER_METHOD, ENTER_TYPE);
      MethodHandle make = lookup.findStatic(c, ENTRY_FACTORY, MethodType.methodType(Stack.Entry.class, String.class));
      return (Stack.Entry) make.invokeExact(method);
    } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
      return null; // none (an older weaving, an interface), or a module that does not open the class
    } catch (Throwable e) { // $krill$entry declares nothing: only an Error not caught above
      throw Stack.<RuntimeException>sneaky(e);
    }
  }

  /* Calls a method handle: for a method whose class has no $krill$entry. */
  private static final class HandleEntry implements Stack.Entry {
    private final MethodHandle handle;

    HandleEntry(MethodHandle handle) {
      this.handle = handle;
    }

    @Override
    @Primitive
    public Object enter(Object self, Stack stack) throws Throwable {
      return handle.invokeExact(self);
    }
  }

  static Class<?> declaring(Class<?> c, String name) {
    for (Class<?> k = c; k != null; k = k.getSuperclass()) {
      if (k.getName().equals(name)) {
        return k;
      }
      for (Class<?> i : k.getInterfaces()) {
        Class<?> found = declaring(i, name);
        if (found != null) {
          return found;
        }
      }
    }
    return null;
  }

  private static Object handle(Class<?> c, String name, String desc) {
    try {
      MethodType type = MethodType.fromMethodDescriptorString(desc, c.getClassLoader());
      Method m = c.getDeclaredMethod(name, type.parameterArray());
      boolean isStatic = Modifier.isStatic(m.getModifiers());
      MethodHandles.Lookup lookup = MethodHandles.privateLookupIn(c, MethodHandles.lookup());
      MethodHandle h = isStatic || Modifier.isPrivate(m.getModifiers()) ? lookup.unreflect(m)
          : lookup.unreflectSpecial(m, c);
      Class<?>[] params = type.parameterArray();
      Object[] zeros = new Object[params.length];
      for (int i = 0; i < params.length; i++) {
        zeros[i] = params[i].isPrimitive() ? Array.get(Array.newInstance(params[i], 1), 0) : null;
      }
      h = MethodHandles.insertArguments(h, isStatic ? 0 : 1, zeros);
      if (isStatic) {
        h = MethodHandles.dropArguments(h, 0, Object.class);
      }
      Class<?> ret = type.returnType();
      if (ret == double.class || ret == float.class) { // the dummy a suspended run returns, boxed without allocating
        h = MethodHandles.filterReturnValue(h, MethodHandles.lookup().findStatic(Stack.class,
            ret == double.class ? "boxDouble" : "boxFloat", MethodType.methodType(Object.class, ret)));
      }
      return new HandleEntry(h.asType(ENTRY_TYPE));
    } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
      return NO_ENTRY;
    }
  }
}
