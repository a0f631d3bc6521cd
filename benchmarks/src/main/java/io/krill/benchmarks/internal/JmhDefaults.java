package io.krill.benchmarks.internal;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The JMH settings every krill benchmark shares, inherited by extending this class: average time
 * in nanoseconds, 3 warm-up and 5 measured iterations of 1 s, one fork. A subclass's own
 * annotation wins over the one here (JMH looks them up through the superclasses).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public abstract class JmhDefaults {
  /** For subclasses. */
  protected JmhDefaults() {}

  /**
   * {@link JmhDefaults} with one virtual-thread carrier in the fork, so that switch costs compare
   * one carrier with krill's one loop.
   */
  @Fork(value = 1, jvmArgsAppend = {"-Djdk.virtualThreadScheduler.parallelism=1",
      "-Djdk.virtualThreadScheduler.maxPoolSize=1"})
  public abstract static class OneCarrier extends JmhDefaults {
    /** For subclasses. */
    protected OneCarrier() {}
  }
}
