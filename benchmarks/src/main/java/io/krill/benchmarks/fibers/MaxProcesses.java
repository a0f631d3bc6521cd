package io.krill.benchmarks.fibers;

import io.krill.benchmarks.internal.Heap;
import io.krill.fibers.Channel;
import io.krill.fibers.Continuation;
import io.krill.fibers.Fiber;
import io.krill.fibers.FiberScheduler;
import io.krill.fibers.Suspendable;
import io.krill.fibers.SuspendableRunnable;
import io.krill.fibers.VirtualThreads;
import io.krill.fibers.spi.Carriers;
import java.lang.ref.Reference;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * The JVMCSP max-process test: pairs of strands that exchange one value over a krill channel,
 * rising to {@code MAX} live strands in one JVM, with the heap per strand measured at each
 * step; or bare parked strands ({@code *Parked}), the shallowest stack there is.
 *
 * <pre>
 * java -Xms6g -Xmx6g -XX:+UseSerialGC -cp benchmarks/target/benchmarks.jar io.krill.benchmarks.fibers.MaxProcesses KIND MAX [SECONDS]
 * </pre>
 *
 * <p>{@code KIND}: {@code fiberPairs}, {@code fiberPairsTracked}, {@code fiberParked},
 * {@code fiberParkedTracked}, {@code fiberLooping} (krill fibers on an event-loop scheduler with one loop per core,
 * the live-fiber registry off (the library default) or on), {@code virtualThreadPairs}, {@code virtualThreadParked},
 * {@code platformPairs}. A parked virtual thread calls {@code LockSupport.park} directly in its
 * {@code run} method; a parked fiber calls {@code Fiber.park()} in its body. A looping fiber parks
 * in a loop one call below its body (a lambda) and is measured after its second park (the run
 * wakes each once): the steady state of a fiber that waits in a loop, whose body's frame only
 * waits and, with lazy resume, is set aside. In a pair, the reader waits in {@code receive} on the pair's
 * rendezvous channel and the writer parks until every strand is live, then sends.
 *
 * <p>The run spawns up to each step of 10k, 100k, 200k, 500k, 1M, 2M, 5M, 10M, ... {@code MAX}, waits until
 * every strand is parked, and prints {@code step kind=... live=N bytesPerStrand=...} (used heap
 * after full GCs minus the baseline, over N; a pair's channel counts half to each side) and the
 * resident-set growth per strand. It stops early, and says why, when the next step would not fit
 * in 85% of the heap (projected from the heap each strand of the last step added), when a thread cannot be created, or after {@code SECONDS} (default 600).
 * Then it releases every writer, waits (bounded) for all exchanges, checks them, and prints
 * {@code result kind=... maxLive=... stoppedBy=...}. Exit code 1 if an exchange was lost.
 */
@Command(name = "MaxProcesses", mixinStandardHelpOptions = true,
    description = "The max-process test: live strands rising to MAX, heap per strand at each step.")
public final class MaxProcesses implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "KIND", description = "fiberPairs, fiberPairsTracked, fiberParked,"
      + " fiberParkedTracked, fiberLooping, virtualThreadPairs, virtualThreadParked or platformPairs")
  String kind;

  @Parameters(index = "1", paramLabel = "MAX", description = "most live strands, > 0")
  long max;

  @Parameters(index = "2", arity = "0..1", paramLabel = "SECONDS", defaultValue = "600",
      description = "stop rising after this long (default: ${DEFAULT-VALUE})")
  long seconds;

  private static final long[] STEPS = {10_000, 100_000, 200_000, 500_000, 1_000_000, 2_000_000, 5_000_000,
      10_000_000, 20_000_000, 50_000_000};
  private static final double HEAP_FRACTION = 0.85;
  private static final long RELEASE_TIMEOUT_NANOS = 300_000_000_000L;

  private static final LongAdder WAITING = new LongAdder();
  private static final LongAdder DONE = new LongAdder();
  private static final LongAdder AGAIN = new LongAdder();
  private static final AtomicLong SUM = new AtomicLong();
  private static volatile boolean released;

  private MaxProcesses() {}

  /**
   * Runs the test.
   *
   * @param args KIND MAX [SECONDS] ({@code --help} explains them)
   */
  public static void main(String[] args) {
    System.exit(new CommandLine(new MaxProcesses()).execute(args));
  }

  /**
   * Runs the test with the parsed arguments.
   *
   * @return 0, or 1 if an exchange was lost
   * @throws InterruptedException if interrupted
   */
  @Override
  public Integer call() throws InterruptedException {
    if (max <= 0 || seconds <= 0) {
      usage((max <= 0 ? "MAX: " + max : "SECONDS: " + seconds) + " (expected: > 0)");
    }
    if (max > Integer.MAX_VALUE - 8) {
      usage("MAX: " + max + " (expected: < 2^31)");
    }
    boolean pairs = kind.contains("Pairs");
    boolean fibers = kind.startsWith("fiber");
    boolean virtual = kind.startsWith("virtualThread");
    boolean looping = kind.equals("fiberLooping");
    if (!kind.matches("fiber(Pairs|Parked)(Tracked)?|fiberLooping|virtualThread(Pairs|Parked)|platformPairs")) {
      usage("KIND: " + kind + " (expected: fiberPairs, fiberPairsTracked, fiberParked, fiberParkedTracked,"
          + " fiberLooping, virtualThreadPairs, virtualThreadParked or platformPairs)");
    }
    if (pairs && max % 2 != 0) {
      max++;
    }
    if (virtual && !VirtualThreads.available()) {
      System.out.println("result kind=" + kind + " skipped: " + VirtualThreads.UNAVAILABLE);
      return 0;
    }
    int cores = Runtime.getRuntime().availableProcessors();
    FiberScheduler scheduler = fibers ? Carriers.eventLoop(cores, kind.endsWith("Tracked")) : null;
    Object[] strands = new Object[(int) max];
    long deadline = System.nanoTime() + seconds * 1_000_000_000L;
    long heapMax = Runtime.getRuntime().maxMemory();
    long baseline = Heap.usedAfterGc(3);
    long rssBaseline = Heap.rss();
    int live = 0;
    String stoppedBy = "reached MAX";
    long spawnNanos = 0;
    List<Long> steps = new ArrayList<>();
    for (long s : STEPS) {
      if (s < max) {
        steps.add(s);
      }
    }
    steps.add(max);
    long prevUsed = baseline;
    int prevLive = 0;
    for (long step : steps) {
      long t0 = System.nanoTime();
      try {
        while (live < step) {
          if (pairs) {
            Channel<Long> ch = Channel.rendezvous();
            strands[live] = start(scheduler, virtual, () -> read(ch));
            strands[live + 1] = start(scheduler, virtual, () -> write(ch));
            live += 2;
          } else if (looping) {
            strands[live++] = start(scheduler, false, () -> {
              parkedTwice();
              DONE.increment(); // after the call, so the body is a frame of its own, not a forwarder
            });
          } else {
            strands[live++] = scheduler != null ? start(scheduler, false, MaxProcesses::parked)
                : VirtualThreads.start(MaxProcesses::parkedThread);
          }
          if ((live & 0xffff) == 0 && System.nanoTime() > deadline) {
            stoppedBy = "time bound of " + seconds + " s";
            break;
          }
        }
      } catch (OutOfMemoryError e) {
        stoppedBy = "thread creation failed at " + live + ": " + e.getMessage();
        if (pairs && live % 2 == 1) {
          strands[--live] = null; // its partner could not start; the unpaired reader stays parked
        }
      }
      spawnNanos += System.nanoTime() - t0;
      if (!awaitParked(strands, live, virtual || !fibers, deadline + 120_000_000_000L)) {
        stoppedBy = "strands not all parked within the time bound";
        break;
      }
      if (looping && !parkAgain(strands, prevLive, live, deadline + 120_000_000_000L)) {
        stoppedBy = "strands not all parked again within the time bound";
        break;
      }
      long used = Heap.usedAfterGc(3);
      double perStrand = (used - baseline) / (double) live;
      long rss = Heap.rss();
      System.out.printf(Locale.ROOT, "step kind=%s live=%d bytesPerStrand=%.1f rssPerStrand=%.1f usedHeap=%d"
          + " heapMax=%d spawnNsPerStrand=%.1f jdk=%s%n", kind, live, perStrand,
          (rss - rssBaseline) / (double) live, used, heapMax, spawnNanos / (double) live, Runtime.version());
      if (!stoppedBy.equals("reached MAX")) {
        break;
      }
      int next = steps.indexOf(step) + 1;
      if (next < steps.size()) {
        long nextCount = steps.get(next);
        double marginal = (used - prevUsed) / (double) (live - prevLive);
        double need = used + marginal * (nextCount - live);
        if (need > HEAP_FRACTION * heapMax) {
          stoppedBy = String.format(Locale.ROOT, "heap bound: %d strands would need ~%.0f MB of the %d MB heap",
              nextCount, need / 1048576, heapMax / 1048576);
          break;
        }
        if (System.nanoTime() > deadline) {
          stoppedBy = "time bound of " + seconds + " s";
          break;
        }
      }
      prevUsed = used;
      prevLive = live;
    }
    long t0 = System.nanoTime();
    released = true;
    for (int i = 0; i < live; i++) {
      if (!pairs || i % 2 == 1) {
        Model.wake(strands[i]);
      }
    }
    long expected = pairs ? live / 2 : live;
    while (DONE.sum() < expected && System.nanoTime() - t0 < RELEASE_TIMEOUT_NANOS) {
      Thread.sleep(5);
    }
    long exchanged = DONE.sum();
    double releaseSeconds = (System.nanoTime() - t0) / 1e9;
    Reference.reachabilityFence(strands);
    boolean ok = exchanged == expected && (!pairs || SUM.get() == expected);
    System.out.printf(Locale.ROOT, "result kind=%s maxLive=%d stoppedBy=\"%s\" completed=%d expected=%d"
        + " releaseSeconds=%.2f ok=%s%n", kind, live, stoppedBy, exchanged, expected, releaseSeconds, ok);
    return ok ? 0 : 1;
  }

  private static Object start(FiberScheduler scheduler, boolean virtual, SuspendableRunnable body) {
    if (scheduler != null) {
      return Fiber.builder().scheduler(scheduler).start(body);
    }
    Runnable r = () -> Continuation.runOnThread(body);
    if (virtual) {
      return VirtualThreads.start(r);
    }
    Thread t = new Thread(r);
    t.setDaemon(true);
    t.start();
    return t;
  }

  private static void read(Channel<Long> ch) throws Suspendable {
    WAITING.increment();
    long v = ch.receive();
    SUM.addAndGet(v);
    DONE.increment();
  }

  private static void write(Channel<Long> ch) throws Suspendable {
    WAITING.increment();
    while (!released) {
      Fiber.park();
    }
    ch.send(1L);
  }

  private static void parked() throws Suspendable {
    WAITING.increment();
    while (!released) {
      Fiber.park();
    }
    DONE.increment();
  }

  /* Parks once, then in a loop: the run wakes it once, so it is measured after its second park. */
  private static void parkedTwice() throws Suspendable {
    WAITING.increment();
    Fiber.park();
    AGAIN.increment();
    while (!released) {
      Fiber.park();
    }
  }

  /* Wakes strands [from, live) once and waits until each has parked again; false at the deadline. */
  private static boolean parkAgain(Object[] strands, int from, int live, long deadline) throws InterruptedException {
    for (int i = from; i < live; i++) {
      Model.wake(strands[i]);
    }
    while (AGAIN.sum() < live) {
      if (System.nanoTime() > deadline) {
        return false;
      }
      Thread.sleep(5);
    }
    return awaitParked(strands, live, false, deadline);
  }

  /* Threads park directly, not through krill's woven code, so their stack is the shallowest. */
  private static void parkedThread() {
    WAITING.increment();
    while (!released) {
      LockSupport.park();
    }
    DONE.increment();
  }

  /** Waits until {@code live} strands announced themselves and each is parked; false at the deadline. */
  private static boolean awaitParked(Object[] strands, int live, boolean threads, long deadline)
      throws InterruptedException {
    while (WAITING.sum() < live) {
      if (System.nanoTime() > deadline) {
        return false;
      }
      Thread.sleep(5);
    }
    for (int i = 0; i < live; i++) {
      Object s = strands[i];
      while (threads ? ((Thread) s).getState() != Thread.State.WAITING : !((Fiber) s).isParked()) {
        if (System.nanoTime() > deadline) {
          return false;
        }
        Thread.sleep(1);
      }
    }
    return true;
  }

  private static void usage(String why) {
    System.err.println("MaxProcesses: " + why + " (see MaxProcesses --help)");
    System.exit(2);
  }
}
