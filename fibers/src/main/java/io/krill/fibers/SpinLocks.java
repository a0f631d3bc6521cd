package io.krill.fibers;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

/**
 * Spin locks kept in an {@code int} field of the object they guard, for sections of a few field
 * and buffer operations that never park: a channel's slots, the per-message state of a
 * connection or a stream. For library code, not application code. Not reentrant.
 *
 * <p>Use: a {@code private volatile int locked;} field, a
 * {@code private static final VarHandle LOCKED = SpinLocks.handle(MethodHandles.lookup(), X.class);}
 * and {@code SpinLocks.lock(LOCKED, this)} / {@code SpinLocks.unlock(LOCKED, this)} around the
 * section, the unlock in a {@code finally}.
 */
public final class SpinLocks {
  /*
   * Implementation notes: on the per-message paths a monitor's enter and exit cost about as much
   * as the rest of a message's trip; one CAS and one release store is the least that still lets
   * another thread close the object safely. The uncontended path is one CAS so that it inlines;
   * a contender spins with onSpinWait, then yields (a holder descheduled inside its few
   * instructions needs the CPU to finish), then naps, so many contenders on few cores do not
   * burn the holder's time.
   */

  /** Spins with {@link Thread#onSpinWait()} this many times before yielding to the holder. */
  static final int SPINS_BEFORE_YIELD = 128;
  /** Yields until this many tries, then naps a microsecond between tries. */
  static final int SPINS_BEFORE_NAP = 256;

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
   * Takes the lock, spinning while another thread holds it. Never parks a fiber.
   *
   * @param lock the field's handle
   * @param owner the guarded object
   */
  public static void lock(VarHandle lock, Object owner) {
    if (!lock.compareAndSet(owner, 0, 1)) {
      lockContended(lock, owner);
    }
  }

  private static void lockContended(VarHandle lock, Object owner) {
    for (int spins = 1; ; spins++) {
      if ((int) lock.getVolatile(owner) == 0 && lock.compareAndSet(owner, 0, 1)) {
        return;
      }
      if (spins < SPINS_BEFORE_YIELD) {
        Thread.onSpinWait();
      } else if (spins < SPINS_BEFORE_NAP) {
        Thread.yield();
      } else {
        LockSupport.parkNanos(1_000);
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
