package io.krill.benchmarks.continuations;

import io.krill.benchmarks.internal.BatchWorker;
import io.krill.benchmarks.internal.JmhDefaults;
import io.krill.fibers.Continuation;
import io.krill.fibers.SuspendableRunnable;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * What a woven method costs when it does not suspend: one call into a chain of
 * {@code callDepth} methods that could suspend but do not, per operation.
 *
 * <p>{@code weaving}: {@code woven} calls {@link WovenChain}, {@code unwoven} the identical
 * {@link PlainChain} that the weaver leaves alone. {@code thread}: {@code fiber} runs the
 * calls on a {@code CarrierThread} inside a continuation that never suspends (the intended
 * path: the continuation is a field of the thread); {@code offFiber} runs them on a plain
 * platform thread with no continuation, through {@link Continuation#runOnThread}, where woven
 * code finds "no continuation" through the thread-local fallback.
 *
 * <p>{@code inlining}: {@code jit} lets the JIT inline the chain as it likes; {@code never}
 * keeps every method of the chain out of line, so each level is a real call, as it is for
 * methods too big to inline.
 *
 * <p>Each invocation hands {@link #BATCH} calls to the worker thread; one continuation (or
 * one {@code runOnThread}) per batch.
 */
@State(Scope.Thread)
public class NonSuspendingCallBenchmark extends JmhDefaults {
  /** Calls per benchmark invocation. */
  public static final int BATCH = 10_000;

  /*
   * JMH runs parameters in the alphabetical order of their names, the first outermost: with
   * weaving last, each woven run is followed by its unwoven twin.
   */
  @Param({"1", "5", "20"})
  public int callDepth;

  @Param({"jit", "never"})
  public String inlining;

  @Param({"fiber", "offFiber"})
  public String thread;

  @Param({"woven", "unwoven"})
  public String weaving;

  private BatchWorker worker;
  private Runnable batch;
  private volatile int sink;

  /** Picks the chain and the thread. */
  @Setup
  public void setUp() {
    int d = callDepth;
    SuspendableRunnable body;
    boolean outlined;
    switch (inlining) {
      case "jit":
        outlined = false;
        break;
      case "never":
        outlined = true;
        break;
      default:
        throw new IllegalArgumentException("inlining: " + inlining + " (expected: jit or never)");
    }
    switch (weaving) {
      case "woven":
        body = outlined
            ? () -> sink = WovenOutlinedChain.calls(d, BATCH)
            : () -> sink = WovenChain.calls(d, BATCH);
        break;
      case "unwoven":
        body = outlined
            ? () -> sink = PlainOutlinedChain.calls(d, BATCH)
            : () -> sink = PlainChain.calls(d, BATCH);
        break;
      default:
        throw new IllegalArgumentException("weaving: " + weaving + " (expected: woven or unwoven)");
    }
    switch (thread) {
      case "fiber":
        worker = BatchWorker.carrier();
        batch = () -> {
          Continuation c = new Continuation(body);
          c.run();
          if (!c.isDone()) {
            throw new IllegalStateException("the chain suspended");
          }
        };
        break;
      case "offFiber":
        worker = BatchWorker.platform();
        batch = () -> Continuation.runOnThread(body);
        break;
      default:
        throw new IllegalArgumentException("thread: " + thread + " (expected: fiber or offFiber)");
    }
  }

  /**
   * Runs {@link #BATCH} calls of the chain.
   *
   * @return the last sum, so that it is not dead code
   */
  @Benchmark
  @OperationsPerInvocation(BATCH)
  public int callBatch() {
    worker.run(batch);
    return sink;
  }

  /** Stops the worker. */
  @TearDown
  public void tearDown() {
    worker.close();
  }
}
