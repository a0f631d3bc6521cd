package io.krill.fibers.corpus;

import io.krill.fibers.Continuation;
import io.krill.fibers.Suspendable;
import io.krill.fibers.SuspendableCallable;

/**
 * A shape that {@link TwoLoadersTest} defines in two class loaders at once. It refers only to
 * the runtime, so each copy has its own statics and its own frames, but shares the runtime.
 */
public final class TwiceLoaded implements SuspendableCallable<String> {
  static int calls;

  private final String name;

  public TwiceLoaded(String name) {
    this.name = name;
  }

  @Override
  public String call() throws Suspendable {
    StringBuilder out = new StringBuilder(name);
    for (int i = 0; i < 3; i++) {
      out.append(step(i, (long) i << 32));
    }
    return out.append('#').append(calls).toString();
  }

  private int step(int i, long wide) throws Suspendable {
    calls++;
    Continuation.suspend();
    return i + (int) (wide >>> 32) + calls * 10;
  }
}
