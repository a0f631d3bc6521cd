package io.krill.benchmarks.continuations;

import io.krill.benchmarks.internal.BatchWorker;
import io.krill.benchmarks.internal.JmhDefaults;
import io.krill.fibers.Continuation;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * A tight loop whose body calls a suspendable method, per element: {@code woven}
 * ({@link WovenLoops#tight}) in a continuation on a carrier thread, or {@code unwoven}
 * ({@link PlainLoops#tight}) on the same thread.
 *
 * <p>One element of each batch makes the woven loop suspend, and the continuation is resumed
 * at once, so the loop is entered both afresh and from its restore path, as a loop in a real
 * fiber is; that is what used to make C2 mark it irreducible. The resume costs one
 * suspend/resume per {@link #BATCH} elements.
 */
@State(Scope.Thread)
public class TightLoopBenchmark extends JmhDefaults {
  /** Elements per benchmark invocation. */
  public static final int BATCH = 10_000;

  @Param({"woven", "unwoven"})
  public String weaving;

  private BatchWorker worker;
  private Runnable batch;
  private volatile long sink;

  /** Builds the array and the batch. */
  @Setup
  public void setUp() {
    int[] a = new int[BATCH];
    for (int i = 0; i < a.length; i++) {
      a[i] = i;
    }
    a[BATCH / 2] = Integer.MIN_VALUE;
    worker = BatchWorker.carrier();
    switch (weaving) {
      case "woven":
        batch = () -> {
          Continuation c = new Continuation(() -> sink = WovenLoops.tight(a));
          int runs = 0;
          do {
            c.run();
            runs++;
          } while (!c.isDone());
          if (runs != 2) {
            throw new IllegalStateException("runs: " + runs + " (expected: 2)");
          }
        };
        break;
      case "unwoven":
        batch = () -> sink = PlainLoops.tight(a);
        break;
      default:
        throw new IllegalArgumentException("weaving: " + weaving + " (expected: woven or unwoven)");
    }
  }

  /**
   * Runs the loop over {@link #BATCH} elements.
   *
   * @return the sum, so that it is not dead code
   */
  @Benchmark
  @OperationsPerInvocation(BATCH)
  public long loop() {
    worker.run(batch);
    return sink;
  }

  /** Stops the worker. */
  @TearDown
  public void tearDown() {
    worker.close();
  }
}
