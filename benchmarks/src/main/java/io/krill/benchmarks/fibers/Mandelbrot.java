package io.krill.benchmarks.fibers;

import io.krill.fibers.Continuation;
import io.krill.fibers.Fiber;
import io.krill.fibers.FiberScheduler;
import io.krill.fibers.FiberSemaphore;
import io.krill.fibers.Suspendable;
import io.krill.fibers.VirtualThreads;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Callable;
import java.util.concurrent.Future;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * Pixel-parallel Mandelbrot (PicoThreads / JVMCSP): one strand per pixel, each computing its
 * escape count into a shared array; the checksum ({@code Arrays.hashCode} of the counts) must
 * equal the sequential one for every competitor.
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar io.krill.benchmarks.fibers.Mandelbrot WIDTH HEIGHT ROUNDS [SECONDS]
 * </pre>
 *
 * <p>Competitors, run interleaved round by round in one JVM: {@code sequential} (one loop on
 * the main thread, the floor), {@code fiberStealing} (a fiber per pixel on the work-stealing
 * scheduler with one worker per core), {@code fiberEventLoop} (the same on the event-loop
 * scheduler: a fiber spawns onto its own loop, so one core does the work), {@code virtualThread}
 * (a virtual thread per pixel, default parallelism) and {@code platformPool} (a task per pixel
 * on a fixed pool of one platform thread per core; a platform thread per pixel would take
 * minutes). A strand per row spawns a strand per pixel and joins them all (JVMCSP's par over the
 * pixels of a row); at most {@link #ROWS} rows are in flight ({@link FiberSemaphore}), so memory
 * stays bounded. Prints one {@code mandelbrot ...} line per run,
 * after an untimed warm-up pass of every competitor, and exits 1 on a checksum mismatch. Rounds stop early (and say so) after {@code SECONDS}
 * (default 900).
 */
public final class Mandelbrot {
  /** The command line. */
  @Command(name = "Mandelbrot", mixinStandardHelpOptions = true,
      description = "Pixel-parallel Mandelbrot: a strand per pixel, every competitor interleaved round by round.")
  static final class Args implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "WIDTH", description = "pixels across, > 0")
    int width;

    @Parameters(index = "1", paramLabel = "HEIGHT", description = "pixels down, > 0; WIDTH*HEIGHT <= 1e8")
    int height;

    @Parameters(index = "2", paramLabel = "ROUNDS", description = "interleaved rounds, > 0")
    int rounds;

    @Parameters(index = "3", arity = "0..1", paramLabel = "SECONDS", defaultValue = "900",
        description = "stop starting rounds after this long (default: ${DEFAULT-VALUE})")
    long seconds;

    @Override
    public Integer call() throws Exception {
      return run(this);
    }
  }

  /** Rows in flight at most. */
  public static final int ROWS = 8;
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
   */
  public static void main(String[] args) {
    System.exit(new CommandLine(new Args()).execute(args));
  }

  /* Runs the competitors with the parsed arguments: 0, 1 on a checksum mismatch, 2 on a bad argument. */
  static int run(Args a) throws Exception {
    int width = a.width;
    int height = a.height;
    int rounds = a.rounds;
    long seconds = a.seconds;
    if (width <= 0 || height <= 0 || (long) width * height > 100_000_000 || rounds <= 0 || seconds <= 0) {
      System.err.println("Mandelbrot: WIDTH, HEIGHT, ROUNDS, SECONDS: " + width + " " + height + " " + rounds + " "
          + seconds + " (expected: each > 0 and WIDTH*HEIGHT <= 1e8; see Mandelbrot --help)");
      return 2;
    }
    int cores = Runtime.getRuntime().availableProcessors();
    long deadline = System.nanoTime() + seconds * 1_000_000_000L;
    Mandelbrot m = new Mandelbrot(width, height);
    Integer reference = null;
    boolean ok = true;
    for (String c : COMPETITORS) { // untimed warm-up, so round 1 is not mostly JIT compilation
      if (!c.equals("virtualThread") || VirtualThreads.available()) {
        checksum(Math.min(width, 400), Math.min(height, 300), c, cores);
      }
    }
    for (int round = 1; round <= rounds; round++) {
      if (round > 1 && System.nanoTime() > deadline) {
        System.out.println("mandelbrot stopped: time bound of " + seconds + " s before round " + round);
        break;
      }
      for (String c : COMPETITORS) {
        if (c.equals("virtualThread") && !VirtualThreads.available()) {
          System.out.println("mandelbrot competitor=virtualThread skipped: " + VirtualThreads.UNAVAILABLE);
          continue;
        }
        long t0 = System.nanoTime();
        int checksum = m.render(c, cores);
        long nanos = System.nanoTime() - t0;
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
    return ok ? 0 : 1;
  }

  /**
   * Renders the image once with one competitor.
   *
   * @param width pixels
   * @param height pixels
   * @param competitor one of {@link #COMPETITORS}
   * @param cores carriers, workers or pool threads
   * @return the checksum of the escape counts
   * @throws Exception if a strand fails
   */
  static int checksum(int width, int height, String competitor, int cores) throws Exception {
    return new Mandelbrot(width, height).render(competitor, cores);
  }

  private int render(String competitor, int cores) throws Exception {
    Arrays.fill(counts, -1);
    run(competitor, cores);
    return Arrays.hashCode(counts);
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
          submitTasks(pool);
        } finally {
          pool.shutdown();
        }
        break;
      default:
        throw new IllegalArgumentException("competitor: " + competitor);
    }
  }

  /* A fiber per row spawns a fiber per pixel and joins them all; ROWS rows are in flight at most. */
  private void spawnFibers() throws Suspendable {
    FiberSemaphore rows = FiberSemaphore.create(ROWS);
    for (int y = 0; y < height; y++) {
      rows.acquire();
      int row = y * width;
      Fiber.start(() -> {
        Fiber[] pixels = new Fiber[width];
        for (int x = 0; x < width; x++) {
          int p = row + x;
          pixels[x] = Fiber.start(() -> pixel(p));
        }
        for (Fiber f : pixels) {
          f.join();
        }
        rows.release();
      });
    }
    rows.acquire(ROWS);
  }

  private void spawnVirtualThreads() throws Suspendable {
    FiberSemaphore rows = FiberSemaphore.create(ROWS);
    for (int y = 0; y < height; y++) {
      rows.acquire();
      int row = y * width;
      VirtualThreads.start(() -> {
        Thread[] pixels = new Thread[width];
        for (int x = 0; x < width; x++) {
          int p = row + x;
          pixels[x] = VirtualThreads.start(() -> pixel(p));
        }
        try {
          for (Thread t : pixels) {
            t.join();
          }
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IllegalStateException(e);
        } finally {
          rows.release();
        }
      });
    }
    rows.acquire(ROWS);
  }

  /* The pool's threads must not block on their own tasks, so the main thread waits for the oldest row. */
  private void submitTasks(ExecutorService pool) throws InterruptedException, ExecutionException {
    ArrayDeque<Future<?>[]> inFlight = new ArrayDeque<>();
    for (int y = 0; y < height; y++) {
      if (inFlight.size() == ROWS) {
        for (Future<?> f : inFlight.removeFirst()) {
          f.get();
        }
      }
      Future<?>[] pixels = new Future<?>[width];
      for (int x = 0; x < width; x++) {
        int p = y * width + x;
        pixels[x] = pool.submit(() -> pixel(p));
      }
      inFlight.addLast(pixels);
    }
    for (Future<?>[] row : inFlight) {
      for (Future<?> f : row) {
        f.get();
      }
    }
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
