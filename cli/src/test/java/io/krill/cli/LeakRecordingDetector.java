package io.krill.cli;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.util.ResourceLeakDetector;
import java.util.ArrayList;
import java.util.List;

/**
 * Netty's paranoid leak detector, keeping what it reports so a test can fail on it. Installed
 * through {@code io.netty.customResourceLeakDetector} (cli/pom.xml).
 *
 * @param <T> the tracked type
 */
public final class LeakRecordingDetector<T> extends ResourceLeakDetector<T> {
  private static final List<String> LEAKS = new ArrayList<>();

  /** Called by Netty's factory. */
  public LeakRecordingDetector(Class<?> resourceType, int samplingInterval) {
    super(resourceType, samplingInterval);
  }

  @Override
  protected boolean needReport() {
    return true;
  }

  @Override
  protected void reportTracedLeak(String resourceType, String records) {
    record("LEAK: " + resourceType + records);
  }

  @Override
  protected void reportUntracedLeak(String resourceType) {
    record("LEAK: " + resourceType);
  }

  private static void record(String leak) {
    synchronized (LEAKS) {
      LEAKS.add(leak);
    }
  }

  /** Collects garbage, lets the detector poll (it does so on allocation), and returns and forgets the leaks. */
  static List<String> collect() throws InterruptedException {
    for (int i = 0; i < 3; i++) {
      System.gc();
      Thread.sleep(20);
      for (int j = 0; j < 50; j++) {
        ByteBuf b = PooledByteBufAllocator.DEFAULT.buffer(8);
        b.release();
      }
    }
    synchronized (LEAKS) {
      List<String> out = new ArrayList<>(LEAKS);
      LEAKS.clear();
      return out;
    }
  }
}
