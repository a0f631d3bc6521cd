package io.krill.benchmarks.fibers;

import io.krill.benchmarks.internal.JmhDefaults;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * One-way park-to-unpark latency across two carriers: a {@link PingPong} whose two strands may
 * run on different cores; one operation is one hand-over (half a round trip).
 *
 * <p>Competitors: {@code fiber} (an event-loop scheduler with two loops, one fiber homed on
 * each, so every unpark is cross-loop), {@code virtualThread} (two carriers,
 * {@code -Djdk.virtualThreadScheduler.parallelism=2}; the JDK scheduler decides where each
 * runs), {@code platform} (two threads), and {@code fiberSameLoop} (both fibers homed on the
 * first of the two loops: the same work without the cross-thread wake-up). Run on two CPUs, not pinned to one.
 */
@State(Scope.Thread)
@Fork(value = 1, jvmArgsAppend = {"-Djdk.virtualThreadScheduler.parallelism=2"})
public class CrossLoopUnparkBenchmark extends JmhDefaults {
  /** Hand-overs per invocation. */
  public static final int BATCH = 10_000;

  @Param({"fiber", "fiberSameLoop", "virtualThread", "platform"})
  public String competitor;

  private Model model;
  private PingPong pingPong;

  /** Starts the answering strand, on the second loop for fibers. */
  @Setup
  public void setUp() {
    model = Model.create(ParkUnparkBenchmark.modelName(competitor.equals("fiberSameLoop") ? "fiber" : competitor), 2);
    pingPong = new PingPong();
    PingPong p = pingPong;
    if (model instanceof Model.FiberModel) {
      p.pong(((Model.FiberModel) model).spawnOn(competitor.equals("fiber") ? 1 : 0, p::answer));
    } else {
      p.pong(model.spawn(p::answer));
    }
  }

  /** Runs {@link #BATCH} hand-overs, the serving side on the first loop for fibers. */
  @Benchmark
  @OperationsPerInvocation(BATCH)
  public void handOvers() {
    PingPong p = pingPong;
    if (model instanceof Model.FiberModel) {
      ((Model.FiberModel) model).runAndWaitOn(0, () -> p.serve(BATCH));
    } else {
      model.runAndWait(() -> p.serve(BATCH));
    }
  }

  /** Stops the strands. */
  @TearDown
  public void tearDown() {
    pingPong.close();
    model.close();
  }
}
