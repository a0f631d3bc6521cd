package io.krill.crawler;

import io.krill.netio.internal.LeakRecordingDetector;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.util.ResourceLeakDetector;
import java.util.List;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Checks after every crawler test that Netty's paranoid leak detector reported no unreleased
 * buffer. Registered for all tests through {@code META-INF/services} and JUnit's extension
 * autodetection.
 */
public final class CrawlerInvariantsExtension implements AfterEachCallback {
  @Override
  public void afterEach(ExtensionContext context) throws InterruptedException {
    if (ResourceLeakDetector.getLevel() != ResourceLeakDetector.Level.PARANOID) {
      throw new AssertionError("tests must run with -Dio.netty.leakDetectionLevel=paranoid");
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
    List<String> leaks = LeakRecordingDetector.drain();
    if (!leaks.isEmpty()) {
      throw new AssertionError("Netty buffer leak after " + context.getDisplayName() + ":\n  " + String.join("\n  ", leaks));
    }
  }
}
