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
 * ({@link PlainLoops#tight}) on the same thread; with {@code -p loop=nested}, the same number
 * of elements in {@link WovenLoops#nested} (ten rows) and its twin.
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
  /** Rows of the nested loop. */
  static final int ROWS = 10;

  @Param({"woven", "unwoven"})
  public String weaving;

  /** {@code tight}: one loop over the batch; {@code nested}: ten rows of a tenth of it each. */
  @Param({"tight"})
  public String loop = "tight";

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
    boolean nested;
    switch (loop) {
      case "tight":
        nested = false;
        break;
      case "nested":
        nested = true;
        break;
      default:
        throw new IllegalArgumentException("loop: " + loop + " (expected: tight or nested)");
    }
    int[] row = nested ? new int[BATCH / ROWS] : null;
    if (nested) {
      System.arraycopy(a, 0, row, 0, row.length);
      row[row.length / 2] = Integer.MIN_VALUE; // suspends in the first row only: MIN_VALUE ^ r is not MIN_VALUE
    } else {
      a[BATCH / 2] = Integer.MIN_VALUE;
    }
    worker = BatchWorker.carrier();
    switch (weaving) {
      case "woven":
        if (nested) {
          batch = () -> runTwice(new Continuation(() -> sink = WovenLoops.nested(row, ROWS)));
          break;
        }
        batch = () -> { // as this benchmark always ran the tight loop: the JIT compiles this shape
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
        batch = nested ? () -> sink = PlainLoops.nested(row, ROWS) : () -> sink = PlainLoops.tight(a);
        break;
      default:
        throw new IllegalArgumentException("weaving: " + weaving + " (expected: woven or unwoven)");
    }
  }

  /* Runs the continuation to its end, which takes two runs: the loop suspends once. */
  private static void runTwice(Continuation c) {
    int runs = 0;
    do {
      c.run();
      runs++;
    } while (!c.isDone());
    if (runs != 2) {
      throw new IllegalStateException("runs: " + runs + " (expected: 2)");
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
