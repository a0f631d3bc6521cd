package io.krill.benchmarks.fibers;

import io.krill.benchmarks.internal.JmhDefaults;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * One-way park-to-unpark latency on one carrier: a {@link PingPong} between two strands; one
 * operation is one hand-over (half a round trip).
 *
 * <p>Competitors: {@code fiber} (two fibers on one event loop), {@code virtualThread} (one
 * carrier), {@code platform} (two threads; pin the run to one CPU).
 *
 * <p>The batch is 100,000 hand-overs, so that the hand-over to and from the JMH thread once per
 * invocation (the same fixed cost for every competitor) is spread thin; at 10,000 it added ~10 ns
 * to a fiber's hand-over, and at 1,000,000 nothing more went. Before each iteration the heap is
 * collected ({@link #settle()}).
 */
@State(Scope.Thread)
public class ParkUnparkBenchmark extends JmhDefaults.OneCarrier {
  /** Hand-overs per invocation. */
  public static final int BATCH = 100_000;

  @Param({"fiber", "virtualThread", "platform"})
  public String competitor;

  private Model model;
  private PingPong pingPong;

  /** Starts the answering strand. */
  @Setup
  public void setUp() {
    model = Model.create(modelName(competitor), 1);
    pingPong = new PingPong();
    PingPong p = pingPong;
    p.pong(model.spawn(p::answer));
  }

  /** Collects the heap before each iteration: see {@link JmhDefaults#settleHeap()}. */
  @Setup(Level.Iteration)
  public void settle() {
    JmhDefaults.settleHeap();
  }

  static String modelName(String competitor) {
    switch (competitor) {
      case "fiber":
        return "fiber";
      case "virtualThread":
        return "virtualThreadChannel";
      case "platform":
        return "platformChannel";
      default:
        throw new IllegalArgumentException("competitor: " + competitor + " (expected: fiber, virtualThread or platform)");
    }
  }

  /** Runs {@link #BATCH} hand-overs. */
  @Benchmark
  @OperationsPerInvocation(BATCH)
  public void handOvers() {
    PingPong p = pingPong;
    model.runAndWait(() -> p.serve(BATCH));
  }

  /** Stops the strands. */
  @TearDown
  public void tearDown() {
    pingPong.close();
    model.close();
  }
}
