package io.krill.fibers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class SpinLocksTest {
  /** A counter whose read-modify-write is only atomic under the lock. */
  static final class Counter {
    private volatile int locked;
    private static final VarHandle LOCKED = SpinLocks.handle(MethodHandles.lookup(), Counter.class);
    long value; // plain: a lost update shows if the lock does not exclude

    void add() {
      SpinLocks.lock(LOCKED, this);
      try {
        long v = value;
        if ((v & 63) == 0) {
          Thread.yield(); // widen the window now and then
        }
        value = v + 1;
      } finally {
        SpinLocks.unlock(LOCKED, this);
      }
    }
  }

  @Test
  @Timeout(60)
  void lock_manyThreadsIncrementing_noUpdateLost() throws Exception {
    Counter c = new Counter();
    int threads = 4;
    int each = 200_000;
    CountDownLatch start = new CountDownLatch(1);
    List<Thread> ts = new ArrayList<>();
    for (int i = 0; i < threads; i++) {
      Thread t = new Thread(() -> {
        try {
          start.await();
        } catch (InterruptedException e) {
          return;
        }
        for (int k = 0; k < each; k++) {
          c.add();
        }
      });
      t.start();
      ts.add(t);
    }
    start.countDown();
    for (Thread t : ts) {
      t.join(TimeUnit.SECONDS.toMillis(50));
    }
    assertThat(c.value).isEqualTo((long) threads * each);
  }

  static final class NoField {
  }

  @Test
  void handle_classWithoutLockedField_namesTheClass() {
    assertThatThrownBy(() -> SpinLocks.handle(MethodHandles.lookup(), NoField.class))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("SpinLocksTest$NoField has no 'private volatile int locked' field");
  }
}
