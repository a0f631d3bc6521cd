package io.krill.netio.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Spin locks kept in an {@code int} field of the object they guard, for sections of a few
 * field and buffer operations that never park: the per-message state of netio's and httpd's
 * connections and streams. On this project's per-message paths a monitor's enter and exit
 * cost about as much as the rest of a message's trip (see docs/perf/2026-11-22-netio-echo.md);
 * one CAS and one release store is the least that still lets another thread close the
 * object safely. Not reentrant. Not API.
 *
 * <p>Use: a {@code private volatile int locked;} field, a
 * {@code private static final VarHandle LOCKED = SpinLocks.handle(MethodHandles.lookup(), X.class);}
 * and {@code SpinLocks.lock(LOCKED, this)} / {@code SpinLocks.unlock(LOCKED, this)} around the
 * section, the unlock in a {@code finally}.
 */
public final class SpinLocks {
  /** Spins with {@link Thread#onSpinWait()} this many times before yielding to the holder. */
  static final int SPINS_BEFORE_YIELD = 128;

  private SpinLocks() {}

  /**
   * @param lookup the owner class's lookup ({@code MethodHandles.lookup()} in it)
   * @param owner the class declaring {@code private volatile int locked}
   * @return the handle of that field
   */
  public static VarHandle handle(MethodHandles.Lookup lookup, Class<?> owner) {
    try {
      return lookup.findVarHandle(owner, "locked", int.class);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(owner.getName() + " has no 'private volatile int locked' field", e);
    }
  }

  /**
   * Takes the lock, spinning while another thread holds it; after a short spin it yields,
   * since a holder that was descheduled inside its few instructions needs the CPU to finish.
   *
   * @param lock the field's handle
   * @param owner the guarded object
   */
  public static void lock(VarHandle lock, Object owner) {
    for (int spins = 0; !lock.compareAndSet(owner, 0, 1); spins++) {
      if (spins < SPINS_BEFORE_YIELD) {
        Thread.onSpinWait();
      } else {
        Thread.yield();
      }
    }
  }

  /**
   * Releases the lock (a release store: what the section wrote is visible to the next holder).
   *
   * @param lock the field's handle
   * @param owner the guarded object
   */
  public static void unlock(VarHandle lock, Object owner) {
    lock.setRelease(owner, 0);
  }
}
