package io.krill.fibers.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import io.krill.fibers.Continuation;
import io.krill.fibers.SuspendableRunnable;
import io.krill.transform.InMemoryCompiler;
import io.krill.transform.MemoryClassLoader;
import io.krill.transform.Weaver;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.util.CheckClassAdapter;

/**
 * Differential fuzz test of the weaver: random programs are generated as Java
 * source, compiled with javax.tools, woven, verified with ASM's CheckClassAdapter, and run four
 * ways: unwoven on a plain thread (the reference), woven on a plain thread, woven inside a
 * Continuation that suspends at every point, and woven inside one that suspends at about half of
 * them, chosen by the program's seed (so saved frames wait while their callees run on, and
 * re-suspend deeper and shallower than before). All four must return the same result, leave the
 * same trace and throw the same exception.
 *
 * <p>The default run (500 programs, fixed seed) is part of {@code mvn test}. A long run:
 *
 * <pre>
 * mvn -B verify -pl transform,fibers -am -Dtest=ContinuationFuzzTest \
 *     -Dkrill.fuzz.count=5000 -Dkrill.fuzz.seed=7
 * </pre>
 *
 * A failure prints the seed, the program index and the program's source; rerun that one
 * program alone with {@code -Dkrill.fuzz.seed=SEED -Dkrill.fuzz.index=INDEX}. Weaving that
 * throws or never returns, a woven class that fails verification, and a continuation that
 * runs a different number of times than it has suspension points also fail.
 *
 * <p>See {@link ProgramGenerator} for what the programs contain.
 */
class ContinuationFuzzTest {
  /** Programs per javac run; also the unit of the debug-info choice (even batches get -g). */
  static final int BATCH = 50;
  /** Failures reported in full; later ones are only counted. */
  private static final int MAX_REPORTED = 10;
  /** Limits that turn a weaver or woven code that never returns into a reported failure. */
  private static final long RUN_TIMEOUT_SECONDS = 30;
  private static final long WEAVE_TIMEOUT_SECONDS = 10;
  private static final String WORKER_NAME = "fuzz-worker";

  private ExecutorService worker = newWorker();

  @AfterEach
  void stopWorker() {
    worker.shutdownNow();
  }

  @Test
  void weave_randomPrograms_suspendingRunMatchesPlainRun() throws Exception {
    fuzz(Integer.getInteger("krill.fuzz.count", 500), "");
  }

  /*
   * The programs above are woven for lazy resume, the default: their waiting frames stay aside
   * while the frames below them run on (one waiting frame is enough to make a dormant block,
   * krill.lazyResume.minFrames=1 by default, so most programs form one), and a frame
   * that returns or throws hands its result to its waiting caller. The first programs again,
   * woven with krill.weave.lazyResume=false: every resume re-enters every frame.
   */
  @Test
  void weave_randomProgramsWithoutLazyResume_suspendingRunMatchesPlainRun() throws Exception {
    String before = System.getProperty("krill.weave.lazyResume");
    System.setProperty("krill.weave.lazyResume", "false");
    try {
      fuzz(Integer.getInteger("krill.fuzz.eagerCount", 150), " (woven without lazy resume)");
    } finally {
      if (before == null) {
        System.clearProperty("krill.weave.lazyResume");
      } else {
        System.setProperty("krill.weave.lazyResume", before);
      }
    }
  }

  private void fuzz(int count, String label) throws Exception {
    long seed = Long.getLong("krill.fuzz.seed", 20261121L);
    Integer only = Integer.getInteger("krill.fuzz.index");
    int from = only == null ? 0 : only;
    int to = only == null ? count : only + 1;

    InMemoryCompiler javac = InMemoryCompiler.against(Continuation.class, FuzzRuntime.class);
    Stats stats = new Stats();
    List<String> failures = new ArrayList<>();
    int[] failed = {0};
    long start = System.nanoTime();
    try {
      for (int batchStart = from; batchStart < to; batchStart = (batchStart / BATCH + 1) * BATCH) {
        int batchEnd = Math.min(to, (batchStart / BATCH + 1) * BATCH);
        runBatch(javac, seed, batchStart, batchEnd, stats, failure -> {
          if (failed[0]++ < MAX_REPORTED) {
            failures.add(failure);
          }
        });
      }
    } finally {
      javac.close();
    }
    System.out.printf("krill fuzz%s: seed %d, %d programs in %d ms: %s%n", label, seed, to - from,
        TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start), stats);
    assertThat(failed[0])
        .withFailMessage(() -> failed[0] + " of " + (to - from) + " programs" + label + " failed " + stats.failures + " (seed " + seed + "; the first "
            + failures.size() + " follow)\n\n" + String.join("\n\n", failures))
        .isZero();
    if (only == null) {
      assertThat(stats.suspensions).as("suspensions over the whole run").isGreaterThan(count);
    }
  }

  @Test
  void generate_sameSeedAndIndex_sameSource() {
    String a = new ProgramGenerator(programSeed(20261121L, 3), "P3").generate();
    String b = new ProgramGenerator(programSeed(20261121L, 3), "P3").generate();
    String c = new ProgramGenerator(programSeed(20261121L, 4), "P3").generate();
    assertThat(a).isEqualTo(b).isNotEqualTo(c);
  }

  // ---------------------------------------------------------------- one batch

  private interface FailureSink {
    void accept(String failure);
  }

  private void runBatch(InMemoryCompiler javac, long seed, int from, int to, Stats stats, FailureSink failures)
      throws Exception {
    Map<String, String> sources = new LinkedHashMap<>();
    for (int i = from; i < to; i++) {
      sources.put("fuzz.P" + i, new ProgramGenerator(programSeed(seed, i), "P" + i).generate());
    }
    boolean debugInfo = (from / BATCH) % 2 == 0;
    Map<String, byte[]> plain;
    long t0 = System.nanoTime();
    try {
      // The running JDK's own release: on a newer JDK the weaver meets that javac's class files.
      plain = javac.compile(sources, "--release", Integer.toString(Runtime.version().feature()), "-proc:none",
          debugInfo ? "-g" : "-g:none");
      stats.compileNanos += System.nanoTime() - t0;
    } catch (InMemoryCompiler.CompilationException e) {
      // A generator bug, not a weaver bug: stop here with the first offending program.
      Map.Entry<String, List<String>> first = e.errors.entrySet().iterator().next();
      String name = first.getKey().replaceAll(".*/(P\\d+)\\.java$", "$1");
      throw new AssertionError("generated program does not compile: " + first.getValue() + "\n"
          + describe(seed, Integer.parseInt(name.substring(1)), sources.get("fuzz." + name)));
    }

    long t1 = System.nanoTime();
    ClassLoader testLoader = ContinuationFuzzTest.class.getClassLoader();
    Weaver weaver = InMemoryCompiler.weaverFor(plain, testLoader);
    Map<String, byte[]> woven = new LinkedHashMap<>();
    Map<Integer, String> broken = new LinkedHashMap<>();
    for (Map.Entry<String, byte[]> e : plain.entrySet()) {
      int index = programIndex(e.getKey());
      // On the worker, with a time limit: a weaver bug may also be a weaver that never returns.
      Future<byte[]> f = worker.submit(() -> weaver.weave(e.getValue()));
      try {
        woven.put(e.getKey(), f.get(WEAVE_TIMEOUT_SECONDS, TimeUnit.SECONDS));
      } catch (ExecutionException ex) { // TransformException, or a crash of the weaver
        stats.failed("weaving threw " + ex.getCause().getClass().getSimpleName());
        broken.merge(index, "weaving " + e.getKey() + " failed: " + stackTrace(ex.getCause()), (x, y) -> x + "\n" + y);
      } catch (TimeoutException ex) {
        stats.failed("weaving never returned");
        broken.merge(index, "weaving " + e.getKey() + " did not finish in " + WEAVE_TIMEOUT_SECONDS + " s:\n"
            + abandonWorker(), (x, y) -> x + "\n" + y);
      }
    }
    MemoryClassLoader plainLoader = new MemoryClassLoader(testLoader, plain);
    MemoryClassLoader wovenLoader = new MemoryClassLoader(testLoader, woven);
    for (Map.Entry<String, byte[]> e : woven.entrySet()) {
      StringWriter report = new StringWriter();
      try {
        CheckClassAdapter.verify(new ClassReader(e.getValue()), wovenLoader, false, new PrintWriter(report));
      } catch (RuntimeException | LinkageError ex) {
        report.write(stackTrace(ex));
      }
      if (!report.toString().isEmpty()) {
        stats.failed("verification");
        broken.merge(programIndex(e.getKey()), "woven " + e.getKey() + " fails verification:\n" + report,
            (x, y) -> x + "\n" + y);
      }
    }
    stats.weaveNanos += System.nanoTime() - t1;

    long t2 = System.nanoTime();
    for (int i = from; i < to; i++) {
      String source = sources.get("fuzz.P" + i);
      if (broken.containsKey(i)) {
        failures.accept(describe(seed, i, source) + "\n" + broken.get(i));
        continue;
      }
      String name = "fuzz.P" + i;
      Outcome reference = runPlain(plainLoader, name);
      Outcome offFiber = runPlain(wovenLoader, name);
      Outcome suspending = runSuspending(wovenLoader, name, 0);
      Outcome some = runSuspending(wovenLoader, name, programSeed(seed, i) | 1);
      stats.add(suspending);
      String kind = null;
      String detail = null;
      if (!offFiber.sameAs(reference)) {
        kind = "woven off-fiber run differs from the unwoven run";
        detail = reference.diff("unwoven", offFiber, "woven off-fiber");
      }
      Outcome[] runs = {suspending, some};
      String[] labels = {"every point", "some points"};
      for (int r = 0; r < runs.length && kind == null; r++) {
        if (!runs[r].sameAs(reference)) {
          kind = "run suspending at " + labels[r] + " differs from the unwoven run";
          detail = reference.diff("unwoven", runs[r], "woven, " + labels[r]);
        } else if (runs[r].runs != runs[r].suspensions + 1) {
          kind = "continuation runs do not match its suspensions at " + labels[r];
          detail = "  " + runs[r].runs + " runs for " + runs[r].suspensions
              + " suspensions (expected: one run per suspension, plus one)";
        }
      }
      if (kind != null) {
        stats.failed(kind);
        failures.accept(describe(seed, i, source) + "\n" + kind + "\n" + detail);
      }
    }
    stats.runNanos += System.nanoTime() - t2;
  }

  // ---------------------------------------------------------------- running

  /** What one run of a program did. */
  private record Outcome(String result, String error, String trace, int runs, int suspensions) {
    boolean sameAs(Outcome o) {
      return result.equals(o.result) && error.equals(o.error) && trace.equals(o.trace);
    }

    String diff(String name, Outcome o, String otherName) {
      int at = 0;
      while (at < trace.length() && at < o.trace.length() && trace.charAt(at) == o.trace.charAt(at)) {
        at++;
      }
      int context = Math.max(0, trace.lastIndexOf(';', Math.max(0, at - 1)) - 80);
      return String.format("  %-18s result=%s error=%s%n  %-18s result=%s error=%s%n"
              + "  traces differ at char %d (of %d / %d):%n    %-16s ...%s%n    %-16s ...%s",
          name, result, error, otherName, o.result, o.error, at, trace.length(), o.trace.length(),
          name, clip(trace, context), otherName, clip(o.trace, context));
    }

    private static String clip(String s, int from) {
      return s.substring(Math.min(from, s.length()), Math.min(s.length(), from + 240));
    }
  }

  private Outcome runPlain(ClassLoader loader, String name) {
    return run(loader, name, program -> {
      Continuation.runOnThread(program);
      return 1;
    });
  }

  /** @param some 0 to suspend at every point, or the seed that chooses about half of them */
  private Outcome runSuspending(ClassLoader loader, String name, long some) {
    return run(loader, name, program -> {
      if (some != 0) {
        FuzzRuntime.suspendSome(some);
      }
      Continuation c = new Continuation(program);
      int runs = 0;
      try {
        while (!c.isDone()) {
          if (runs++ > FuzzRuntime.FUEL + 1) {
            throw new IllegalStateException("continuation never finishes");
          }
          c.run();
        }
      } catch (Throwable t) {
        throw new RunFailed(t, runs);
      }
      return runs;
    });
  }

  /** How a program is run: returns the continuation runs it took, or throws what the program threw. */
  private interface Runner {
    int run(SuspendableRunnable program) throws Throwable;
  }

  /** A program that threw after {@code runs} continuation runs. */
  private static final class RunFailed extends Exception {
    private static final long serialVersionUID = 1L;
    final int runs;

    RunFailed(Throwable cause, int runs) {
      super(cause);
      this.runs = runs;
    }
  }

  /** Loads a fresh instance of the program, runs it with {@code runner} on the worker, and records what it did. */
  private Outcome run(ClassLoader loader, String name, Runner runner) {
    return onWorker(() -> {
      Object program;
      try {
        program = newProgram(loader, name);
      } catch (Throwable t) {
        return new Outcome("-", "loading: " + describe(t), "", 0, 0);
      }
      FuzzRuntime.reset();
      String error = "-";
      int runs;
      try {
        runs = runner.run((SuspendableRunnable) program);
      } catch (RunFailed t) {
        error = describe(t.getCause());
        runs = t.runs;
      } catch (Throwable t) {
        error = describe(t);
        runs = 1;
      }
      return new Outcome(String.valueOf(((Supplier<?>) program).get()), error, FuzzRuntime.trace(), runs,
          FuzzRuntime.suspensions());
    });
  }

  private static Object newProgram(ClassLoader loader, String name) throws ReflectiveOperationException {
    return Class.forName(name, true, loader).getConstructor().newInstance();
  }

  private Outcome onWorker(java.util.concurrent.Callable<Outcome> task) {
    Future<Outcome> f = worker.submit(task);
    try {
      return f.get(RUN_TIMEOUT_SECONDS, TimeUnit.SECONDS);
    } catch (TimeoutException e) {
      return new Outcome("-", "timeout: still running after " + RUN_TIMEOUT_SECONDS + " s at\n" + abandonWorker(),
          "", 0, 0);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    } catch (ExecutionException e) {
      return new Outcome("-", "harness: " + stackTrace(e.getCause()), "", 0, 0);
    }
  }

  /**
   * Gives up on a worker thread that is stuck in a weaver or program bug (it cannot be
   * stopped; it is a daemon and dies with the test JVM) and starts a new one.
   *
   * @return where the stuck thread was
   */
  private String abandonWorker() {
    StringBuilder where = new StringBuilder();
    Thread[] threads = new Thread[Thread.activeCount() + 8];
    for (int i = Thread.enumerate(threads) - 1; i >= 0; i--) {
      if (threads[i].getName().equals(WORKER_NAME)) {
        for (StackTraceElement e : threads[i].getStackTrace()) {
          where.append("    at ").append(e).append('\n');
        }
        threads[i].setName(WORKER_NAME + "-abandoned");
        stopIfPossible(threads[i]);
      }
    }
    worker.shutdownNow();
    worker = newWorker();
    return where.toString();
  }

  /*
   * A weaver stuck in a loop would otherwise spin for the rest of the run and slow every
   * later batch. Thread.stop works up to JDK 19 and throws UnsupportedOperationException
   * since; it is called reflectively so that the build has no removal warning.
   */
  private static void stopIfPossible(Thread t) {
    try {
      Thread.class.getMethod("stop").invoke(t);
    } catch (ReflectiveOperationException | RuntimeException e) {
      // not supported on this JDK: the daemon thread spins until the test JVM exits
    }
  }

  private static ExecutorService newWorker() {
    return Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(null, r, WORKER_NAME, 16L << 20);
      t.setDaemon(true);
      return t;
    });
  }

  private static String describe(Throwable t) {
    return t.getClass().getName() + ": " + t.getMessage();
  }

  // ---------------------------------------------------------------- helpers

  /** The seed of program {@code index} of a run, so that any program can be regenerated alone. */
  static long programSeed(long seed, int index) {
    long z = seed * 0x9E3779B97F4A7C15L + index;
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }

  private static int programIndex(String internalName) {
    return Integer.parseInt(internalName.replaceAll("^fuzz/P(\\d+).*$", "$1"));
  }

  private static String describe(long seed, int index, String source) {
    return "seed " + seed + ", program " + index + " (rerun alone: -Dkrill.fuzz.seed=" + seed
        + " -Dkrill.fuzz.index=" + index + ")\n---- source of fuzz/P" + index + ".java ----\n" + source
        + "---- end of source ----";
  }

  private static String stackTrace(Throwable t) {
    StringWriter s = new StringWriter();
    t.printStackTrace(new PrintWriter(s));
    return s.toString();
  }

  /** Counts over a run, printed so that a reader sees what the programs exercised. */
  private static final class Stats {
    int programs;
    long suspensions;
    int threw;
    int exhausted;
    int maxSuspensions;
    final java.util.TreeMap<String, Integer> errors = new java.util.TreeMap<>();
    final java.util.TreeMap<String, Integer> failures = new java.util.TreeMap<>();
    long compileNanos;
    long weaveNanos;
    long runNanos;

    void failed(String kind) {
      failures.merge(kind, 1, Integer::sum);
    }

    void add(Outcome o) {
      programs++;
      suspensions += o.suspensions;
      maxSuspensions = Math.max(maxSuspensions, o.suspensions);
      if (!"-".equals(o.error)) {
        threw++;
        String type = o.error.replaceAll(":.*", "").replaceAll(".*[.$]", "");
        String message = o.error.replaceAll("^[^:]*: ", "");
        errors.merge(type + (message.startsWith("boom") || message.startsWith("ise") || message.startsWith("ae") ? "(thrown)" : ""), 1, Integer::sum);
        if (o.error.contains("FuelExhausted")) {
          exhausted++;
        }
      }
    }

    @Override
    public String toString() {
      return (failures.isEmpty() ? "" : "FAILURES " + failures + "; ") + suspensions + " suspensions (max " + maxSuspensions + " in one program), " + threw
          + " programs ended by an exception " + errors + "; javac "
          + TimeUnit.NANOSECONDS.toMillis(compileNanos) + " ms, weaving and verification "
          + TimeUnit.NANOSECONDS.toMillis(weaveNanos) + " ms, runs " + TimeUnit.NANOSECONDS.toMillis(runNanos) + " ms";
    }
  }
}
