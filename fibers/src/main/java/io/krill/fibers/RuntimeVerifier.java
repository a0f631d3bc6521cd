package io.krill.fibers;

import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Opt-in check ({@code -Dkrill.verify=true}) that every frame a suspension unwinds through
 * was woven. Without it, an unwoven frame silently loses its state; with it, the suspension
 * fails with an {@link IllegalStateException} naming each such frame.
 */
final class RuntimeVerifier {
  /** Whether the check runs; read once at class initialization. */
  static final boolean ENABLED = Boolean.getBoolean("krill.verify");

  private static final StackWalker WALKER = StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE);

  private static final ClassValue<String> WOVEN = new ClassValue<>() {
    @Override
    protected String computeValue(Class<?> type) {
      try {
        Field f = type.getDeclaredField(Stack.WOVEN_FIELD);
        f.setAccessible(true);
        return (String) f.get(null);
      } catch (ReflectiveOperationException | RuntimeException e) {
        return "";
      }
    }
  };

  private static final ClassValue<java.util.Set<String>> PRIMITIVES = new ClassValue<>() {
    @Override
    protected java.util.Set<String> computeValue(Class<?> type) {
      java.util.Set<String> out = new java.util.HashSet<>();
      for (java.lang.reflect.Method m : type.getDeclaredMethods()) {
        if (m.isAnnotationPresent(Primitive.class)) {
          out.add(m.getName() + java.lang.invoke.MethodType.methodType(m.getReturnType(), m.getParameterTypes())
              .toMethodDescriptorString());
        }
      }
      return out;
    }
  };

  private RuntimeVerifier() {}

  /** Walks from the caller of the primitive down to the continuation's bottom frame. */
  static void checkFrames() {
    List<String> unwoven = WALKER.walk(frames -> {
      List<String> bad = new ArrayList<>();
      List<StackWalker.StackFrame> list = frames.collect(Collectors.toList());
      for (StackWalker.StackFrame f : list) {
        Class<?> c = f.getDeclaringClass();
        if (c == Stack.class && "runStack".equals(f.getMethodName())) {
          break;
        }
        String method = f.getMethodName() + f.getDescriptor();
        if (c == Stack.class || c == RuntimeVerifier.class || c.isHidden() || PRIMITIVES.get(c).contains(method)) {
          continue;
        }
        String woven = WOVEN.get(c);
        if (!("|" + woven + "|").contains("|" + method + "|")) {
          bad.add(c.getName() + "." + f.getMethodName() + f.getDescriptor()
              + (f.getFileName() == null ? "" : " (" + f.getFileName() + ":" + f.getLineNumber() + ")"));
        }
      }
      return bad;
    });
    if (!unwoven.isEmpty()) {
      throw new IllegalStateException("krill.verify: suspension passes through frame(s) that were not woven: "
          + String.join(", ", unwoven) + "; weave them (build-time weaver or -javaagent) and mark them 'throws Suspendable'");
    }
  }

}
