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
   * Collects the whole heap, so that what a trial keeps (schedulers, carriers, run queues, the
   * long-lived strands) sits in the old generation before the iteration starts, as it does in a
   * process that has run for a while. Call it from a {@code @Setup(Level.Iteration)} method; JMH
   * does not time it.
   *
   * <p>Why: with G1, a reference stored into an old object costs a fence in the write barrier, one
   * stored into a young object does not. A fresh trial's long-lived objects start young and are
   * promoted after some fifteen collections, somewhere in the middle of the run, so the per-operation
   * time of an allocating benchmark jumps during the run (spawn + join on one carrier: 37 to 64 ns
   * a child between the fourth and fifth iteration), which showed up as a JMH error of more than half
   * the score. Collecting before each iteration measures every iteration, and every competitor, in
   * the promoted state (what {@code -gc true} does for a whole run).
   */
  public static void settleHeap() {
    System.gc();
  }

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
