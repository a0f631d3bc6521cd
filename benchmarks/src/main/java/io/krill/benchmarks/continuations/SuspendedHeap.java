package io.krill.benchmarks.continuations;

import io.krill.benchmarks.internal.Heap;
import io.krill.fibers.Continuation;
import io.krill.fibers.Suspendable;
import io.krill.fibers.SuspendableRunnable;
import io.krill.fibers.VirtualThreads;
import java.lang.ref.Reference;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * Heap per suspended continuation or parked virtual thread: holds {@code count} of them,
 * collects garbage, and prints the used-heap delta divided by {@code count}.
 *
 * <pre>
 * java -Xms4g -Xmx4g -cp benchmarks/target/benchmarks.jar io.krill.benchmarks.continuations.SuspendedHeap KIND COUNT
 * </pre>
 *
 * <p>{@code KIND} is {@code continuation} or {@code virtualThread}, followed by the depth
 * {@code 1} or {@code 5}: e.g. {@code continuation1}. At depth 1 the body itself suspends with
 * two live locals, a {@code long} counter and a reference; at depth 5 the same body calls four
 * more frames that hold no live locals, and the bottom one suspends. Bodies are non-capturing,
 * so they are shared and not counted; the holding array is allocated before the baseline.
 * Prints one line: {@code heap kind=... count=... bytesPerItem=... jdk=...}, or
 * {@link VirtualThreads#UNAVAILABLE} for virtual threads on JDK 17.
 */
@Command(name = "SuspendedHeap", mixinStandardHelpOptions = true,
    description = "Heap per suspended continuation or parked virtual thread.")
public final class SuspendedHeap implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "KIND", description = "continuation1, continuation5, virtualThread1 or virtualThread5")
  String kind;

  @Parameters(index = "1", paramLabel = "COUNT", description = "how many to hold, > 0")
  int count;

  private static final Object ATTACHMENT = new Object();
  private static final AtomicInteger PARKED = new AtomicInteger();
  static volatile Object sinkRef;
  static volatile long sinkCount;

  private SuspendedHeap() {}

  /**
   * Runs one measurement.
   *
   * @param args KIND COUNT
   */
  public static void main(String[] args) {
    System.exit(new CommandLine(new SuspendedHeap()).execute(args));
  }

  /**
   * Measures with the parsed arguments.
   *
   * @return 0, or 2 for a bad argument
   * @throws InterruptedException if interrupted while waiting for threads to park
   */
  @Override
  public Integer call() throws InterruptedException {
    if (count <= 0) {
      System.err.println("SuspendedHeap: COUNT: " + count + " (expected: > 0; see SuspendedHeap --help)");
      return 2;
    }
    boolean virtual = kind.startsWith("virtualThread");
    if (virtual && !VirtualThreads.available()) {
      System.out.println("heap kind=" + kind + " skipped: " + VirtualThreads.UNAVAILABLE);
      return 0;
    }
    Object[] held = new Object[count];
    long before = Heap.usedAfterGc(5);
    switch (kind) {
      case "continuation1":
        holdContinuations(held, SuspendedHeap::depth1);
        break;
      case "continuation5":
        holdContinuations(held, SuspendedHeap::depth5);
        break;
      case "virtualThread1":
        holdVirtualThreads(held, SuspendedHeap::parkDepth1);
        break;
      case "virtualThread5":
        holdVirtualThreads(held, SuspendedHeap::parkDepth5);
        break;
      default:
        System.err.println("kind: " + kind
            + " (expected: continuation1, continuation5, virtualThread1 or virtualThread5)");
        return 2;
    }
    long after = Heap.usedAfterGc(5);
    Reference.reachabilityFence(held);
    System.out.printf(Locale.ROOT, "heap kind=%s count=%d bytesPerItem=%.1f usedBefore=%d usedAfter=%d jdk=%s%n",
        kind, count, (after - before) / (double) count, before, after, Runtime.version());
    return 0;
  }

  private static void holdContinuations(Object[] held, SuspendableRunnable body) {
    for (int i = 0; i < held.length; i++) {
      Continuation c = new Continuation(body);
      c.run();
      if (!c.isSuspended()) {
        throw new IllegalStateException("continuation did not suspend");
      }
      held[i] = c;
    }
  }

  private static void holdVirtualThreads(Object[] held, Runnable body) throws InterruptedException {
    for (int i = 0; i < held.length; i++) {
      held[i] = VirtualThreads.start(body);
    }
    while (PARKED.get() < held.length) {
      Thread.sleep(10);
    }
    for (Object t : held) {
      while (((Thread) t).getState() != Thread.State.WAITING) {
        Thread.sleep(1);
      }
    }
  }

  private static void depth1() throws Suspendable {
    long counter = sinkCount;
    Object attachment = ATTACHMENT;
    for (;;) {
      Continuation.suspend();
      counter++;
      sinkRef = attachment;
      sinkCount = counter;
    }
  }

  private static void depth5() throws Suspendable {
    long counter = sinkCount;
    Object attachment = ATTACHMENT;
    for (;;) {
      down(4);
      counter++;
      sinkRef = attachment;
      sinkCount = counter;
    }
  }

  private static void down(int frames) throws Suspendable {
    if (frames > 1) {
      down(frames - 1);
    } else {
      Continuation.suspend();
    }
  }

  private static void parkDepth1() {
    long counter = sinkCount;
    Object attachment = ATTACHMENT;
    PARKED.incrementAndGet();
    for (;;) {
      LockSupport.park();
      counter++;
      sinkRef = attachment;
      sinkCount = counter;
    }
  }

  private static void parkDepth5() {
    long counter = sinkCount;
    Object attachment = ATTACHMENT;
    for (;;) {
      parkDown(4);
      counter++;
      sinkRef = attachment;
      sinkCount = counter;
    }
  }

  private static void parkDown(int frames) {
    if (frames > 1) {
      parkDown(frames - 1);
    } else {
      PARKED.incrementAndGet();
      LockSupport.park();
    }
  }
}
