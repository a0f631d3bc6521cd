package io.krill.jcstress;

import io.krill.fibers.SpinLocks;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.I_Result;

/**
 * Mutual exclusion: two threads each increment a plain field under the spin lock; neither
 * increment is lost. Result: the field's value afterwards.
 */
@JCStressTest
@Outcome(id = "2", expect = Expect.ACCEPTABLE, desc = "both increments kept")
@Outcome(id = "1", expect = Expect.FORBIDDEN, desc = "an increment lost: both held the lock at once")
@Outcome(expect = Expect.FORBIDDEN, desc = "anything else")
@State
public class SpinLockExclusionTest {
  private static final VarHandle LOCKED = SpinLocks.handle(MethodHandles.lookup(), SpinLockExclusionTest.class);

  @SuppressWarnings("unused") // through LOCKED
  private volatile int locked;
  private int count;

  private void increment() {
    SpinLocks.lock(LOCKED, this);
    try {
      count = count + 1;
    } finally {
      SpinLocks.unlock(LOCKED, this);
    }
  }

  @Actor
  public void first() {
    increment();
  }

  @Actor
  public void second() {
    increment();
  }

  @Arbiter
  public void result(I_Result r) {
    r.r1 = count;
  }
}
