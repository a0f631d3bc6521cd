package io.krill.netio.internal;

import io.netty.util.ResourceLeakDetector;
import java.util.ArrayList;
import java.util.List;

/**
 * Netty's leak detector, recording every leak it reports so that a test can fail on it. For
 * krill's own test suites, not API: installed only when the system property
 * {@code io.netty.customResourceLeakDetector} names this class (each module's pom does so for
 * its tests), and read with {@link #drain()}.
 *
 * @param <T> the tracked type
 */
public final class LeakRecordingDetector<T> extends ResourceLeakDetector<T> {
  private static final List<String> LEAKS = new ArrayList<>();

  /** Called by Netty's factory. */
  public LeakRecordingDetector(Class<?> resourceType, int samplingInterval, long maxActive) {
    super(resourceType, samplingInterval);
  }

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
}
