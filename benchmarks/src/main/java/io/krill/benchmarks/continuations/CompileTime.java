package io.krill.benchmarks.continuations;

import io.krill.benchmarks.internal.BatchWorker;
import io.krill.fibers.Continuation;
import io.krill.fibers.Suspendable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.function.LongFunction;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedMethod;
import jdk.jfr.consumer.RecordingFile;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * C2 compile time and code size of woven loops ({@link WovenLoops}) beside their unwoven twins
 * ({@link PlainLoops}), from JFR's {@code jdk.Compilation} events.
 *
 * <pre>
 * java -Xbatch -XX:-TieredCompilation -cp benchmarks/target/benchmarks.jar io.krill.benchmarks.continuations.CompileTime [ROUNDS] [--paths both|capture|none]
 * </pre>
 *
 * <p>{@code --paths} chooses which of a woven method's suspension paths run, and so which C2
 * compiles rather than leaving as uncommon traps: {@code both} (the default) suspends every other
 * round and resumes; {@code capture} suspends as often but abandons the continuation instead of
 * resuming it (the twins' results are then not compared); {@code none} never suspends.
 *
 * <p>Runs on a carrier thread. Each round calls every method of both classes, the woven ones in a continuation and,
 * every other round, with an element that makes them suspend and be resumed, so C2 sees the
 * restore path taken as well as the fresh entry. Prints one line per method: {@code compile
 * method=... wovenMs=... plainMs=... ratio=... wovenBytes=... plainBytes=... wovenCompiles=...
 * plainCompiles=...}, summing every
 * C2 compilation of the method (a recompilation after a deoptimization counts). A woven method
 * with a stack entry is two compilations, the entry (its woven code) and the original (the
 * forwarder that looks the stack up): both count, under the original's descriptor.
 */
@Command(name = "CompileTime", mixinStandardHelpOptions = true,
    description = "C2 compile time of woven loops beside unwoven ones (JFR jdk.Compilation).")
public final class CompileTime implements Callable<Integer> {
  @Parameters(index = "0", arity = "0..1", paramLabel = "ROUNDS", description = "rounds, > 0 (default 30000)")
  int rounds = 30_000;

  /** Which suspension paths of the woven loops run. */
  enum Paths {
    /** Suspend every other round and resume: capture and restore. */
    both,
    /** Suspend every other round and abandon the continuation: capture only. */
    capture,
    /** Never suspend. */
    none
  }

  @Option(names = "--paths", paramLabel = "both|capture|none",
      description = "suspension paths that run: both (default), capture (never resumed) or none")
  Paths paths = Paths.both;

  static volatile long sink;

  CompileTime() {}

  /**
   * Runs one measurement.
   *
   * @param args [ROUNDS]
   */
  public static void main(String[] args) {
    System.exit(new CommandLine(new CompileTime()).execute(args));
  }

  /**
   * Measures with the parsed arguments.
   *
   * @return 0, or 2 for a bad argument
   * @throws IOException if the recording cannot be written or read
   */
  @Override
  public Integer call() throws IOException {
    if (rounds <= 0) {
      System.err.println("CompileTime: ROUNDS: " + rounds + " (expected: > 0; see CompileTime --help)");
      return 2;
    }
    int[] plain = new int[64];
    int[] suspending = new int[64];
    for (int i = 0; i < plain.length; i++) {
      plain[i] = i;
      suspending[i] = i;
    }
    suspending[17] = Integer.MIN_VALUE;
    Path file = Files.createTempFile("krill-compile", ".jfr");
    try (Recording r = new Recording()) {
      r.enable("jdk.Compilation").withThreshold(Duration.ZERO);
      r.start();
      // On a carrier thread, as in a fiber: there Stack.current() is a field of the thread.
      try (BatchWorker worker = BatchWorker.carrier()) {
        worker.run(() -> {
          for (int k = 0; k < rounds; k++) {
            int[] a = (k & 1) == 0 && paths != Paths.none ? suspending : plain;
            int key = k;
            long s = 0;
            boolean resume = paths != Paths.capture;
            s += same("tight", woven(() -> WovenLoops.tight(a), resume), PlainLoops.tight(a), resume);
            s += same("nested", woven(() -> WovenLoops.nested(a, 3), resume), PlainLoops.nested(a, 3), resume);
            s += same("retry", woven(() -> WovenLoops.retry(a), resume), PlainLoops.retry(a), resume);
            s += same("switched", woven(() -> WovenLoops.switched(a, key), resume), PlainLoops.switched(a, key), resume);
            sink += s;
          }
        });
      }
      r.stop();
      r.dump(file);
    }
    Map<String, long[]> byMethod = new TreeMap<>(); // name -> {wovenNanos, plainNanos, wovenBytes, plainBytes, wovenCompiles, plainCompiles}
    for (RecordedEvent e : RecordingFile.readAllEvents(file)) {
      RecordedMethod m = e.getValue("method");
      if (m == null) { // JFR records no method for some compilations (a class unloaded before the dump)
        continue;
      }
      int level = e.getInt("compileLevel");
      String owner = m.getType().getName();
      boolean isWoven = owner.endsWith(".WovenLoops");
      if (level != 4 || !(isWoven || owner.endsWith(".PlainLoops")) || e.getBoolean("isOsr")) {
        continue;
      }
      // A woven method's stack entry (its descriptor ends in Stack and the caller's flow) counts with its forwarder, under the name users wrote.
      String desc = m.getDescriptor().replace("Lio/krill/fibers/Stack;B)", ")");
      long[] v = byMethod.computeIfAbsent(m.getName() + desc, n -> new long[6]);
      v[isWoven ? 0 : 1] += e.getDuration().toNanos();
      v[isWoven ? 2 : 3] += e.getLong("codeSize");
      v[isWoven ? 4 : 5]++;
    }
    Files.delete(file);
    LongFunction<String> ms = n -> String.format("%.2f", n / 1e6);
    byMethod.forEach((name, v) -> System.out.println("compile method=" + name
        + " wovenMs=" + ms.apply(v[0])
        + " plainMs=" + ms.apply(v[1])
        + " ratio=" + (v[1] == 0 ? "n/a" : String.format("%.2f", (double) v[0] / v[1]))
        + " wovenBytes=" + v[2] + " plainBytes=" + v[3] + " wovenCompiles=" + v[4] + " plainCompiles=" + v[5]
        + " jdk=" + Runtime.version().feature()));
    return 0;
  }

  /* The twins compute the same: a cross-check that the woven loops resumed correctly (when they were resumed). */
  private static long same(String name, long woven, long plain, boolean resumed) {
    if (resumed && woven != plain) {
      throw new IllegalStateException(name + ": woven " + woven + ", unwoven " + plain);
    }
    return woven;
  }

  /** A woven loop to run. */
  interface LongBody {
    /** @return the loop's sum @throws Suspendable never; marks that this method may suspend */
    long run() throws Suspendable;
  }

  /* Runs the body to its end, or only until it first suspends unless resume. */
  private static long woven(LongBody body, boolean resume) {
    long[] out = new long[1];
    Continuation c = new Continuation(() -> out[0] = body.run());
    do {
      c.run();
    } while (resume && !c.isDone());
    return out[0];
  }
}
