package io.krill.fibers;

import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.List;

/**
 * Opt-in check ({@code -Dkrill.verify=true}) that every frame a suspension unwinds through
 * was woven. Without it, an unwoven frame silently loses its state; with it, the suspension
 * fails with an {@link IllegalStateException} naming each such frame.
 *
 * <p>A debugging mode: it walks the real Java stack ({@link StackWalker}) at every
 * suspension, about 20 µs for 15 frames here against 40–80 ns for the suspension, so code that
 * suspends often runs hundreds of times slower with it. No cheaper check is exact: only the
 * walk sees a frame that was not woven (such a frame leaves no trace in the continuation).
 */
final class RuntimeVerifier {
  /** Whether the check runs; read once at class initialization. */
  static final boolean ENABLED = Boolean.getBoolean("krill.verify");

  private static final StackWalker WALKER = StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE);

  /*
   * Implementation notes.
   *
   * Why it was slow: per frame of every suspension it asked the frame for its descriptor
   * (StackFrame.getDescriptor() builds a MethodType from the resolved method), concatenated
   * the class's woven list into a new string and searched it, and first copied the whole
   * stack into a list. Now each class is read once (ClassValue) into the names of its methods
   * that may be unwound through (woven or @Primitive): a name whose every overload qualifies
   * is decided by name alone; only an overloaded name with mixed overloads needs the
   * descriptor. The walk stops at the continuation's bottom frame instead of materializing
   * the stack below it.
   */
  private static final ClassValue<Frames> FRAMES = new ClassValue<>() {
    @Override
    protected Frames computeValue(Class<?> type) {
      return new Frames(type);
    }
  };

  /** Which methods of one class a suspension may unwind through. */
  private static final class Frames {
    final java.util.Set<String> allowed = new java.util.HashSet<>(); // name + descriptor
    final java.util.Set<String> byName = new java.util.HashSet<>(); // every overload allowed
    final java.util.Set<String> mixed = new java.util.HashSet<>(); // some overloads allowed

    Frames(Class<?> type) {
      String woven = "";
      try {
        Field f = type.getDeclaredField(Stack.WOVEN_FIELD);
        f.setAccessible(true);
        woven = (String) f.get(null);
      } catch (ReflectiveOperationException | RuntimeException e) {
        // not woven: only @Primitive methods are allowed
      }
      allowed.addAll(java.util.Arrays.asList(woven.split("\\|")));
      java.util.Map<String, Boolean> all = new java.util.HashMap<>();
      try {
        for (java.lang.reflect.Method m : type.getDeclaredMethods()) {
          String d = m.getName() + java.lang.invoke.MethodType.methodType(m.getReturnType(), m.getParameterTypes())
              .toMethodDescriptorString();
          if (m.isAnnotationPresent(Primitive.class)) {
            allowed.add(d);
          }
          all.merge(m.getName(), allowed.contains(d), Boolean::logicalAnd);
          if (allowed.contains(d)) {
            byName.add(m.getName());
          }
        }
      } catch (LinkageError e) {
        byName.clear(); // a signature does not resolve: decide every frame by descriptor
      }
      for (java.util.Map.Entry<String, Boolean> e : all.entrySet()) {
        if (!e.getValue() && byName.remove(e.getKey())) {
          mixed.add(e.getKey());
        }
      }
    }

    boolean allows(StackWalker.StackFrame f) {
      String name = f.getMethodName();
      if (byName.contains(name)) {
        return true;
      }
      return !name.startsWith("<") && (mixed.contains(name) || byName.isEmpty()) && allowed.contains(name + f.getDescriptor());
    }
  }

  private RuntimeVerifier() {}

  /** Walks from the caller of the primitive down to the continuation's bottom frame. */
  static void checkFrames() {
    List<String> unwoven = WALKER.walk(frames -> {
      List<String> bad = null;
      java.util.Iterator<StackWalker.StackFrame> it = frames.iterator();
      while (it.hasNext()) {
        StackWalker.StackFrame f = it.next();
        Class<?> c = f.getDeclaringClass();
        if (c == Stack.class) {
          if ("runStack".equals(f.getMethodName())) {
            break;
          }
          continue;
        }
        if (c == RuntimeVerifier.class || c.isHidden() || FRAMES.get(c).allows(f)) {
          continue;
        }
        if (bad == null) {
          bad = new ArrayList<>();
        }
        bad.add(c.getName() + "." + f.getMethodName() + f.getDescriptor()
            + (f.getFileName() == null ? "" : " (" + f.getFileName() + ":" + f.getLineNumber() + ")"));
      }
      return bad;
    });
    if (unwoven != null) {
      throw new IllegalStateException("krill.verify: suspension passes through frame(s) that were not woven: "
          + String.join(", ", unwoven) + "; weave them (build-time weaver or -javaagent) and mark them 'throws Suspendable'");
    }
  }

}
