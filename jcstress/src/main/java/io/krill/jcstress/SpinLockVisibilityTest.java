package io.krill.jcstress;

import io.krill.fibers.SpinLocks;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * Visibility of the guarded write: a holder writes two plain fields; the next holder sees both
 * or neither, never a half-written section. Result: the two fields as the reader saw them.
 */
@JCStressTest
@Outcome(id = "0, 0", expect = Expect.ACCEPTABLE, desc = "the reader held the lock first")
@Outcome(id = "1, 1", expect = Expect.ACCEPTABLE, desc = "the reader saw the whole section")
@Outcome(id = "1, 0", expect = Expect.FORBIDDEN, desc = "the reader saw half the section")
@Outcome(id = "0, 1", expect = Expect.FORBIDDEN, desc = "the reader saw half the section, reordered")
@State
public class SpinLockVisibilityTest {
  private static final VarHandle LOCKED = SpinLocks.handle(MethodHandles.lookup(), SpinLockVisibilityTest.class);

  @SuppressWarnings("unused") // through LOCKED
  private volatile int locked;
  private int a;
  private int b;

  @Actor
  public void writer() {
    SpinLocks.lock(LOCKED, this);
    try {
      a = 1;
      b = 1;
    } finally {
      SpinLocks.unlock(LOCKED, this);
    }
  }

  @Actor
  public void reader(II_Result r) {
    SpinLocks.lock(LOCKED, this);
    try {
      r.r1 = a;
      r.r2 = b;
    } finally {
      SpinLocks.unlock(LOCKED, this);
    }
  }
}
