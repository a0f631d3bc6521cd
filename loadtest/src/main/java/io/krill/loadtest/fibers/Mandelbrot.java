package io.krill.loadtest.fibers;

import io.krill.fibers.Continuation;
import io.krill.fibers.Fiber;
import io.krill.fibers.FiberScheduler;
import io.krill.fibers.FiberSemaphore;
import io.krill.fibers.Suspendable;
import io.krill.loadtest.internal.VirtualThreads;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Pixel-parallel Mandelbrot (PicoThreads / JVMCSP): one strand per pixel, each computing its
 * escape count into a shared array; the checksum ({@code Arrays.hashCode} of the counts) must
 * equal the sequential one for every competitor.
 *
 * <pre>
 * java -cp benchmarks.jar io.krill.loadtest.fibers.Mandelbrot WIDTH HEIGHT ROUNDS [SECONDS]
 * </pre>
 *
 * <p>Competitors, run interleaved round by round in one JVM: {@code sequential} (one loop on
 * the main thread, the floor), {@code fiberStealing} (a fiber per pixel on the work-stealing
 * scheduler with one worker per core), {@code fiberEventLoop} (the same on the event-loop
 * scheduler: a fiber spawns onto its own loop, so one core does the work), {@code virtualThread}
 * (a virtual thread per pixel, default parallelism) and {@code platformPool} (a task per pixel
 * on a fixed pool of one platform thread per core; a platform thread per pixel would take
 * minutes). The spawning strand keeps at most {@link #WINDOW} pixels in flight with a
 * {@link FiberSemaphore}, so memory stays bounded. Prints one {@code mandelbrot ...} line per run,
 * and exits 1 on a checksum mismatch. Rounds stop early (and say so) after {@code SECONDS}
 * (default 900).
 */
public final class Mandelbrot {
  /** Pixels in flight at most. */
  public static final int WINDOW = 10_000;
  /** Escape-count limit. */
  public static final int MAX_ITERATIONS = 256;
  static final String[] COMPETITORS = {"sequential", "fiberStealing", "fiberEventLoop", "virtualThread", "platformPool"};

  private final int width;
  private final int height;
  private final int[] counts;

  private Mandelbrot(int width, int height) {
    this.width = width;
    this.height = height;
    this.counts = new int[width * height];
  }

  /**
   * Runs the competitors.
   *
   * @param args WIDTH HEIGHT ROUNDS [SECONDS]
   * @throws Exception if a run fails
   */
  public static void main(String[] args) throws Exception {
    if (args.length < 3 || args.length > 4) {
      System.err.println("usage: Mandelbrot WIDTH HEIGHT ROUNDS [SECONDS]");
      System.exit(2);
    }
    int width = Integer.parseInt(args[0]);
    int height = Integer.parseInt(args[1]);
    int rounds = Integer.parseInt(args[2]);
    long seconds = args.length == 4 ? Long.parseLong(args[3]) : 900;
    if (width <= 0 || height <= 0 || (long) width * height > 100_000_000 || rounds <= 0 || seconds <= 0) {
      System.err.println("Mandelbrot: WIDTH, HEIGHT, ROUNDS, SECONDS must be > 0 and WIDTH*HEIGHT <= 1e8");
      System.exit(2);
    }
    int cores = Runtime.getRuntime().availableProcessors();
    long deadline = System.nanoTime() + seconds * 1_000_000_000L;
    Mandelbrot m = new Mandelbrot(width, height);
    Integer reference = null;
    boolean ok = true;
    for (int round = 1; round <= rounds; round++) {
      if (round > 1 && System.nanoTime() > deadline) {
        System.out.println("mandelbrot stopped: time bound of " + seconds + " s before round " + round);
        break;
      }
      for (String c : COMPETITORS) {
        if (c.equals("virtualThread") && !VirtualThreads.available()) {
          System.out.println("mandelbrot competitor=virtualThread " + VirtualThreads.SKIPPED);
          continue;
        }
        Arrays.fill(m.counts, -1);
        long t0 = System.nanoTime();
        m.run(c, cores);
        long nanos = System.nanoTime() - t0;
        int checksum = Arrays.hashCode(m.counts);
        if (reference == null) {
          reference = checksum;
        }
        boolean match = checksum == reference;
        ok &= match;
        System.out.printf(Locale.ROOT, "mandelbrot competitor=%s round=%d width=%d height=%d seconds=%.3f"
            + " nsPerPixel=%.1f checksum=%08x match=%s cores=%d%n", c, round, width, height, nanos / 1e9,
            nanos / (double) m.counts.length, checksum, match, cores);
      }
    }
    System.exit(ok ? 0 : 1);
  }

  private void run(String competitor, int cores) throws Exception {
    switch (competitor) {
      case "sequential":
        for (int i = 0; i < counts.length; i++) {
          pixel(i);
        }
        break;
      case "fiberStealing":
      case "fiberEventLoop":
        try (FiberScheduler s = competitor.equals("fiberStealing") ? FiberScheduler.workStealing(cores)
            : FiberScheduler.eventLoop(cores)) {
          Fiber driver = Fiber.builder().scheduler(s).start(this::spawnFibers);
          Throwable t = Continuation.callOnThread(driver::joinFailure);
          if (t != null) {
            throw new IllegalStateException("driver failed", t);
          }
        }
        break;
      case "virtualThread":
        Thread driver = VirtualThreads.start(() -> Continuation.runOnThread(this::spawnVirtualThreads));
        driver.join();
        break;
      case "platformPool":
        ExecutorService pool = Executors.newFixedThreadPool(cores);
        try {
          Continuation.runOnThread(() -> submitTasks(pool));
        } finally {
          pool.shutdown();
        }
        break;
      default:
        throw new IllegalArgumentException("competitor: " + competitor);
    }
  }

  private void spawnFibers() throws Suspendable {
    FiberSemaphore window = FiberSemaphore.create(WINDOW);
    for (int i = 0; i < counts.length; i++) {
      window.acquire();
      int p = i;
      Fiber.start(() -> {
        pixel(p);
        window.release();
      });
    }
    window.acquire(WINDOW);
  }

  private void spawnVirtualThreads() throws Suspendable {
    FiberSemaphore window = FiberSemaphore.create(WINDOW);
    for (int i = 0; i < counts.length; i++) {
      window.acquire();
      int p = i;
      VirtualThreads.start(() -> {
        pixel(p);
        window.release();
      });
    }
    window.acquire(WINDOW);
  }

  private void submitTasks(ExecutorService pool) throws Suspendable {
    FiberSemaphore window = FiberSemaphore.create(WINDOW);
    for (int i = 0; i < counts.length; i++) {
      window.acquire();
      int p = i;
      pool.execute(() -> {
        pixel(p);
        window.release();
      });
    }
    window.acquire(WINDOW);
  }

  /* Fields written by many strands, read after the semaphore's final acquire (happens-before). */
  private void pixel(int index) {
    int px = index % width;
    int py = index / width;
    double cr = -2.5 + 3.5 * px / width;
    double ci = -1.25 + 2.5 * py / height;
    double zr = 0;
    double zi = 0;
    int n = 0;
    while (n < MAX_ITERATIONS && zr * zr + zi * zi <= 4) {
      double t = zr * zr - zi * zi + cr;
      zi = 2 * zr * zi + ci;
      zr = t;
      n++;
    }
    counts[index] = n;
  }
}
