package io.krill.loadtest.continuations;

import io.krill.fibers.Continuation;
import io.krill.fibers.VirtualThreads;
import io.krill.loadtest.internal.BatchWorker;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One suspend plus one resume, per operation, with the suspending code {@code callDepth}
 * frames deep.
 *
 * <p>Competitors:
 * <ul>
 *   <li>{@code continuation}: a krill continuation run in a loop on a {@code CarrierThread};
 *       each {@code run()} restores {@code depth} woven frames and captures them again;
 *   <li>{@code continuationOffCarrier}: the same on a plain platform thread, where woven code
 *       finds the continuation through the thread-local fallback;
 *   <li>{@code virtualThread}: JDK virtual threads with one carrier, park/unpark ping-pong;
 *       one operation is one switch (half a round trip);
 *   <li>{@code virtualThreadYield}: one virtual thread calling {@code Thread.yield()}, which
 *       unmounts it and mounts it again through the scheduler;
 *   <li>{@code stateMachine}: a hand-written state machine with one object per frame, the
 *       floor.
 * </ul>
 *
 * <p>Every competitor runs {@link #BATCH} operations per benchmark invocation on a worker
 * thread that the JMH thread hands the batch to, so the hand-off is the same and amortized.
 * Virtual-thread competitors throw {@link VirtualThreads#UNAVAILABLE} on JDKs before 21.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Djdk.virtualThreadScheduler.parallelism=1",
    "-Djdk.virtualThreadScheduler.maxPoolSize=1"})
public class SuspendResumeBenchmark {
  /** Operations per benchmark invocation. */
  public static final int BATCH = 10_000;

  /*
   * JMH runs parameters in the alphabetical order of their names, the first outermost: with
   * callDepth before competitor, the competitors of one depth run one after another, and the
   * two of the main goal are adjacent.
   */
  @Param({"1", "5", "20"})
  public int callDepth;

  @Param({"continuation", "virtualThread", "stateMachine", "continuationOffCarrier", "virtualThreadYield"})
  public String competitor;

  private BatchWorker worker;
  private VirtualThreadPingPong pingPong;
  private Runnable batch;
  private SuspendingLoop loop;
  private StateMachineFrame machine;

  /** Builds the competitor and runs one batch, so that the stack is suspended at depth. */
  @Setup
  public void setUp() {
    int depth = callDepth;
    switch (competitor) {
      case "continuation":
      case "continuationOffCarrier":
        worker = competitor.equals("continuation") ? BatchWorker.carrier() : BatchWorker.platform();
        loop = new SuspendingLoop(depth);
        Continuation c = new Continuation(loop);
        batch = () -> {
          for (int i = 0; i < BATCH; i++) {
            c.run();
          }
        };
        break;
      case "virtualThread":
        VirtualThreadPingPong p = new VirtualThreadPingPong(depth);
        pingPong = p;
        batch = () -> p.run(BATCH);
        break;
      case "virtualThreadYield":
        worker = new BatchWorker(serve -> VirtualThreads.unstarted(() -> Frames.below(depth, serve)));
        batch = () -> {
          for (int i = 0; i < BATCH; i++) {
            Thread.yield();
          }
        };
        break;
      case "stateMachine":
        worker = BatchWorker.carrier();
        StateMachineFrame m = StateMachineFrame.chain(depth);
        machine = m;
        batch = () -> {
          for (int i = 0; i < BATCH; i++) {
            m.resume();
          }
        };
        break;
      default:
        throw new IllegalArgumentException("competitor: " + competitor
            + " (expected: continuation, continuationOffCarrier, virtualThread, virtualThreadYield or stateMachine)");
    }
    switchBatch();
  }

  /** Runs {@link #BATCH} suspend+resume operations. */
  @Benchmark
  @OperationsPerInvocation(BATCH)
  public void switchBatch() {
    if (pingPong != null) {
      batch.run();
    } else {
      worker.run(batch);
    }
  }

  /** Stops the threads and checks that the loops really ran. */
  @TearDown
  public void tearDown() {
    if (loop != null && loop.resumes == 0) {
      throw new IllegalStateException("continuation never resumed");
    }
    if (machine != null && machine.bottomResumes() == 0) {
      throw new IllegalStateException("state machine never resumed");
    }
    if (pingPong != null) {
      pingPong.close();
    }
    if (worker != null) {
      worker.close();
    }
  }
}
