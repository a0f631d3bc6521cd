package io.krill.benchmarks.fibers;

import io.krill.benchmarks.internal.JmhDefaults;
import io.krill.fibers.Fiber;
import io.krill.fibers.Suspendable;
import io.krill.fibers.VirtualThreads;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Spawn + join: a parent strand starts {@link #BATCH} children that return at once, then joins
 * each; one operation is one child started, run, finished and joined.
 *
 * <p>Competitors: {@code fiber} (krill fibers on one event loop, the parent a fiber too, so a
 * join suspends it; the live-fiber registry off, the library default), {@code fiberTracked}
 * (the same with the registry on, {@code -Dkrill.fibers.track=true}), {@code virtualThread} (one
 * carrier, {@code Thread.join}) and {@code platform} ({@code new Thread}, {@code start},
 * {@code join}). Run pinned to one CPU.
 *
 * <p>The batch is 10,000 children: each invocation starts the parent from the JMH thread and wakes
 * that thread when the parent ends (a futex wake-up, the carrier's sleep in {@code epoll_wait} and
 * its wake-up for the next invocation). That fixed cost is the same for every competitor, so spread
 * over too few children it inflates the faster competitor's per-child time more (at 1,000
 * children a fiber's per-child time was up to twice that at 10,000; 100,000 gave the same as
 * 10,000). Before each iteration the heap is collected ({@link #settle()}), so every iteration
 * runs with the trial's long-lived objects promoted.
 */
@State(Scope.Thread)
public class SpawnJoinBenchmark extends JmhDefaults.OneCarrier {
  /** Children per invocation. */
  public static final int BATCH = 10_000;

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

  /** Collects the heap before each iteration: see {@link JmhDefaults#settleHeap()}. */
  @Setup(Level.Iteration)
  public void settle() {
    JmhDefaults.settleHeap();
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
