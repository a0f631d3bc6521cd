package io.krill.loadtest.load;

import io.krill.netio.internal.LeakRecordingDetector;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.util.ResourceLeakDetector;
import java.util.List;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Fails a load-harness test after which Netty's paranoid leak detector reported an unreleased
 * buffer (in this JVM: the generator's and the test servers' buffers).
 */
public final class LeakCheckExtension implements AfterEachCallback {
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
      throw new AssertionError("Netty buffers leaked in " + context.getDisplayName() + ":\n  " + String.join("\n  ", leaks));
    }
  }
}
