package io.krill.netio;

import io.krill.netio.internal.LeakRecordingDetector;
import io.krill.fibers.Fiber;
import io.krill.fibers.FiberScheduler;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.util.ResourceLeakDetector;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Checks after every netio test: no fiber of the test schedulers is left, every handler of
 * the transport matrix ran on its channel's own loop, and Netty's paranoid leak detector
 * reported no unreleased buffer. Registered for all tests through
 * {@code META-INF/services} and JUnit's extension autodetection.
 */
public final class NetioInvariantsExtension implements AfterEachCallback {
  private static final long GRACE_NANOS = 5_000_000_000L;

  @Override
  public void afterEach(ExtensionContext context) throws InterruptedException {
    if (ResourceLeakDetector.getLevel() != ResourceLeakDetector.Level.PARANOID) {
      throw new AssertionError("tests must run with -Dio.netty.leakDetectionLevel=paranoid");
    }
    long deadline = System.nanoTime() + GRACE_NANOS;
    List<String> problems = new ArrayList<>();
    for (FiberScheduler scheduler : TestLoops.schedulers()) {
      List<Fiber> live;
      while (!(live = scheduler.liveFibers()).isEmpty() && System.nanoTime() < deadline) {
        Thread.sleep(10);
      }
      if (!live.isEmpty()) {
        problems.add(live.size() + " leaked fiber(s) on " + scheduler + ":\n" + scheduler.dumpParked());
      }
    }
    problems.addAll(TestLoops.drainCarrierProblems());
    problems.addAll(leaks());
    if (!problems.isEmpty()) {
      throw new AssertionError("netio invariants broken after " + context.getDisplayName() + ":\n  "
          + String.join("\n  ", problems));
    }
  }

  /** Collects garbage and makes the detector poll its queue, which happens on allocation. */
  static List<String> leaks() throws InterruptedException {
    for (int i = 0; i < 3; i++) {
      System.gc();
      Thread.sleep(20);
      for (int j = 0; j < 50; j++) {
        ByteBuf a = PooledByteBufAllocator.DEFAULT.buffer(8);
        a.release();
        ByteBuf b = UnpooledByteBufAllocator.DEFAULT.buffer(8);
        b.release();
      }
    }
    return LeakRecordingDetector.drain();
  }
}
