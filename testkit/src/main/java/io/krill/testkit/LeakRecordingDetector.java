package io.krill.testkit;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.util.ResourceLeakDetector;
import java.util.ArrayList;
import java.util.List;

/**
 * Netty's leak detector, recording every leak it reports so that a test can fail on it. The
 * build installs it for every module's tests with the system property
 * {@code io.netty.customResourceLeakDetector} and runs them at
 * {@code -Dio.netty.leakDetectionLevel=paranoid}; {@link #leaks()} collects what it saw.
 *
 * @param <T> the tracked type
 */
public final class LeakRecordingDetector<T> extends ResourceLeakDetector<T> {
  private static final String PROPERTY = "io.netty.customResourceLeakDetector";
  private static final List<String> LEAKS = new ArrayList<>();
  private static volatile boolean created;

  /**
   * Called by Netty's factory.
   *
   * @param resourceType the tracked type
   * @param samplingInterval ignored at the paranoid level
   * @param maxActive ignored
   */
  public LeakRecordingDetector(Class<?> resourceType, int samplingInterval, long maxActive) {
    this(resourceType, samplingInterval);
  }

  /**
   * Called by Netty's factory.
   *
   * @param resourceType the tracked type
   * @param samplingInterval ignored at the paranoid level
   */
  public LeakRecordingDetector(Class<?> resourceType, int samplingInterval) {
    super(resourceType, samplingInterval);
    created = true;
  }

  @Override
  protected boolean needReport() {
    return true;
  }

  @Override
  protected void reportTracedLeak(String resourceType, String records) {
    record("LEAK: " + resourceType + ".release() was not called before it was garbage-collected." + records);
  }

  @Override
  protected void reportUntracedLeak(String resourceType) {
    record("LEAK: " + resourceType + ".release() was not called before it was garbage-collected.");
  }

  private static void record(String leak) {
    synchronized (LEAKS) {
      LEAKS.add(leak);
    }
  }

  /** @return the leaks reported since the last call, and forgets them */
  public static List<String> drain() {
    synchronized (LEAKS) {
      List<String> out = new ArrayList<>(LEAKS);
      LEAKS.clear();
      return out;
    }
  }

  /**
   * Collects garbage, makes the detector poll its queue (which it does on allocation), and
   * returns the leaks reported since the last call. Before Netty has created a detector no
   * buffer was allocated, so there is nothing to collect.
   *
   * @return the leaks, one message each; a misconfigured build is reported as one too
   * @throws InterruptedException if interrupted while waiting for the collector
   */
  public static List<String> leaks() throws InterruptedException {
    if (ResourceLeakDetector.getLevel() != ResourceLeakDetector.Level.PARANOID) {
      return List.of("tests must run with -Dio.netty.leakDetectionLevel=paranoid");
    }
    if (!LeakRecordingDetector.class.getName().equals(System.getProperty(PROPERTY))) {
      return List.of("tests must run with -D" + PROPERTY + "=" + LeakRecordingDetector.class.getName());
    }
    if (!created) {
      return drain();
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
    return drain();
  }
}
