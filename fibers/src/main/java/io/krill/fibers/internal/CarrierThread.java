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
  private Object loop;
  private Object sliceOwner;
  private long slices;

  /**
   * The fibers package's carrier-local run queue (an opaque object it owns), or null. Only
   * this thread reads or writes it.
   */
  public Object runQueue;

  /**
   * Creates a carrier thread.
   *
   * @param task what the thread runs
   * @param name the thread's name
   */
  public CarrierThread(Runnable task, String name) {
    super(null, task, name);
    setDaemon(true);
  }

  /**
   * Records that a fiber slice starts on this carrier, for the watchdog.
   *
   * @param owner the fiber
   */
  public void sliceStarted(Object owner) {
    slices++;
    sliceOwner = owner;
  }

  /** Records that the slice ended. */
  public void sliceEnded() {
    sliceOwner = null;
  }

  /** @return the event loop this thread runs, or null */
  public Object loop() {
    return loop;
  }

  /** @param loop the event loop this thread runs */
  public void loop(Object loop) {
    this.loop = loop;
  }

  /** @return the fiber running now, or null (a racy read, for the watchdog) */
  public Object sliceOwner() {
    return sliceOwner;
  }

  /** @return how many slices started on this carrier (a racy read, for the watchdog) */
  public long slices() {
    return slices;
  }
}
