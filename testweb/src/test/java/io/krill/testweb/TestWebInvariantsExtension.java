package io.krill.testweb;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
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
import org.slf4j.LoggerFactory;

/**
 * Checks after every test that serves the synthetic web: no fiber of the default scheduler is
 * left (every connection ended with {@code close()}), and Netty's paranoid leak detector
 * reported no unreleased buffer (its reports are caught from its logger).
 */
final class TestWebInvariantsExtension implements AfterEachCallback {
  private static final long GRACE_NANOS = 5_000_000_000L;
  private static final ListAppender<ILoggingEvent> LEAKS = new ListAppender<>();

  static {
    Logger logger = (Logger) LoggerFactory.getLogger(ResourceLeakDetector.class);
    LEAKS.start();
    logger.addAppender(LEAKS);
  }

  @Override
  public void afterEach(ExtensionContext context) throws InterruptedException {
    if (ResourceLeakDetector.getLevel() != ResourceLeakDetector.Level.PARANOID) {
      throw new AssertionError("tests must run with -Dio.netty.leakDetectionLevel=paranoid");
    }
    List<String> problems = new ArrayList<>();
    FiberScheduler scheduler = FiberScheduler.defaultScheduler();
    long deadline = System.nanoTime() + GRACE_NANOS;
    List<Fiber> live;
    while (!(live = scheduler.liveFibers()).isEmpty() && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
    if (!live.isEmpty()) {
      problems.add(live.size() + " fiber(s) left:\n" + scheduler.dumpParked());
    }
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
    synchronized (LEAKS) {
      for (ILoggingEvent e : LEAKS.list) {
        if (e.getFormattedMessage().contains("LEAK")) {
          problems.add(e.getFormattedMessage());
        }
      }
      LEAKS.list.clear();
    }
    if (!problems.isEmpty()) {
      throw new AssertionError("testweb invariants broken after " + context.getDisplayName() + ":\n  " + String.join("\n  ", problems));
    }
  }
}
