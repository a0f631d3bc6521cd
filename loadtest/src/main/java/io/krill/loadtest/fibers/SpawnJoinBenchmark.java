package io.krill.loadtest.fibers;

import io.krill.fibers.Fiber;
import io.krill.fibers.Suspendable;
import io.krill.fibers.VirtualThreads;
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
 * Spawn + join: a parent strand starts {@link #BATCH} children that return at once, then joins
 * each; one operation is one child started, run, finished and joined.
 *
 * <p>Competitors: {@code fiber} (krill fibers on one event loop, the parent a fiber too, so a
 * join suspends it; the live-fiber registry off, the library default), {@code fiberTracked}
 * (the same with the registry on, {@code -Dkrill.fibers.track=true}), {@code virtualThread} (one
 * carrier, {@code Thread.join}) and {@code platform} ({@code new Thread}, {@code start},
 * {@code join}). Run pinned to one CPU.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Djdk.virtualThreadScheduler.parallelism=1",
    "-Djdk.virtualThreadScheduler.maxPoolSize=1"})
public class SpawnJoinBenchmark {
  /** Children per invocation. */
  public static final int BATCH = 1_000;

  @Param({"fiber", "fiberTracked", "virtualThread", "platform"})
  public String competitor;

  static volatile long sink;

  private Model model;

  /** Creates the scheduler, or the model whose driver thread runs the parent. */
  @Setup
  public void setUp() {
    switch (competitor) {
      case "fiber":
      case "fiberTracked":
        model = Model.create(competitor, 1);
        break;
      case "virtualThread":
        model = Model.create("virtualThreadChannel", 1);
        break;
      case "platform":
        model = Model.create("platformChannel", 1);
        break;
      default:
        throw new IllegalArgumentException("competitor: " + competitor
            + " (expected: fiber, fiberTracked, virtualThread or platform)");
    }
  }

  /** Spawns and joins {@link #BATCH} children. */
  @Benchmark
  @OperationsPerInvocation(BATCH)
  public void spawnJoin() {
    if (competitor.startsWith("fiber")) {
      model.runAndWait(SpawnJoinBenchmark::fibers);
    } else {
      boolean virtual = competitor.equals("virtualThread");
      model.runAndWait(() -> threads(virtual));
    }
  }

  /** Closes the scheduler. */
  @TearDown
  public void tearDown() {
    model.close();
  }

  private static void fibers() throws Suspendable {
    Fiber[] children = new Fiber[BATCH];
    for (int i = 0; i < BATCH; i++) {
      children[i] = Fiber.start(SpawnJoinBenchmark::child);
    }
    for (Fiber f : children) {
      f.join();
    }
  }

  private static void threads(boolean virtual) {
    Thread[] children = new Thread[BATCH];
    for (int i = 0; i < BATCH; i++) {
      Thread t = virtual ? VirtualThreads.unstarted(SpawnJoinBenchmark::childThread) : new Thread(SpawnJoinBenchmark::childThread);
      t.start();
      children[i] = t;
    }
    try {
      for (Thread t : children) {
        t.join();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }

  private static void child() throws Suspendable {
    sink++;
  }

  private static void childThread() {
    sink++;
  }
}
