package io.krill.fibers.internal;

import io.netty.util.concurrent.FastThreadLocalThread;

/**
 * A thread that carries continuations: the current {@link Stack} is a plain field, so woven
 * code finds it with one type check and one load instead of a {@link ThreadLocal} lookup.
 *
 * <p>Schedulers create their threads as carrier threads. Other threads work too, through a
 * slower thread-local fallback.
 */
public final class CarrierThread extends FastThreadLocalThread {
  Stack stack = Stack.NONE;

  /**
   * Creates a carrier thread.
   *
   * @param task what the thread runs
   * @param name the thread's name
   */
  public CarrierThread(Runnable task, String name) {
    super(null, task, name);
  }
}
